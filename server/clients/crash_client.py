"""The crash test of `sqs-sim serve --data-dir`: 50 clients send, receive and delete while the
server is killed with SIGKILL at random moments and started again on its data directory. At the
end, every message whose SendMessage was answered must have been received, and no message whose
DeleteMessage was answered may come back.

    python crash_client.py SQS_SIM [--kills N] [--clients N]

Speaks the AWS JSON 1.0 protocol with the standard library's http.client (no SDK: a call either
got its answer or did not, with no retries in between). Prints the calls answered and the kills
survived, then `1 passed, 0 failed` or the problems and `0 passed, 1 failed`.
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

QUEUE = "crash"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`sqs-sim serve` on a fixed port and data directory, killed and started again."""

    def __init__(self, binary, port, data_dir):
        self.binary, self.port, self.data_dir = binary, port, data_dir
        self.process = None
        self.starts = []

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--data-dir", self.data_dir],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines = []
        for line in self.process.stdout:
            lines.append(line.rstrip())
            if line.startswith("listening on "):
                break
        else:
            sys.exit("crash: the server did not start:\n" + "\n".join(lines))
        self.starts.append([line for line in lines if line.startswith("data directory")])
        # Keep reading its output, so it never blocks on a full pipe.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Client:
    """One connection; a call answers the parsed JSON, or None if no answer came."""

    def __init__(self, port):
        self.port = port
        self.connection = None

    def call(self, action, body):
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            self.connection.request(
                "POST",
                "/",
                json.dumps(body),
                {
                    "X-Amz-Target": "AmazonSQS." + action,
                    "Content-Type": "application/x-amz-json-1.0",
                },
            )
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return None
        return response.status, json.loads(data) if data else {}


class Ledger:
    """What the clients were told, shared by all of them."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sent = set()  # bodies whose SendMessage was answered
        self.received = set()  # bodies seen in any answered ReceiveMessage
        self.deleted = {}  # body -> when its DeleteMessage was answered (monotonic)
        self.came_back = []  # (body, how long after its delete was answered)
        self.answered = 0

    def note_receive(self, started, bodies):
        with self.lock:
            self.answered += 1
            for body in bodies:
                self.received.add(body)
                deleted = self.deleted.get(body)
                # A receive asked for after the delete was answered: the message came back.
                if deleted is not None and started > deleted:
                    self.came_back.append((body, started - deleted))


def worker(n, port, url, ledger, stop):
    client = Client(port)
    sent = 0
    while not stop.is_set():
        # Each body once: a send left unanswered may still have been taken.
        body = f"client{n}-{sent}"
        sent += 1
        answer = client.call("SendMessage", {"QueueUrl": url, "MessageBody": body})
        if answer is None:
            time.sleep(0.05)
            continue
        if answer[0] == 200:
            with ledger.lock:
                ledger.sent.add(body)
                ledger.answered += 1
        started = time.monotonic()
        answer = client.call(
            "ReceiveMessage",
            {"QueueUrl": url, "MaxNumberOfMessages": 10, "WaitTimeSeconds": random.choice([0, 1])},
        )
        if answer is None or answer[0] != 200:
            continue
        messages = answer[1].get("Messages", [])
        ledger.note_receive(started, [m["Body"] for m in messages])
        for message in messages:
            answer = client.call(
                "DeleteMessage", {"QueueUrl": url, "ReceiptHandle": message["ReceiptHandle"]}
            )
            if answer is not None and answer[0] == 200:
                with ledger.lock:
                    ledger.deleted[message["Body"]] = time.monotonic()
                    ledger.answered += 1


def drain(port, url, ledger):
    """Everything left, after the clock has moved past every visibility timeout."""
    client = Client(port)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(
        "POST",
        "/_sqs-sim/clock",
        json.dumps({"advance": 3600}),
        {"Content-Type": "application/json"},
    )
    response = connection.getresponse()
    if response.status != 200:
        sys.exit(f"crash: the clock did not advance: {response.status} {response.read()!r}")
    response.read()
    empty = 0
    while empty < 3:
        started = time.monotonic()
        answer = client.call(
            "ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": 10, "VisibilityTimeout": 600}
        )
        messages = answer[1].get("Messages", []) if answer and answer[0] == 200 else []
        ledger.note_receive(started, [m["Body"] for m in messages])
        empty = 0 if messages else empty + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    random.seed(os.environ.get("CRASH_SEED"))
    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(args.binary, port, os.path.join(data_dir, "data"))
        server.start()
        answer = Client(port).call("CreateQueue", {"QueueName": QUEUE, "Attributes": {"VisibilityTimeout": "5"}})
        url = answer[1]["QueueUrl"]
        ledger, stop = Ledger(), threading.Event()
        workers = [
            threading.Thread(target=worker, args=(n, port, url, ledger, stop))
            for n in range(args.clients)
        ]
        for w in workers:
            w.start()
        kills = 0
        for _ in range(args.kills):
            time.sleep(random.uniform(1.0, 4.0))
            server.kill()
            kills += 1
            time.sleep(random.uniform(0.0, 0.3))
            server.start()
        time.sleep(1.0)
        stop.set()
        for w in workers:
            w.join()
        drain(port, url, ledger)
        server.stop()

    lost = ledger.sent - ledger.received
    print(f"crash: {ledger.answered} calls answered, {kills} kills survived (SIGKILL, then a start on the data directory)")
    print(f"crash: {len(ledger.sent)} SendMessage answered, {len(ledger.deleted)} DeleteMessage answered")
    for start in server.starts[1:]:
        for line in start:
            print("crash: " + line)
    problems = []
    if lost:
        problems.append(f"{len(lost)} answered sends never received, e.g. {sorted(lost)[:5]}")
    if ledger.came_back:
        problems.append(f"{len(ledger.came_back)} deleted messages came back, e.g. {ledger.came_back[:5]}")
    if kills < 5 or len(ledger.deleted) == 0:
        problems.append(f"too little happened: {kills} kills, {len(ledger.deleted)} deletes")
    if problems:
        for problem in problems:
            print("crash: FAILED: " + problem)
        print("0 passed, 1 failed")
        sys.exit(1)
    print("crash: every answered send was received, no answered delete came back")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
