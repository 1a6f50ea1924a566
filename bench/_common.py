"""What the benchmark scripts share: JSON-lines output and facts about the machine.

Each script calls :func:`set_bench` once with its name; every line it prints
then carries ``"bench": name``.
"""

from __future__ import annotations

import json
import platform
import sys
from typing import Any

_BENCH = ["bench"]


def set_bench(name: str) -> None:
    """Names the benchmark in every line printed from now on."""
    _BENCH[0] = name


def emit(**fields: Any) -> None:
    """Prints one JSON line on stdout."""
    print(json.dumps({"bench": _BENCH[0], **fields}), flush=True)


def note(text: str) -> None:
    emit(note=text)


def warn(text: str) -> None:
    """A warning line on stdout, and the same on stderr for the person watching."""
    emit(warning=text)
    print(f"WARNING: {text}", file=sys.stderr, flush=True)


def machine() -> dict[str, Any]:
    """The facts about the machine that every header line gives."""
    import os

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
    }


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def library_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    if name == "holdem":  # (installed as holdem-toolkit)
        from holdem import DISTRIBUTION as name
    try:
        return version(name)
    except PackageNotFoundError:
        return None
