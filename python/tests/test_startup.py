"""A server that cannot start: a clear error naming the cause, quickly, not a hang."""

import os
import stat
import time

import pytest

from pytest_sqs_sim import Server, SqsSimError, find_binary

USES_FIXTURE = """
def test_needs_server(sqs_sim):
    pass
"""


def script(tmp_path, *lines):
    """An executable shell script of `lines` standing in for sqs-sim."""
    path = tmp_path / "sqs-sim"
    path.write_text("\n".join(["#!/bin/sh", *lines, ""]))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_bad_binary_path_errors_each_test_once_quickly(pytester):
    pytester.makepyfile(test_a=USES_FIXTURE)
    started = time.monotonic()
    result = pytester.runpytest("--sqs-sim-bin", "/no/such/sqs-sim")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*--sqs-sim-bin names '/no/such/sqs-sim', which is not an executable file*"]
    )
    assert time.monotonic() - started < 10


def test_sqs_sim_bin_is_checked_too(monkeypatch, tmp_path):
    monkeypatch.setenv("SQS_SIM_BIN", str(tmp_path / "missing"))
    with pytest.raises(SqsSimError, match="SQS_SIM_BIN names .*missing"):
        find_binary()


def test_not_found_anywhere_says_where_it_looked(monkeypatch, tmp_path):
    monkeypatch.delenv("SQS_SIM_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SqsSimError, match="sqs-sim not found: put it on PATH, set SQS_SIM_BIN"):
        find_binary()


def test_a_binary_that_exits_at_once_shows_its_stderr(pytester, tmp_path):
    fake = script(tmp_path, 'echo "sqs-sim: serve: unknown option --seed" >&2', "exit 2")
    pytester.makepyfile(test_a=USES_FIXTURE)
    result = pytester.runpytest("--sqs-sim-bin", fake)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*serve --port 0 --seed 1 exited with status 2 before listening"
            " (no `listening on` line); its output:*",
            "*sqs-sim: serve: unknown option --seed*",
        ]
    )


def test_a_server_that_never_listens_times_out_and_is_stopped(tmp_path):
    pid_file = tmp_path / "pid"
    fake = script(tmp_path, f"echo $$ > {pid_file}", 'echo "starting..."', "exec sleep 60")
    started = time.monotonic()
    expected = r"(?s)was not listening within 0.5 s \(no `listening on` line\).*starting\.\.\."
    with pytest.raises(SqsSimError, match=expected):
        Server.start(fake, timeout=0.5, log_dir=tmp_path)
    assert time.monotonic() - started < 5
    assert not os.path.exists(f"/proc/{pid_file.read_text().strip()}")


def test_a_server_whose_health_fails_is_reported(tmp_path):
    # Listens (says so) on a port where nothing answers.
    fake = script(tmp_path, 'echo "listening on http://127.0.0.1:9"', "exec sleep 60")
    expected = r"was not healthy within 0.5 s \(GET http://127.0.0.1:9/health: "
    with pytest.raises(SqsSimError, match=expected):
        Server.start(fake, timeout=0.5, log_dir=tmp_path)
