"""No sqs-sim process outlives the session: at its end, and when pytest itself is killed."""

import re
import time

SERVER_PID = """
import os, signal

def test_record_pid(sqs_sim, sqs_sim_server):
    print("PID", sqs_sim_server.process.pid)
    assert os.path.exists(f"/proc/{sqs_sim_server.process.pid}")
"""


def alive(pid):
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def server_pid(result):
    [pid] = re.findall(r"PID (\d+)", result.stdout.str())
    return int(pid)


def test_the_server_stops_with_the_session(pytester):
    pytester.makepyfile(test_a=SERVER_PID)
    result = pytester.runpytest_subprocess("-s")
    result.assert_outcomes(passed=1)
    assert not alive(server_pid(result))


def test_the_server_stops_when_pytest_is_killed(pytester):
    pytester.makepyfile(
        test_a=SERVER_PID
        + """
def test_kill_pytest(sqs_sim):
    os.kill(os.getpid(), signal.SIGKILL)
"""
    )
    result = pytester.runpytest_subprocess("-s")
    assert result.ret == -9
    pid = server_pid(result)
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_an_in_process_session_stops_its_server_too(pytester):
    pytester.makepyfile(test_a=SERVER_PID)
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=1)
    assert not alive(server_pid(result))
