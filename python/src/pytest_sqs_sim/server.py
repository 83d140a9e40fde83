"""One `sqs-sim serve` process and a handle on it for tests.

`Server.start` runs `sqs-sim serve --port 0 --seed N`, reads the address from the line
`listening on http://HOST:PORT` it prints once it accepts connections, and waits until
`GET /health` answers 200. Its stdout and stderr go to one log file, which a failing test's
report shows (see `plugin.py`). `SqsSim` is what the `sqs_sim` fixture gives a test: the
endpoint, a boto3 client, the environment for code that builds its own client, the virtual
clock and the message listing of the control API (`/_sqs-sim/...`, plain `urllib`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable naming the `sqs-sim` binary (else it is looked up on PATH).
BIN_ENV = "SQS_SIM_BIN"

#: Region and credentials the fixture gives code under test. The server checks no signature;
#: the access key id names the client's lane in the live view.
REGION = "us-east-1"
ACCESS_KEY_ID = "pytest"
SECRET_ACCESS_KEY = "pytest"


class SqsSimError(Exception):
    """The server could not be found or started, or a control request failed."""


def find_binary(explicit: str | None = None) -> str:
    """The `sqs-sim` to run: `explicit` (the `--sqs-sim-bin` option), `$SQS_SIM_BIN`, then PATH."""
    for source, candidate in (("--sqs-sim-bin", explicit), (BIN_ENV, os.environ.get(BIN_ENV))):
        if not candidate:
            continue
        path = shutil.which(candidate) if os.sep not in candidate else candidate
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise SqsSimError(f"{source} names {candidate!r}, which is not an executable file")
    found = shutil.which("sqs-sim")
    if found:
        return found
    raise SqsSimError(
        "sqs-sim not found: put it on PATH, set SQS_SIM_BIN=/path/to/sqs-sim, or pass "
        "--sqs-sim-bin (build it with `cargo build --release -p sqs-server`)"
    )


def _die_with_parent() -> None:
    """Runs in the child before exec: on Linux, SIGTERM the server if pytest dies (a kill -9 of
    pytest would otherwise leave it listening)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


@dataclass
class Server:
    """A running `sqs-sim serve`: its process, address and log."""

    process: subprocess.Popen
    endpoint_url: str
    log_path: Path
    seed: int
    #: Whose state the engine holds now (see `plugin.py`): None after a reset for one test.
    state_owner: str | None = field(default=None)

    @classmethod
    def start(
        cls,
        binary: str,
        seed: int = 1,
        args: list[str] | tuple[str, ...] = (),
        timeout: float = 30.0,
        log_dir: str | os.PathLike | None = None,
    ) -> "Server":
        """Starts `binary serve --port 0 --seed SEED ARGS...` and waits for `/health`.

        Raises `SqsSimError` with the server's output if it exits, prints no address or does not
        become healthy within `timeout` seconds (the process is stopped first).
        """
        log_fd, log_name = tempfile.mkstemp(prefix="sqs-sim-", suffix=".log", dir=log_dir)
        command = [binary, "serve", "--port", "0", "--seed", str(seed), *args]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log_fd,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent if os.name == "posix" else None,
            )
        except OSError as e:
            raise SqsSimError(f"could not run {' '.join(command)}: {e}") from e
        finally:
            os.close(log_fd)
        log_path = Path(log_name)
        server = cls(process, "", log_path, seed)
        try:
            server.endpoint_url = server._wait_for_address(command, timeout)
            server._wait_for_health(command, timeout)
        except BaseException:
            server.stop()
            raise
        return server

    def _failure(self, command: list[str], what: str) -> SqsSimError:
        log = self.log_text().strip() or "(no output)"
        return SqsSimError(f"{' '.join(command)} {what}; its output:\n{log}")

    def _wait_for_address(self, command: list[str], timeout: float) -> str:
        def address():
            for line in self.log_text().splitlines():
                if line.startswith("listening on "):
                    return line.removeprefix("listening on ").strip(), ""
            return None, " (no `listening on` line)"

        return self._wait(command, timeout, address, "listening")

    def _wait_for_health(self, command: list[str], timeout: float) -> None:
        def healthy():
            try:
                status, _ = request(self.endpoint_url, "GET", "/health")
            except SqsSimError as e:
                return None, f" ({e})"
            return (True, "") if status == 200 else (None, f" (GET /health answered {status})")

        self._wait(command, timeout, healthy, "healthy")

    def _wait(self, command: list[str], timeout: float, probe, state: str):
        """Calls `probe` (answering a value, or None and what is still wrong) until it answers a
        value; raises with the server's output if the process exits or `timeout` passes."""
        deadline = time.monotonic() + timeout
        while True:
            value, problem = probe()
            if value is not None:
                return value
            code = self.process.poll()
            if code is not None:
                raise self._failure(command, f"exited with status {code} before {state}{problem}")
            if time.monotonic() > deadline:
                raise self._failure(command, f"was not {state} within {timeout:g} s{problem}")
            time.sleep(0.01)

    def log_text(self, start: int = 0) -> str:
        """The server's output from byte `start` on."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(start)
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def settled_log(self, start: int, quiet: float = 0.05, limit: float = 1.0) -> str:
        """The output from byte `start` on, read once the server has written nothing for `quiet`
        seconds (or after `limit`): its request log is written a moment after each answer."""
        deadline = time.monotonic() + limit
        size = self.log_size()
        while time.monotonic() < deadline:
            time.sleep(quiet)
            size, before = self.log_size(), size
            if size == before:
                break
        return self.log_text(start)

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except FileNotFoundError:
            return 0

    def stop(self, keep_log: bool = False) -> None:
        """Stops the process (SIGTERM, then SIGKILL after 5 s) and removes its log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not keep_log:
            self.log_path.unlink(missing_ok=True)


def request(
    endpoint_url: str, method: str, path: str, body: Any = None, timeout: float = 10.0
) -> tuple[int, Any]:
    """A control request: JSON in (as `application/json`, which the control API requires), JSON
    out. Answers (status, parsed body); raises `SqsSimError` if the server cannot be reached."""
    if body is None and method == "POST":
        body = {}  # the control API takes JSON only, even for a POST with nothing to say
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(endpoint_url + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    except (urllib.error.URLError, OSError) as e:
        raise SqsSimError(f"{method} {endpoint_url}{path}: {e}") from e
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode("utf-8", "replace")


class SqsSim:
    """What the `sqs_sim` fixture gives a test: one server, seen from that test."""

    def __init__(self, server: Server, region: str = REGION):
        self._server = server
        self.region = region

    @property
    def endpoint_url(self) -> str:
        """`http://127.0.0.1:PORT`: the SQS endpoint, for `endpoint_url=` or the environment."""
        return self._server.endpoint_url

    @property
    def seed(self) -> int:
        """The seed the server started with (`--sqs-sim-seed`)."""
        return self._server.seed

    @property
    def env(self) -> dict[str, str]:
        """The environment the fixture sets for the test (and restores after it): any SDK or the
        AWS CLI that the code under test creates talks to this server."""
        return {
            "AWS_ENDPOINT_URL_SQS": self.endpoint_url,
            "AWS_DEFAULT_REGION": self.region,
            "AWS_REGION": self.region,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY_ID,
            "AWS_SECRET_ACCESS_KEY": SECRET_ACCESS_KEY,
        }

    def client(self, **kwargs: Any):
        """A boto3 SQS client for this server (keyword arguments go to `boto3.client`)."""
        import boto3

        options = {
            "endpoint_url": self.endpoint_url,
            "region_name": self.region,
            "aws_access_key_id": ACCESS_KEY_ID,
            "aws_secret_access_key": SECRET_ACCESS_KEY,
        }
        options.update(kwargs)
        return boto3.client("sqs", **options)

    def _control(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = request(self.endpoint_url, method, path, body)
        if status != 200:
            detail = answer.get("error", answer) if isinstance(answer, dict) else answer
            raise SqsSimError(f"{method} {path} answered {status}: {detail}")
        return answer

    # The clock. Each call answers the server's state (`state()`).

    def advance(self, seconds: float) -> dict:
        """Moves virtual time forward by `seconds`: visibility timeouts, delays, retention and
        long polls due by then happen now."""
        return self._control("POST", "/_sqs-sim/clock", {"advance": seconds})

    def pause(self) -> dict:
        """Stops virtual time: it moves only by `advance` until `resume()`."""
        return self._control("POST", "/_sqs-sim/clock", {"pause": True})

    def resume(self) -> dict:
        """Lets virtual time run again (at the current speed)."""
        return self._control("POST", "/_sqs-sim/clock", {"pause": False})

    def speed(self, factor: float) -> dict:
        """Runs virtual time at `factor` virtual seconds per wall second."""
        return self._control("POST", "/_sqs-sim/clock", {"speed": factor})

    def now(self) -> float:
        """Virtual seconds since the last reset (0 at the start of each test by default)."""
        return self.state()["now_ms"] / 1000

    def state(self) -> dict:
        """`GET /_sqs-sim/state`: now_ms, epoch_ms, speed, paused, each queue's depths, ..."""
        return self._control("GET", "/_sqs-sim/state")

    def messages(
        self, queue_name: str, region: str | None = None, account: str | None = None
    ) -> list[dict]:
        """Every message of the queue with its state ("visible", "delayed" or "in_flight"),
        receive count, attributes and body, without receiving it (nothing changes). The queue
        is the server's region's and account's unless `region` or `account` names another."""
        path = "/_sqs-sim/queues/" + urllib.parse.quote(queue_name, safe="") + "/messages"
        place = {k: v for k, v in (("region", region), ("account", account)) if v is not None}
        if place:
            path += "?" + urllib.parse.urlencode(place)
        return self._control("GET", path)["messages"]

    def reset(self) -> dict:
        """An empty server at virtual time 0: no queues, no messages."""
        return self._control("POST", "/_sqs-sim/reset")

    def log(self) -> str:
        """Everything the server printed so far."""
        return self._server.log_text()
