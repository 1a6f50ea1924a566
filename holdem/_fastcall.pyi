# The per-hand extension module built from csrc/hd_fastcall.c (and csrc/hd_shuffle.c,
# csrc/hd_toml.c, csrc/hd_phh.c).
import random
from collections.abc import Callable
from typing import Any

def evaluate7(a: int, b: int, c: int, d: int, e: int, f: int, g: int, /) -> int: ...
def evaluate(cards: Any, /) -> int: ...
def bind(address: int, fallback: Callable[[Any], int], /) -> None: ...
def check_signals() -> None: ...
def deal_cards(
    cards: bytearray, start: int, end: int, drawn: int, rng: random.Random, /
) -> list[int]: ...
def read_toml(
    lines: list[str],
    start: int,
    decimal: Callable[[str], Any],
    time: Callable[[str], Any],
    max_depth: int,
    /,
) -> tuple[dict[str, Any], list[int], dict[str, int]] | None: ...
def build_phh(
    data: dict[str, Any],
    action_lines: list[int],
    line: int,
    context: tuple[type, type, tuple[str, ...], tuple[str, ...], int, int],
    /,
) -> tuple[Any, ...] | None: ...
