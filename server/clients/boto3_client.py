"""boto3 against `sqs-sim serve`: queues of each kind, messages, batches, long polls, a DLQ move,
a move task, typed errors, tags, permissions, queues per region, and the clock API making a
visibility timeout pass without sleeping.

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


def client(region):
    """An SQS client of the server, signing for `region`."""
    return boto3.client(
        "sqs",
        endpoint_url=ENDPOINT,
        region_name=region,
        aws_access_key_id="any",
        aws_secret_access_key="any",
        config=botocore.config.Config(retries={"max_attempts": 1}, read_timeout=70),
    )


sqs = client("us-east-1")


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


@test
def tags_on_creation_and_after():
    url = sqs.create_queue(QueueName="tagged", tags={"team": "payments"})["QueueUrl"]
    assert sqs.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "payments"}
    sqs.tag_queue(QueueUrl=url, Tags={"Team": "ledger", "env": ""})
    sqs.untag_queue(QueueUrl=url, TagKeys=["team", "absent"])
    assert sqs.list_queue_tags(QueueUrl=url)["Tags"] == {"Team": "ledger", "env": ""}
    sqs.untag_queue(QueueUrl=url, TagKeys=["Team", "env"])
    assert "Tags" not in sqs.list_queue_tags(QueueUrl=url)
    code = error_code(lambda: sqs.tag_queue(QueueUrl=url, Tags={"aws:stack": "s"}))
    assert code == "InvalidParameterValue", code
    too_many = {f"k{i}": "v" for i in range(51)}
    try:
        sqs.tag_queue(QueueUrl=url, Tags=too_many)
        raise AssertionError("no error")
    except botocore.exceptions.ClientError as error:
        assert error.response["Error"]["Message"] == "Too many tags added for queue tagged.", error.response
    code = error_code(lambda: sqs.list_queue_tags(QueueUrl=url + "-gone"))
    assert code == "AWS.SimpleQueueService.NonExistentQueue", code


@test
def permissions_edit_the_queue_policy():
    url = sqs.create_queue(QueueName="shared")["QueueUrl"]
    sqs.add_permission(QueueUrl=url, Label="all", AWSAccountIds=["111111111111"], Actions=["*"])
    sqs.add_permission(
        QueueUrl=url, Label="two", AWSAccountIds=["222222222222", "333333333333"], Actions=["SendMessage", "ReceiveMessage"]
    )
    policy = json.loads(sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])["Attributes"]["Policy"])
    arn = "arn:aws:sqs:us-east-1:000000000000:shared"
    assert policy["Id"] == arn + "/SQSDefaultPolicy", policy
    assert policy["Statement"] == [
        {"Sid": "all", "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111111111111:root"}, "Action": "SQS:*", "Resource": arn},
        {
            "Sid": "two",
            "Effect": "Allow",
            "Principal": {"AWS": ["arn:aws:iam::222222222222:root", "arn:aws:iam::333333333333:root"]},
            "Action": ["SQS:SendMessage", "SQS:ReceiveMessage"],
            "Resource": arn,
        },
    ], policy
    code = error_code(lambda: sqs.add_permission(QueueUrl=url, Label="all", AWSAccountIds=["111111111111"], Actions=["*"]))
    assert code == "InvalidParameterValue", code
    eight = ["SendMessage", "ReceiveMessage", "DeleteMessage", "ChangeMessageVisibility",
             "GetQueueAttributes", "GetQueueUrl", "PurgeQueue", "ListDeadLetterSourceQueues"]
    try:
        sqs.add_permission(QueueUrl=url, Label="many", AWSAccountIds=["111111111111"], Actions=eight)
        raise AssertionError("no error")
    except botocore.exceptions.ClientError as error:
        assert error.response["Error"]["Code"] == "OverLimit", error.response
        assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 403, error.response
    sqs.remove_permission(QueueUrl=url, Label="two")
    sqs.remove_permission(QueueUrl=url, Label="all")
    assert "Policy" not in sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    code = error_code(lambda: sqs.remove_permission(QueueUrl=url, Label="all"))
    assert code == "InvalidParameterValue", code


@test
def each_region_has_its_own_queues():
    eu = client("eu-west-1")
    url = eu.create_queue(QueueName="regional")["QueueUrl"]
    assert url == ENDPOINT + "/000000000000/regional", url
    arn = eu.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    assert arn == "arn:aws:sqs:eu-west-1:000000000000:regional", arn
    assert eu.list_queues()["QueueUrls"] == [url]
    assert url not in sqs.list_queues()["QueueUrls"]
    code = error_code(lambda: sqs.get_queue_url(QueueName="regional"))
    assert code == "AWS.SimpleQueueService.NonExistentQueue", code
    eu.send_message(QueueUrl=url, MessageBody="eu")
    # The URL names no region: a client signing for us-east-1 reaches us-east-1's queues.
    code = error_code(lambda: sqs.receive_message(QueueUrl=url))
    assert code == "AWS.SimpleQueueService.NonExistentQueue", code
    assert [m["Body"] for m in eu.receive_message(QueueUrl=url)["Messages"]] == ["eu"]
    # A dead-letter queue is in its source queue's region.
    us_dlq = sqs.get_queue_attributes(QueueUrl=sqs.get_queue_url(QueueName="dlq")["QueueUrl"], AttributeNames=["QueueArn"])
    policy = json.dumps({"deadLetterTargetArn": us_dlq["Attributes"]["QueueArn"], "maxReceiveCount": "1"})
    code = error_code(lambda: eu.create_queue(QueueName="eu-src", Attributes={"RedrivePolicy": policy}))
    assert code == "InvalidParameterValue", code
    eu.delete_queue(QueueUrl=url)


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
