"""The README's complete example is the example project's file, verbatim."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_examples_are_the_example_projects_files():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"<!-- (examples/\S+) -->\n```python\n(.*?)```\n", readme, re.S)
    assert [path for path, _ in blocks] == [
        "examples/pytest-consumer/tests/conftest.py",
        "examples/pytest-consumer/tests/test_retry.py",
    ]
    for path, code in blocks:
        assert code == (ROOT / path).read_text(), f"README.md's copy of {path} differs"
