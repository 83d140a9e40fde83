import json

import pytest


@pytest.fixture
def orders(sqs_sim):
    """The queue URL of "orders": 30 s visibility timeout, "orders-dlq" after 3 receives."""
    sqs = sqs_sim.client()
    dlq_url = sqs.create_queue(QueueName="orders-dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])
    redrive = {"deadLetterTargetArn": dlq_arn["Attributes"]["QueueArn"], "maxReceiveCount": 3}
    return sqs.create_queue(
        QueueName="orders",
        Attributes={"VisibilityTimeout": "30", "RedrivePolicy": json.dumps(redrive)},
    )["QueueUrl"]
