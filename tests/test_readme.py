"""The examples of README.md and docs/*.md are run as tests, and .ci/run
runs the README's test command."""

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
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]


def console_examples() -> list[tuple[str, str]]:
    """(command, expected output) for each ``$ holdem ...`` line of the docs."""
    examples = []
    for doc in DOCS:
        for block in re.findall(r"```console\n(.*?)```", doc.read_text(encoding="utf-8"), re.S):
            for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command, _, output = chunk.partition("\n")
                examples.append(pytest.param(command, output, id=f"{doc.name}: {command}"))
    return examples


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_console_example(command: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name files of the project
    argv = shlex.split(command)
    assert argv[0] == "holdem"
    result = CliRunner().invoke(main, argv[1:])
    assert result.stdout + result.stderr == expected


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_python_examples(doc: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.failed == 0
    if doc == README:
        assert result.attempted >= 8


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "pip install -e '.[test]' && python -m pytest"
    assert command in TEXT
    assert re.search(r"^" + re.escape(command) + r"\s*$", ci, re.M)
