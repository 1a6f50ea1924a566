"""The layering of the package (the developers' guide, "Shape of the code"):
no module imports one of a layer above its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The layers from the bottom; a module may import its own layer's and those below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "cards", "_core", "_engine", "_fastcall", "units", "cluster"),
    ("evaluator", "ranges", "wire"),
    ("actions", "pots", "equities"),
    ("config",),
    ("views",),
    ("hand", "bots", "sampling"),
    ("table", "histories"),
    ("protocol",),
    ("simulation", "rooms", "stats", "plots", "report"),
    ("clients",),
    ("cli",),
)
LAYER = {unit: n for n, units in enumerate(LAYERS) for unit in units}
#: What the package's root re-exports, allowed only to the layers that use the public API.
PUBLIC_USERS = {"clients", "cli"}


def _units() -> dict[str, list[Path]]:
    """Each unit (a top-level module or package of holdem, and cli/) and its files."""
    units: dict[str, list[Path]] = {}
    for path in sorted((ROOT / "holdem").rglob("*.py")):
        parts = path.relative_to(ROOT / "holdem").with_suffix("").parts
        if parts[0] in ("__init__", "__main__"):
            continue
        units.setdefault(parts[0], []).append(path)
    units["cli"] = sorted((ROOT / "cli").rglob("*.py"))
    return units


def _imported(path: Path, unit: str) -> set[str]:
    """The holdem units ``path`` imports (``holdem`` alone: a name of the root's)."""
    top = ["holdem", "cli"] if unit == "cli" else ["holdem"]
    package = [*top, *path.relative_to(ROOT / top[-1]).parts[:-1]]  # (the file's own package)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if module == "holdem":  # (from holdem import X: a submodule, or a name of the root's)
                subs = {p.stem for p in (ROOT / "holdem").iterdir()} | {"cli"}
                names = [
                    f"holdem.{a.name}" if a.name in subs else "holdem"
                    for a in node.names
                    if a.name != "__version__"
                ]
            else:
                names = [module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "holdem":
                found.add(parts[1] if len(parts) > 1 else "holdem")
    found.discard(unit)
    return found


@pytest.mark.parametrize("unit", sorted(_units()))
def test_no_module_imports_one_of_a_layer_above(unit: str) -> None:
    assert unit in LAYER, f"holdem.{unit} has no layer in this test: give it one"
    for path in _units()[unit]:
        for other in _imported(path, unit):
            where = path.relative_to(ROOT)
            if other == "holdem":
                assert unit in PUBLIC_USERS, f"{where} imports the package's root"
                continue
            assert other in LAYER, f"{where} imports holdem.{other}, which has no layer"
            assert LAYER[other] <= LAYER[unit], (
                f"{where} (layer of {unit}) imports holdem.{other}, a layer above"
            )
