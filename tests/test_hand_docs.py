"""The examples of docs/rules.md and the docstrings of the hand modules run as tests."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from holdem import actions, config, hand, pots, views

RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


@pytest.mark.skipif(not RULES_DOC.exists(), reason="docs/ is not beside the tests")
def test_rules_doc_examples() -> None:
    result = doctest.testfile(str(RULES_DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize("module", [actions, config, hand, pots, views])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
