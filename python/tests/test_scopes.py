"""How long a state lasts (inner sessions through pytester), one server per session, the
environment restored, and the server's log in a failing test's report."""

import os
import re

# Two tests: the first creates a queue, the second reports which queues it sees.
CREATE_THEN_LIST = """
import pytest
{marker}

def test_create(sqs_sim):
    sqs_sim.client().create_queue(QueueName="{name}")

def test_list(sqs_sim):
    print("SEEN", sorted(q["name"] for q in sqs_sim.state()["queues"]))
"""


def module(name, marker=""):
    return CREATE_THEN_LIST.format(name=name, marker=marker)


def seen(result):
    return [line.split("SEEN ", 1)[1] for line in result.outlines if "SEEN " in line]


def test_default_resets_before_every_test(pytester):
    pytester.makepyfile(test_a=module("a"))
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=2)
    assert seen(result) == ["[]"]


def test_marker_keeps_state_across_a_module_only(pytester):
    pytester.makepyfile(
        test_a=module("a", 'pytestmark = pytest.mark.sqs_sim(reset="module")'),
        test_b=module("b"),
    )
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=4)
    assert seen(result) == ["['a']", "[]"]


def test_module_scope_starts_each_module_empty(pytester):
    pytester.makepyfile(test_a=module("a"), test_b=module("b"))
    result = pytester.runpytest("-s", "--sqs-sim-reset", "module")
    result.assert_outcomes(passed=4)
    assert seen(result) == ["['a']", "['b']"]


def test_session_scope_from_ini_keeps_state_across_modules(pytester):
    pytester.makeini("[pytest]\nsqs_sim_reset = session\n")
    pytester.makepyfile(test_a=module("a"), test_b=module("b"))
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=4)
    assert seen(result) == ["['a']", "['a', 'b']"]


def test_a_bad_reset_scope_is_a_usage_error(pytester):
    pytester.makepyfile(test_a=module("a", 'pytestmark = pytest.mark.sqs_sim(reset="class")'))
    result = pytester.runpytest()
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*reset='class': expected one of*"])


def test_one_server_per_session_and_the_environment_restored(pytester, monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL_SQS", "http://outside.example")
    pytester.makepyfile(
        test_env="""
import os

def test_one(sqs_sim, sqs_sim_server):
    print("ENDPOINT", sqs_sim.endpoint_url, sqs_sim_server.process.pid)
    assert os.environ["AWS_ENDPOINT_URL_SQS"] == sqs_sim.endpoint_url

def test_two(sqs_sim, sqs_sim_server):
    print("ENDPOINT", sqs_sim.endpoint_url, sqs_sim_server.process.pid)

def test_without_the_fixture():
    print("OUTSIDE", os.environ["AWS_ENDPOINT_URL_SQS"])
"""
    )
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=3)
    endpoints = set(re.findall(r"ENDPOINT \S+ \d+", result.stdout.str()))
    assert len(endpoints) == 1
    result.stdout.fnmatch_lines(["*OUTSIDE http://outside.example"])
    assert os.environ["AWS_ENDPOINT_URL_SQS"] == "http://outside.example"


def test_the_seed_option_pins_message_ids(pytester):
    pytester.makepyfile(
        test_seed="""
def test_send(sqs_sim):
    sqs = sqs_sim.client()
    url = sqs.create_queue(QueueName="q")["QueueUrl"]
    print("ID", sqs_sim.seed, sqs.send_message(QueueUrl=url, MessageBody="m")["MessageId"])
"""
    )

    def first_id(seed):
        result = pytester.runpytest("-s", "--sqs-sim-seed", str(seed))
        result.assert_outcomes(passed=1)
        [seed_and_id] = re.findall(r"ID (\d+) (\S+)", result.stdout.str())
        return seed_and_id

    (seed, a), (_, b), (_, c) = first_id(42), first_id(42), first_id(43)
    assert seed == "42" and a == b != c


def test_a_failing_test_report_shows_the_server_log(pytester):
    pytester.makepyfile(
        test_fail="""
def test_fails(sqs_sim):
    sqs_sim.client().create_queue(QueueName="visible-in-the-log")
    assert False

def test_passes(sqs_sim):
    sqs_sim.client().create_queue(QueueName="not-shown")
"""
    )
    result = pytester.runpytest("-rA")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*Captured sqs-sim log call*", "*CreateQueue*"])
    # Only the failing test's section: a passing test gets none.
    assert sum("Captured sqs-sim log" in line for line in result.outlines) == 1


def test_serve_arguments_from_ini_declared_queues_survive_each_reset(pytester):
    pytester.makefile(".toml", queues="[queues.orders]\nVisibilityTimeout = 45\n")
    pytester.makeini("[pytest]\nsqs_sim_args = --config queues.toml\n")
    pytester.makepyfile(test_a=module("extra"))
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=2)
    assert seen(result) == ["['orders']"]


def test_each_test_gets_the_clock_back_running_at_the_session_speed(pytester):
    pytester.makeini("[pytest]\nsqs_sim_speed = 2\n")
    pytester.makepyfile(
        test_clock="""
def test_changes_the_clock(sqs_sim):
    sqs_sim.pause()
    sqs_sim.speed(50)
    sqs_sim.advance(100)

def test_sees_a_fresh_clock(sqs_sim):
    state = sqs_sim.state()
    print("CLOCK", state["paused"], state["speed"], state["now_ms"] < 5000)
"""
    )
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*CLOCK False 2.0 True"])
