"""The worker against the clock: what would take minutes of sleeping takes milliseconds."""

import json

from worker import Worker


def send(sqs_sim, queue_url, order, **kwargs):
    sqs_sim.client().send_message(QueueUrl=queue_url, MessageBody=json.dumps(order), **kwargs)


def test_handled_orders_are_deleted(sqs_sim, orders):
    charged = []
    for n in range(3):
        send(sqs_sim, orders, {"id": f"o-{n}", "amount": n})
    assert Worker(orders, charged.append).poll_once() == 3
    assert sorted(order["id"] for order in charged) == ["o-0", "o-1", "o-2"]
    assert sqs_sim.messages("orders") == []


def test_a_delayed_order_waits_its_15_minutes(sqs_sim, orders):
    sqs_sim.pause()
    charged = []
    worker = Worker(orders, charged.append, wait_time_seconds=0)
    send(sqs_sim, orders, {"id": "later", "amount": 1}, DelaySeconds=900)
    assert [m["state"] for m in sqs_sim.messages("orders")] == ["delayed"]
    sqs_sim.advance(899)
    assert worker.poll_once() == 0
    sqs_sim.advance(1)
    assert worker.poll_once() == 1 and charged == [{"id": "later", "amount": 1}]


def test_the_retention_period_drops_an_order_nobody_handles(sqs_sim, orders):
    sqs_sim.pause()
    sqs = sqs_sim.client()
    sqs.set_queue_attributes(QueueUrl=orders, Attributes={"MessageRetentionPeriod": "60"})
    send(sqs_sim, orders, {"id": "stale", "amount": 1})
    sqs_sim.advance(59)
    assert [m["state"] for m in sqs_sim.messages("orders")] == ["visible"]
    sqs_sim.advance(1)
    assert sqs_sim.messages("orders") == []


def test_a_recovered_handler_deletes_the_retried_order(sqs_sim, orders):
    sqs_sim.pause()
    calls = []

    def flaky(order):
        calls.append(order)
        if len(calls) == 1:
            raise RuntimeError("timeout")

    worker = Worker(orders, flaky, wait_time_seconds=0)
    send(sqs_sim, orders, {"id": "o-1", "amount": 5})
    assert worker.poll_once() == 0
    sqs_sim.advance(30)
    assert worker.poll_once() == 1
    assert sqs_sim.messages("orders") == [] and sqs_sim.messages("orders-dlq") == []


def test_an_idle_worker_long_polls_on_the_fast_clock(sqs_sim, orders):
    # At 200 virtual seconds per second, the worker's 20 s long poll ends after 0.1 s.
    sqs_sim.speed(200)
    assert Worker(orders, print).poll_once() == 0
    assert sqs_sim.now() >= 20
