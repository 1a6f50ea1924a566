"""The installed package holds every module of the tree (pyproject.toml lists
the packages by name: a new subpackage left out is missing from the wheel)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

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


def test_the_web_page_is_in_the_package_data() -> None:
    """Every file of the browser's page (``holdem.clients.web.PAGE``) is
    matched by pyproject.toml's package-data (setuptools' patterns do not
    reach into folders: the page has none), so a wheel serves it whole."""
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():  # pragma: no cover - tests run from an unpacked wheel
        pytest.skip("pyproject.toml is not beside the tests")
    patterns = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["holdem"]
    page = ROOT / "holdem" / "clients" / "web" / "page"
    files = sorted(p.relative_to(ROOT / "holdem") for p in page.iterdir())
    assert {"index.html", "table.css", "app.js", "cards.js"} <= {p.name for p in files}
    assert all(p.is_file() for p in page.iterdir()), "a folder in the page: list its files too"
    missing = [str(p) for p in files if not any(p.match(pattern) for pattern in patterns)]
    assert not missing, f"not in pyproject.toml's package-data: {missing}"


def test_the_version_is_the_installed_distributions() -> None:
    """``holdem --version`` and ``holdem.__version__`` read the installed
    distribution, holdem-toolkit (the name holdem on the public index is
    another package's)."""
    from importlib.metadata import version

    import holdem
    from holdem.cli.main import main

    runner = CliRunner()
    done = runner.invoke(main, ["--version"])
    assert done.exit_code == 0, done.output
    assert done.output == f"holdem, version {version('holdem-toolkit')}\n"
    assert holdem.__version__ == version(holdem.DISTRIBUTION)
