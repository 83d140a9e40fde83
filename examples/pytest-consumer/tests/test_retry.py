import json
import time

from worker import Worker


def test_a_failing_order_is_retried_then_dead_lettered(sqs_sim, orders):
    started = time.perf_counter()
    sqs_sim.pause()  # virtual time moves only when the test says so
    start = sqs_sim.now()
    attempts = []

    def payment_service_down(order):
        attempts.append(order["id"])
        raise RuntimeError("payment service down")

    # The worker builds its own boto3 client: the fixture set AWS_ENDPOINT_URL_SQS and friends.
    worker = Worker(orders, payment_service_down, wait_time_seconds=0)
    sqs_sim.client().send_message(QueueUrl=orders, MessageBody='{"id": "o-1", "amount": 42}')

    assert worker.poll_once() == 0  # the handler failed: the message stays, in flight
    [message] = sqs_sim.messages("orders")
    assert (message["state"], message["receive_count"]) == ("in_flight", 1)

    sqs_sim.advance(29)
    worker.poll_once()
    assert attempts == ["o-1"]  # 1 s of its 30 s visibility timeout left: not received again

    sqs_sim.advance(1)  # the visibility timeout has run out
    worker.poll_once()
    assert attempts == ["o-1", "o-1"]
    assert sqs_sim.messages("orders")[0]["receive_count"] == 2

    sqs_sim.advance(30)
    worker.poll_once()  # the third receive, maxReceiveCount's last
    sqs_sim.advance(30)
    worker.poll_once()  # a fourth would exceed maxReceiveCount: SQS moves it to the DLQ
    assert attempts == ["o-1"] * 3
    assert sqs_sim.messages("orders") == []
    [dead] = sqs_sim.messages("orders-dlq")
    assert json.loads(dead["Body"]) == {"id": "o-1", "amount": 42}

    covered = sqs_sim.now() - start
    assert round(covered) == 90
    print(
        f"\nretry example: {covered:.0f} s of SQS time in "
        f"{time.perf_counter() - started:.3f} s of wall time"
    )
