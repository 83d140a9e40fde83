"""boto3 against `sqs-sim serve`: queues of each kind, messages, batches, long polls, a DLQ move,
a move task, typed errors, and the clock API making a visibility timeout pass without sleeping.

Usage: boto3_client.py ENDPOINT (a freshly started server, account 000000000000). Prints one
line per test and ends with `N passed, N failed`; exits 1 if any failed. Run with the current
boto3 (the JSON protocol) and with boto3 1.28 / botocore 1.31.60 (the query protocol): each test
line names the protocol the client spoke.
"""

import hashlib
import json
import sys
import threading
import time
import traceback
import urllib.request

import boto3
import botocore

ENDPOINT = sys.argv[1]
sqs = boto3.client(
    "sqs",
    endpoint_url=ENDPOINT,
    region_name="us-east-1",
    aws_access_key_id="any",
    aws_secret_access_key="any",
    config=botocore.config.Config(retries={"max_attempts": 1}, read_timeout=70),
)


def clock(**change):
    """POST /_sqs-sim/clock with `change` ({"advance": 30}, {"pause": True}, …)."""
    request = urllib.request.Request(
        ENDPOINT + "/_sqs-sim/clock",
        json.dumps(change).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def error_code(call):
    try:
        call()
    except botocore.exceptions.ClientError as error:
        return error.response["Error"]["Code"]
    raise AssertionError("no error")


TESTS = []


def test(function):
    TESTS.append(function)
    return function


@test
def queues_of_each_kind():
    standard = sqs.create_queue(QueueName="standard")["QueueUrl"]
    assert standard == ENDPOINT + "/000000000000/standard", standard
    fifo = sqs.create_queue(
        QueueName="jobs.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    dlq = sqs.create_queue(QueueName="dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    assert dlq_arn == "arn:aws:sqs:us-east-1:000000000000:dlq", dlq_arn
    policy = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": "1"})
    source = sqs.create_queue(QueueName="source", Attributes={"RedrivePolicy": policy})["QueueUrl"]
    attributes = sqs.get_queue_attributes(QueueUrl=source, AttributeNames=["All"])["Attributes"]
    assert json.loads(attributes["RedrivePolicy"])["deadLetterTargetArn"] == dlq_arn
    urls = sqs.list_queues()["QueueUrls"]
    assert sorted(urls) == sorted([standard, fifo, dlq, source]), urls
    assert sqs.get_queue_url(QueueName="jobs.fifo")["QueueUrl"] == fifo
    assert sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"] == [source]


@test
def send_receive_delete_with_exact_digests():
    url = sqs.get_queue_url(QueueName="standard")["QueueUrl"]
    body = "héllo\r\n<wörld> & 🌍"
    sent = sqs.send_message(
        QueueUrl=url,
        MessageBody=body,
        MessageAttributes={
            "kind": {"DataType": "String", "StringValue": "greeting"},
            "n": {"DataType": "Number", "StringValue": "42"},
            "raw": {"DataType": "Binary", "BinaryValue": b"\x00\x01"},
        },
    )
    assert sent["MD5OfMessageBody"] == hashlib.md5(body.encode()).hexdigest()
    got = sqs.receive_message(
        QueueUrl=url, MessageAttributeNames=["All"], AttributeNames=["All"]
    )["Messages"]
    assert len(got) == 1 and got[0]["Body"] == body, got
    assert got[0]["MD5OfBody"] == sent["MD5OfMessageBody"]
    assert got[0]["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"]
    assert got[0]["MessageAttributes"]["raw"]["BinaryValue"] == b"\x00\x01"
    assert got[0]["Attributes"]["ApproximateReceiveCount"] == "1"
    sqs.delete_message(QueueUrl=url, ReceiptHandle=got[0]["ReceiptHandle"])
    assert "Messages" not in sqs.receive_message(QueueUrl=url)


@test
def fifo_order_and_deduplication():
    url = sqs.get_queue_url(QueueName="jobs.fifo")["QueueUrl"]
    for i in range(3):
        sent = sqs.send_message(QueueUrl=url, MessageBody=f"m{i}", MessageGroupId="g")
        assert "SequenceNumber" in sent
    again = sqs.send_message(QueueUrl=url, MessageBody="m0", MessageGroupId="g")
    got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in got] == ["m0", "m1", "m2"], got
    assert again["MessageId"] == got[0]["MessageId"]
    for m in got:
        sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])


@test
def batches_and_a_failed_entry():
    url = sqs.get_queue_url(QueueName="standard")["QueueUrl"]
    sent = sqs.send_message_batch(
        QueueUrl=url, Entries=[{"Id": f"e{i}", "MessageBody": f"b{i}"} for i in range(10)]
    )
    assert len(sent["Successful"]) == 10 and "Failed" not in sent, sent
    got = []
    while len(got) < 10:
        got += sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    changed = sqs.change_message_visibility_batch(
        QueueUrl=url,
        Entries=[{"Id": "c0", "ReceiptHandle": got[0]["ReceiptHandle"], "VisibilityTimeout": 60}],
    )
    assert [e["Id"] for e in changed["Successful"]] == ["c0"]
    entries = [{"Id": f"d{i}", "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(got)]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=entries.pop()["ReceiptHandle"])
    entries.append({"Id": "bad", "ReceiptHandle": "garbage"})
    deleted = sqs.delete_message_batch(QueueUrl=url, Entries=entries)
    assert len(deleted["Successful"]) == 9, deleted
    assert deleted["Failed"] == [
        {
            "Id": "bad",
            "SenderFault": True,
            "Code": "ReceiptHandleIsInvalid",
            "Message": 'The input receipt handle "garbage" is not a valid receipt handle.',
        }
    ], deleted["Failed"]
    code = error_code(
        lambda: sqs.send_message_batch(
            QueueUrl=url, Entries=[{"Id": "x", "MessageBody": "1"}, {"Id": "x", "MessageBody": "2"}]
        )
    )
    assert code == "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", code
    try:
        sqs.send_message_batch(QueueUrl=url, Entries=[])
    except sqs.exceptions.EmptyBatchRequest:
        pass


@test
def typed_errors():
    try:
        sqs.get_queue_url(QueueName="nope")
        raise AssertionError("no error")
    except sqs.exceptions.QueueDoesNotExist as error:
        assert error.response["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue"
        assert error.response["ResponseMetadata"]["HTTPHeaders"]["x-amzn-requestid"]
    url = sqs.get_queue_url(QueueName="standard")["QueueUrl"]
    try:
        sqs.delete_message(QueueUrl=url, ReceiptHandle="garbage")
        raise AssertionError("no error")
    except sqs.exceptions.ReceiptHandleIsInvalid:
        pass
    code = error_code(lambda: sqs.send_message(QueueUrl=url + "-gone", MessageBody="x"))
    assert code == "AWS.SimpleQueueService.NonExistentQueue", code
    code = error_code(lambda: sqs.set_queue_attributes(QueueUrl=url, Attributes={"Nope": "1"}))
    assert code == "InvalidAttributeName", code


@test
def visibility_timeout_passes_by_the_clock():
    url = sqs.get_queue_url(QueueName="standard")["QueueUrl"]
    clock(pause=True)
    try:
        sqs.send_message(QueueUrl=url, MessageBody="tick")
        first = sqs.receive_message(QueueUrl=url, VisibilityTimeout=300)["Messages"][0]
        assert "Messages" not in sqs.receive_message(QueueUrl=url)
        sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"], VisibilityTimeout=600)
        clock(advance=599)
        assert "Messages" not in sqs.receive_message(QueueUrl=url)
        clock(advance=1)
        again = sqs.receive_message(QueueUrl=url, AttributeNames=["All"])["Messages"][0]
        assert again["MessageId"] == first["MessageId"]
        assert again["Attributes"]["ApproximateReceiveCount"] == "2"
        sqs.delete_message(QueueUrl=url, ReceiptHandle=again["ReceiptHandle"])
    finally:
        clock(pause=False)


def receive_in_background(**args):
    result = {}

    def poll():
        started = time.monotonic()
        result["answer"] = sqs.receive_message(**args)
        result["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=poll)
    thread.start()
    return thread, result


@test
def long_polls_end_on_a_message_or_at_their_virtual_deadline():
    url = sqs.get_queue_url(QueueName="standard")["QueueUrl"]
    thread, result = receive_in_background(QueueUrl=url, WaitTimeSeconds=20)
    time.sleep(0.3)
    sqs.send_message(QueueUrl=url, MessageBody="wake")
    thread.join(10)
    assert result["answer"]["Messages"][0]["Body"] == "wake", result
    assert result["seconds"] < 5, result
    sqs.delete_message(QueueUrl=url, ReceiptHandle=result["answer"]["Messages"][0]["ReceiptHandle"])
    clock(pause=True)
    try:
        thread, result = receive_in_background(QueueUrl=url, WaitTimeSeconds=20)
        time.sleep(0.3)
        assert thread.is_alive()
        clock(advance=20)
        thread.join(10)
        assert "Messages" not in result["answer"] and result["seconds"] < 5, result
    finally:
        clock(pause=False)


@test
def a_message_moves_to_its_dlq_and_a_move_task_brings_it_back():
    source = sqs.get_queue_url(QueueName="source")["QueueUrl"]
    dlq = sqs.get_queue_url(QueueName="dlq")["QueueUrl"]
    clock(pause=True)
    try:
        sqs.send_message(QueueUrl=source, MessageBody="poison")
        sqs.receive_message(QueueUrl=source, VisibilityTimeout=30)
        clock(advance=30)
        assert "Messages" not in sqs.receive_message(QueueUrl=source)
        moved = sqs.receive_message(QueueUrl=dlq, VisibilityTimeout=0)["Messages"]
        assert [m["Body"] for m in moved] == ["poison"], moved
        dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        handle = sqs.start_message_move_task(SourceArn=dlq_arn)["TaskHandle"]
        clock(advance=10)
        tasks = sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"]
        assert tasks[0]["Status"] == "COMPLETED", tasks
        assert tasks[0]["ApproximateNumberOfMessagesMoved"] == 1, tasks
        back = sqs.receive_message(QueueUrl=source)["Messages"]
        assert [m["Body"] for m in back] == ["poison"], back
        sqs.delete_message(QueueUrl=source, ReceiptHandle=back[0]["ReceiptHandle"])
        try:
            sqs.cancel_message_move_task(TaskHandle=handle)
            raise AssertionError("no error")
        except botocore.exceptions.ClientError as error:
            # A finished task cannot be cancelled.
            assert error.response["Error"]["Code"] == "InvalidParameterValue", error.response
    finally:
        clock(pause=False)


@test
def purge_and_delete_queue():
    url = sqs.create_queue(QueueName="scratch")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="x")
    sqs.purge_queue(QueueUrl=url)
    code = error_code(lambda: sqs.purge_queue(QueueUrl=url))
    assert code == "AWS.SimpleQueueService.PurgeQueueInProgress", code
    sqs.delete_queue(QueueUrl=url)
    assert url not in sqs.list_queues().get("QueueUrls", [])


def main():
    passed = failed = 0
    label = f"boto3 {boto3.__version__} ({sqs.meta.service_model.protocol})"
    for function in TESTS:
        try:
            function()
            print(f"ok   {label} {function.__name__}")
            passed += 1
        except Exception:
            print(f"FAIL {label} {function.__name__}")
            traceback.print_exc(file=sys.stdout)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
