"""The pytest plugin: options, the `sqs_sim` fixture, and the server's log in failure reports.

One `sqs-sim serve` per session (per xdist worker), started by the first test that asks for it
and stopped at the session's end. Before each test the fixture resets it (no queues, virtual
time 0, the clock running at the session's speed) unless the test's reset scope says to keep the
state: `@pytest.mark.sqs_sim(reset="module")` (or a module's `pytestmark`), `--sqs-sim-reset`, or
the ini option `sqs_sim_reset` (`test`, `module` or `session`).
"""

from __future__ import annotations

import shlex

import pytest

from .server import Server, SqsSim, find_binary

RESET_SCOPES = ("test", "module", "session")
#: What the fixture stashes on a test's item: the server and where its log stood at the start.
LOG_START = pytest.StashKey[tuple]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sqs-sim", "sqs-sim serve (a local SQS with a virtual clock)")
    group.addoption(
        "--sqs-sim-bin",
        metavar="PATH",
        help="the sqs-sim binary (default: $SQS_SIM_BIN, then sqs-sim on PATH)",
    )
    group.addoption(
        "--sqs-sim-seed", type=int, metavar="N", help="the server's --seed (default: 1)"
    )
    group.addoption(
        "--sqs-sim-reset",
        choices=RESET_SCOPES,
        help="how long a state lasts: reset before every test (default), module or session",
    )
    parser.addini("sqs_sim_bin", "the sqs-sim binary (as --sqs-sim-bin)")
    parser.addini("sqs_sim_seed", "the server's --seed", default="1")
    parser.addini("sqs_sim_reset", "test, module or session (as --sqs-sim-reset)", default="test")
    parser.addini(
        "sqs_sim_args",
        "more arguments for `sqs-sim serve`, e.g. --config queues.toml",
        default="",
    )
    parser.addini("sqs_sim_speed", "virtual seconds per wall second at each reset", default="1")
    parser.addini(
        "sqs_sim_start_timeout", "seconds to wait for the server to be healthy", default="30"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        'sqs_sim(reset="module"): keep the sqs_sim state across this module\'s tests '
        '(or "session"; "test", the default, resets before each test)',
    )


def _option(config: pytest.Config, name: str) -> str:
    value = config.getoption("--" + name.replace("_", "-"))
    return str(value) if value is not None else config.getini(name)


def _speed(config: pytest.Config) -> float:
    return float(config.getini("sqs_sim_speed"))


@pytest.fixture(scope="session")
def sqs_sim_server(request: pytest.FixtureRequest, tmp_path_factory) -> Server:
    """The session's `sqs-sim serve` (stopped at the session's end)."""
    config = request.config
    server = Server.start(
        find_binary(_option(config, "sqs_sim_bin") or None),
        seed=int(_option(config, "sqs_sim_seed")),
        args=shlex.split(config.getini("sqs_sim_args")),
        timeout=float(config.getini("sqs_sim_start_timeout")),
        log_dir=tmp_path_factory.mktemp("sqs-sim"),
    )
    yield server
    server.stop()


def _reset_scope(request: pytest.FixtureRequest) -> str:
    marker = request.node.get_closest_marker("sqs_sim")
    scope = marker.kwargs.get("reset") if marker else None
    scope = scope or _option(request.config, "sqs_sim_reset")
    if scope not in RESET_SCOPES:
        raise pytest.UsageError(f"sqs_sim reset={scope!r}: expected one of {RESET_SCOPES}")
    return scope


@pytest.fixture
def sqs_sim(request: pytest.FixtureRequest, sqs_sim_server: Server, monkeypatch) -> SqsSim:
    """The session's server seen from this test: `endpoint_url`, `client()`, `env` (set in
    os.environ for the test), the clock (`advance`, `pause`, `resume`, `speed`, `now`),
    `messages(queue)`, `reset()`. Reset before the test unless its reset scope keeps the state."""
    sim = SqsSim(sqs_sim_server)
    scope = _reset_scope(request)
    owner = {
        "test": None,
        "module": request.node.getparent(pytest.Module).nodeid if scope == "module" else None,
        "session": "session",
    }[scope]
    if owner is None or sqs_sim_server.state_owner != owner:
        sim.reset()
        # A reset keeps the clock's speed and pause; each state starts with the session's.
        sim._control("POST", "/_sqs-sim/clock", {"pause": False, "speed": _speed(request.config)})
    sqs_sim_server.state_owner = owner
    for name, value in sim.env.items():
        monkeypatch.setenv(name, value)
    # A profile or a session token of the developer's own must not mix into the test's calls.
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    request.node.stash[LOG_START] = (sqs_sim_server, sqs_sim_server.log_size())
    return sim


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Adds what the server printed during a failed test (one line per call) to its report."""
    report = yield
    if report.failed and LOG_START in item.stash:
        server, start = item.stash[LOG_START]
        text = server.settled_log(start)
        if text.strip():
            report.sections.append((f"Captured sqs-sim log {report.when}", text))
    return report
