"""An order worker, written the way SQS consumers usually are with boto3.

It long-polls its queue, hands each message's JSON body to a handler and deletes the message
once the handler returns. A handler that raises leaves the message alone: SQS makes it visible
again when its visibility timeout runs out, and after the queue's RedrivePolicy maxReceiveCount
receives moves it to the dead-letter queue. The client comes from the environment
(AWS_ENDPOINT_URL_SQS, AWS_DEFAULT_REGION, credentials), as in production.

    QUEUE_URL=... python worker.py
"""

import json
import logging
import os

import boto3

log = logging.getLogger("worker")


class Worker:
    def __init__(self, queue_url, handler, wait_time_seconds=20, sqs=None):
        self.queue_url = queue_url
        self.handler = handler
        self.wait_time_seconds = wait_time_seconds
        self.sqs = sqs or boto3.client("sqs")

    def poll_once(self):
        """One ReceiveMessage (up to 10 messages); answers how many were handled."""
        response = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=10,
            WaitTimeSeconds=self.wait_time_seconds,
            MessageSystemAttributeNames=["ApproximateReceiveCount"],
        )
        handled = 0
        for message in response.get("Messages", []):
            receives = message["Attributes"]["ApproximateReceiveCount"]
            try:
                self.handler(json.loads(message["Body"]))
            except Exception:
                # Not deleted: it comes back after the visibility timeout (or goes to the DLQ).
                log.exception("message %s failed (receive %s)", message["MessageId"], receives)
                continue
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
            handled += 1
        return handled

    def run_forever(self):
        while True:
            self.poll_once()


def charge(order):
    """The business logic: here, just a log line."""
    log.info("charged order %s: %s", order["id"], order["amount"])


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    Worker(os.environ["QUEUE_URL"], charge).run_forever()
