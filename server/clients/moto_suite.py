"""moto's own SQS tests (tests/test_sqs from moto's source distribution) in moto's server mode
against `sqs-sim serve`, compared with the list of tests expected to fail.

Usage: moto_suite.py ENDPOINT MOTO_SOURCE_DIR EXPECTED_FAILURES_FILE

The server must run with `--account-id 123456789012` (moto's tests assume that account). Prints
pytest's output, then each unexpected failure, each listed test that now passes, and a closing
`N passed, N failed` where failed counts the unexpected failures only.
"""

import os
import re
import subprocess
import sys

FILES = [
    "tests/test_sqs/test_sqs.py",
    "tests/test_sqs/test_sqs_message_attributes.py",
    "tests/test_sqs/test_sqs_multiaccount.py",
]

endpoint, source, listed_file = sys.argv[1:4]
expected = {}
for line in open(listed_file, encoding="utf-8"):
    line = line.strip()
    if line and not line.startswith("#"):
        node, _, reason = line.partition(" # ")
        expected[node.strip()] = reason.strip()

env = dict(
    os.environ,
    TEST_SERVER_MODE="true",
    TEST_SERVER_MODE_ENDPOINT=endpoint,
    MOTO_CALL_RESET_API="false",
    AWS_ACCESS_KEY_ID="testing",
    AWS_SECRET_ACCESS_KEY="testing",
)
run = subprocess.run(
    [sys.executable, "-m", "pytest", "-q", "-rA", "--tb=line", "--color=no", "-p", "no:cacheprovider", *FILES],
    cwd=source,
    env=env,
    capture_output=True,
    text=True,
)
print(run.stdout[-20000:])
outcomes = {}
for line in run.stdout.splitlines():
    found = re.match(r"^(PASSED|FAILED|ERROR) (\S+)", line)
    if found:
        outcome, node = found.groups()
        # A test that passed but whose teardown erred counts as failed.
        if outcomes.get(node) != "FAILED":
            outcomes[node] = "PASSED" if outcome == "PASSED" and node not in outcomes else "FAILED"
if not outcomes:
    print(run.stderr[-5000:])
    print("moto: FAILED: pytest reported no test outcome")
    print("0 passed, 1 failed")
    sys.exit(1)

passed = [n for n, o in outcomes.items() if o == "PASSED"]
failed = [n for n, o in outcomes.items() if o == "FAILED"]
unexpected = [n for n in failed if n not in expected]
as_expected = [n for n in failed if n in expected]
now_passing = [n for n in passed if n in expected]
for node in unexpected:
    print(f"moto: FAILED {node} (not in {os.path.basename(listed_file)})")
for node in now_passing:
    print(f"moto: note: {node} passes now: delete its line from {os.path.basename(listed_file)}")
print(f"moto: {len(passed)} passed, {len(as_expected)} expected failures, {len(unexpected)} unexpected failures")
print(f"{len(passed)} passed, {len(unexpected)} failed")
sys.exit(1 if unexpected else 0)
