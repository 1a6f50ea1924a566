"""The installed package holds every module of the tree (pyproject.toml lists
the packages by name: a new subpackage left out is missing from the wheel)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():  # pragma: no cover - tests run from an unpacked wheel
        pytest.skip("pyproject.toml is not beside the tests")
    listed = set(
        tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "holdem").rglob("__init__.py")
    }
    assert found <= listed, f"not in pyproject.toml's packages: {sorted(found - listed)}"
