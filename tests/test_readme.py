"""README.md's examples are run as tests, and .ci/run runs its test command."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from holdem.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

if not README.exists():  # pragma: no cover - tests run from an unpacked wheel
    pytest.skip("README.md is not beside the tests", allow_module_level=True)

TEXT = README.read_text(encoding="utf-8")


def console_examples() -> list[tuple[str, str]]:
    """(command, expected output) for each ``$ holdem ...`` line of the README."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", TEXT, re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_readme_console_example(command: str, expected: str) -> None:
    argv = shlex.split(command)
    assert argv[0] == "holdem"
    result = CliRunner().invoke(main, argv[1:])
    assert result.stdout + result.stderr == expected


def test_readme_python_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False)
    assert result.attempted >= 8
    assert result.failed == 0


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "pip install -e '.[test]' && python -m pytest"
    assert command in TEXT
    assert re.search(r"^" + re.escape(command) + r"\s*$", ci, re.M)
