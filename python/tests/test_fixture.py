"""The `sqs_sim` fixture used directly: endpoint, clients, environment, clock, messages()."""

import os
import time

import boto3
import pytest

from pytest_sqs_sim import SqsSimError


def test_client_talks_to_the_server(sqs_sim):
    sqs = sqs_sim.client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    assert url.startswith(sqs_sim.endpoint_url + "/")
    sqs.send_message(QueueUrl=url, MessageBody="hello")
    [message] = sqs.receive_message(QueueUrl=url)["Messages"]
    assert message["Body"] == "hello"


def test_code_that_builds_its_own_client_finds_the_server(sqs_sim):
    assert os.environ["AWS_ENDPOINT_URL_SQS"] == sqs_sim.endpoint_url
    assert "AWS_PROFILE" not in os.environ
    own = boto3.client("sqs")  # no endpoint, region or credentials in code
    own.create_queue(QueueName="found")
    assert [q["name"] for q in sqs_sim.state()["queues"]] == ["found"]


def test_each_test_starts_empty_at_time_zero(sqs_sim):
    assert sqs_sim.state()["queues"] == []
    assert sqs_sim.now() < 5  # the clock runs from 0 again
    assert sqs_sim.state()["paused"] is False


def test_pause_stops_virtual_time_and_advance_moves_it_exactly(sqs_sim):
    sqs_sim.pause()
    before = sqs_sim.now()
    time.sleep(0.05)
    assert sqs_sim.now() == before
    assert sqs_sim.advance(30)["paused"] is True
    assert sqs_sim.now() == before + 30
    sqs_sim.advance(0.5)
    assert sqs_sim.now() == before + 30.5


def test_resume_and_speed(sqs_sim):
    sqs_sim.pause()
    paused_at = sqs_sim.now()
    assert sqs_sim.speed(100)["speed"] == 100
    sqs_sim.resume()
    time.sleep(0.1)
    # At least 0.1 s of wall time has passed since resume(): at least 10 virtual seconds.
    assert sqs_sim.now() >= paused_at + 10


def test_advance_brings_back_a_message_after_its_visibility_timeout(sqs_sim):
    sqs_sim.pause()
    sqs = sqs_sim.client()
    url = sqs.create_queue(QueueName="q", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="m")
    assert len(sqs.receive_message(QueueUrl=url)["Messages"]) == 1
    sqs_sim.advance(29.9)
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    sqs_sim.advance(0.1)
    [again] = sqs.receive_message(QueueUrl=url, MessageSystemAttributeNames=["All"])["Messages"]
    assert again["Attributes"]["ApproximateReceiveCount"] == "2"


def test_messages_lists_every_state_without_receiving(sqs_sim):
    sqs_sim.pause()
    sqs = sqs_sim.client()
    url = sqs.create_queue(QueueName="orders", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sent = sqs.send_message(
        QueueUrl=url,
        MessageBody="taken",
        MessageAttributes={"kind": {"DataType": "String", "StringValue": "order"}},
    )
    sqs.receive_message(QueueUrl=url)
    sqs.send_message(QueueUrl=url, MessageBody="waiting")
    sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=60)
    sqs_sim.advance(10)

    listed = {m["Body"]: m for m in sqs_sim.messages("orders")}
    assert {body: m["state"] for body, m in listed.items()} == {
        "taken": "in_flight",
        "waiting": "visible",
        "later": "delayed",
    }
    taken = listed["taken"]
    assert taken["MessageId"] == sent["MessageId"]
    assert taken["receive_count"] == 1 and listed["waiting"]["receive_count"] == 0
    assert taken["seconds_left"] == 20 and listed["later"]["seconds_left"] == 50
    assert taken["MessageAttributes"]["kind"]["StringValue"] == "order"
    # Listing receives nothing: the counts stay, the visible message is still there to receive.
    assert sqs_sim.messages("orders") == list(listed.values())
    [received] = sqs.receive_message(QueueUrl=url)["Messages"]
    assert received["Body"] == "waiting"


def test_queues_of_another_region_are_listed_with_it(sqs_sim):
    sqs_sim.client().create_queue(QueueName="home")
    away = sqs_sim.client(region_name="eu-west-1")
    url = away.create_queue(QueueName="away")["QueueUrl"]
    away.send_message(QueueUrl=url, MessageBody="bonjour")
    listed = [(q["name"], q["region"]) for q in sqs_sim.state()["queues"]]
    assert listed == [("home", sqs_sim.region), ("away", "eu-west-1")]
    [message] = sqs_sim.messages("away", region="eu-west-1")
    assert message["Body"] == "bonjour"
    # The error says where a queue of that name is.
    with pytest.raises(SqsSimError, match=r"404: .*there is one at \?region=eu-west-1&account="):
        sqs_sim.messages("away")


def test_messages_of_a_missing_queue_is_an_error(sqs_sim):
    with pytest.raises(SqsSimError, match="404"):
        sqs_sim.messages("nope")


def test_reset_mid_test(sqs_sim):
    sqs = sqs_sim.client()
    sqs.create_queue(QueueName="before")
    sqs_sim.advance(100)
    sqs_sim.reset()
    assert sqs_sim.state()["queues"] == []
    assert sqs_sim.now() < 5


def test_a_bad_clock_request_names_the_problem(sqs_sim):
    with pytest.raises(SqsSimError, match="400.*advance"):
        sqs_sim.advance(-1)
