"""Builds the wheel, installs it into a fresh virtual environment and runs
holdem from there (README.md, "Wheels"; tests/test_wheel.py runs it).

    python tests/wheel_smoke.py [--keep DIR]

On Linux the wheel is made a manylinux one by ``auditwheel repair`` (with
patchelf), as a cluster's hosts install it; elsewhere the wheel is tested
as ``python -m build`` makes it.  Needs ``build`` (and on Linux
``auditwheel`` and ``patchelf``) where it runs, and the package index for
the build's and the wheel's requirements.  The smoke tests run outside the
source tree, so that only the installed wheel can be imported:

- ``holdem eval`` of one hand, and ``holdem --version``;
- ``holdem simulate`` of 200 hands, the JSON read back;
- ``holdem engine``: a table of two bots made, started, its hand played;
- ``import holdem`` from the wheel's files (its C parts beside them), an
  equity that enumerates in C.

Each step prints one line; the last is ``wheel OK: FILE``.  Exit status 1
with the step that failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str | Path, cwd: Path | None = None, stdin: str | None = None) -> str:
    """A command's stdout; its failure ends the script, saying which step."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=900)  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(map(str, args))}\n{done.stderr[-3000:]}")
    return done.stdout


def build(work: Path) -> Path:
    """The wheel, built from the tree and (on Linux) repaired to manylinux."""
    dist = work / "dist"
    run(sys.executable, "-m", "build", "--wheel", "--outdir", dist, ROOT)
    [wheel] = dist.glob("*.whl")
    print(f"built {wheel.name}")
    assert "-abi3-" in wheel.name, f"not an abi3 wheel: {wheel.name}"
    if sys.platform.startswith("linux"):
        # (patchelf, which auditwheel runs, is installed beside this Python's scripts)
        scripts = sysconfig.get_path("scripts")
        os.environ["PATH"] = os.pathsep.join([scripts, os.environ.get("PATH", "")])
        house = work / "wheelhouse"
        run(sys.executable, "-m", "auditwheel", "repair", wheel, "-w", house)
        [wheel] = house.glob("*.whl")
        assert "manylinux" in wheel.name, f"not a manylinux wheel: {wheel.name}"
        print(f"repaired {wheel.name}")
    return wheel


def smoke(wheel: Path, work: Path) -> None:
    """Installs ``wheel`` into a fresh virtual environment and runs holdem there."""
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    scripts = Path(sysconfig.get_path("scripts", vars={"base": str(env_dir)}))
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    holdem = scripts / ("holdem.exe" if os.name == "nt" else "holdem")
    run(python, "-m", "pip", "install", "--quiet", wheel)
    away = work / "elsewhere"  # (not the source tree: only the wheel can be imported)
    away.mkdir()
    where = run(python, "-c", "import holdem, os; print(os.path.dirname(holdem.__file__))",
                cwd=away).strip()  # fmt: skip
    assert Path(where).is_relative_to(env_dir), f"holdem imported from {where}"
    print(f"imported from {where}")
    out = run(holdem, "eval", "AsKs", "QhJhTh9h2c", cwd=away)
    assert "Straight, Ace high" in out, out
    version = run(holdem, "--version", cwd=away)
    assert version.startswith("holdem, version "), version
    print(f"holdem eval: {out.splitlines()[1].strip()}; {version.strip()}")
    out = run(holdem, "simulate", "--seats", "easy,random", "--hands", "200", "--seed", "1",
              "--json", cwd=away)  # fmt: skip
    result = json.loads(out)
    assert result["hands"] == 200 and abs(sum(s["net_bb"] for s in result["seats"])) < 1e-9
    print(f"holdem simulate: 200 hands, seat 1 {result['seats'][0]['bb_per_100']:+.1f} bb/100")
    requests = [
        {"id": 1, "type": "hello", "version": 1},
        {"id": 2, "type": "create_table", "game": "cash", "seats": 2, "small_blind": 1,
         "big_blind": 2, "seed": 1, "players": [{"seat": 0, "name": "a", "bot": "easy"},
                                                {"seat": 1, "name": "b", "bot": "random"}]},
        {"id": 3, "type": "start", "table": "t1"},
    ]  # fmt: skip
    out = run(holdem, "engine", cwd=away, stdin="".join(json.dumps(r) + "\n" for r in requests))
    lines = [json.loads(line) for line in out.splitlines()]
    replies = {line["id"]: line for line in lines if "id" in line}
    assert all("result" in replies[i] for i in (1, 2, 3)), replies
    events = [line["event"] for line in lines if "event" in line]
    assert "hand_started" in events and "hand_ended" in events, events
    print(f"holdem engine: {len(events)} events of a hand of two bots")
    code = (
        "import holdem; r = holdem.equity(['AsKs', 'QdQh']); "
        "print(r.method, round(r.players[0].equity, 5))"
    )
    out = run(python, "-c", code, cwd=away).split()
    assert out == ["exact", "0.46214"], out
    print(f"holdem.equity: {' '.join(out)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (the wheel in it)")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        work = args.keep
        wheel = build(work)
        smoke(wheel, work)
    else:
        with tempfile.TemporaryDirectory(prefix="holdem-wheel-") as temporary:
            wheel = build(Path(temporary))
            smoke(wheel, Path(temporary))
    print(f"wheel OK: {wheel.name}")


if __name__ == "__main__":
    main()
