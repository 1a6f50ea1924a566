"""The wheel a cluster's hosts install: built here (manylinux on Linux, by
auditwheel), installed into a fresh virtual environment, and holdem eval,
holdem simulate, the engine and the library run from it
(tests/wheel_smoke.py; README.md, "Wheels")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ["build", *(["auditwheel"] if sys.platform.startswith("linux") else [])]


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="not in a source tree")
@pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in NEEDED),
    reason=f"needs {' and '.join(NEEDED)} (the dev extra)",
)
def test_the_wheel_installs_into_a_fresh_venv_and_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "wheel_smoke.py")],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("wheel OK: holdem_toolkit-0.1.0-cp311-abi3-")
    if sys.platform.startswith("linux"):
        assert "manylinux" in lines[-1]
    assert any(line.startswith("holdem engine: ") for line in lines)
