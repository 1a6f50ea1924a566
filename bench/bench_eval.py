"""Benchmark of the holdem hand evaluator against other Python evaluators.

Run it from the repository root::

    pip install -e '.[bench]' && python bench/bench_eval.py

``--quick`` gives a smoke run of a few seconds; ``--help`` lists the sizes.
Every library values the same seeded random seven-card hands in one run,
on one pinned core (unless ``--no-pin``), and each timing is the best
(smallest) of ``--repeat`` rounds; the rounds interleave the libraries, so
a noisy neighbour slows them all alike rather than one of them.

Measured:

- per call, in a Python loop over pre-built inputs (``for h in hands: f(*h)``):
  ``holdem.evaluate7``, ``holdem.evaluate`` on lists of ints, and each peer's
  own call on its own pre-built card objects (phevaluator, eval7, treys,
  pokerkit; the slow pure-Python ones on fewer hands), plus the interpreter
  floor (the same loop calling ``"".format`` with seven args);
- ``holdem.evaluate_many`` over one big uint8 buffer, ``check=True`` and
  ``check=False``;
- ``holdem.value_counts(7)``: all 133,784,560 seven-card hands;
- what ``import holdem`` costs a fresh interpreter: time and resident memory.

While at it, it checks that every peer orders the hands as holdem does (for
any two hands, the sign of the comparison), that ``evaluate_many`` agrees
with ``evaluate7``, and that ``value_counts(7)`` gives the known category
counts; any disagreement prints a ``warning`` line.

Output: one JSON object a line on stdout (results, ratios, checks, notes,
and a verdict for each performance target of the project).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import json
import os
import random
import subprocess
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from _common import emit, library_version, machine, note, set_bench, warn

import holdem

set_bench("eval")

DESCRIPTION = "Benchmark of the holdem hand evaluator against other Python evaluators."
SEED = 20240601
ALL_SEVEN_CARD_HANDS = 133_784_560
RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: Seven-card hands per category (straight flush .. high card), the textbook figures.
SEVEN_CARD_CATEGORY_COUNTS = {
    9: 41_584,
    8: 224_848,
    7: 3_473_184,
    6: 4_047_644,
    5: 6_180_020,
    4: 6_461_620,
    3: 31_433_400,
    2: 58_627_800,
    1: 23_294_460,
}
#: The slow pure-Python peers are timed on at most this many hands.
SLOW_PEER_HANDS = {"treys": 20_000, "pokerkit": 2_000}

Hand = tuple[int, int, int, int, int, int, int]


# --------------------------------------------------------------------- output


def emit_result(library: str, method: str, hands: int, seconds: float, **extra: Any) -> None:
    emit(
        library=library,
        method=method,
        hands=hands,
        seconds=round(seconds, 6),
        evals_per_sec=round(hands / seconds),
        ns_per_eval=round(seconds / hands * 1e9, 2),
        **extra,
    )


# ---------------------------------------------------------------- environment


def pin_to_one_core() -> int | None:
    """Pins this process to the last CPU it may run on; returns that CPU."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return cpu


def implementation(f: object) -> str:
    """Which object a holdem entry point is, e.g. 'builtin_function_or_method holdem._x'."""
    return f"{type(f).__name__} {getattr(f, '__module__', None) or ''}".strip()


# ---------------------------------------------------------------------- hands


def make_hands(n: int, seed: int) -> list[Hand]:
    """n hands of seven distinct cards (our ints), the same for a given seed."""
    rng = random.Random(seed)
    deck = range(52)
    return [tuple(rng.sample(deck, 7)) for _ in range(n)]  # type: ignore[misc]


def card_name(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def make_batch(n: int, seed: int) -> tuple[Any, Any, str]:
    """(buffer of n seven-card hands, out buffer of n uint16, how it was built)."""
    try:
        import numpy as np
    except ImportError:
        return make_batch_without_numpy(n, seed)
    rng = np.random.default_rng(seed)
    cards = np.empty((n, 7), dtype=np.uint8)
    one = np.uint64(1)
    for start in range(0, n, 1 << 20):  # by blocks, to keep the temporaries small
        block = cards[start : start + (1 << 20)]
        block[:] = rng.integers(0, 52, size=block.shape, dtype=np.uint8)
        todo = np.arange(len(block))
        while todo.size:  # redraw the hands that hold a card twice
            sub = block[todo]
            seen = np.zeros(todo.size, dtype=np.uint64)
            repeated = np.zeros(todo.size, dtype=bool)
            for j in range(7):
                bit = np.left_shift(one, sub[:, j].astype(np.uint64))
                repeated |= (seen & bit) != 0
                seen |= bit
            todo = todo[repeated]
            block[todo] = rng.integers(0, 52, size=(todo.size, 7), dtype=np.uint8)
    return cards, np.empty(n, dtype=np.uint16), "numpy uint8 array (n, 7)"


def make_batch_without_numpy(n: int, seed: int) -> tuple[Any, Any, str]:
    block = min(n, 500_000)
    hands = make_hands(block, seed)
    raw = bytes(c for hand in hands for c in hand)
    whole, part = divmod(n, block)
    buffer = raw * whole + raw[: 7 * part]
    how = f"bytes (no numpy): {block:,} random hands repeated"
    return buffer, array("H", bytes(2 * n)), how


# -------------------------------------------------------------------- timing


@dataclass
class Case:
    """One per-call benchmark: a loop over pre-built inputs."""

    library: str
    method: str
    run: Callable[[], None]  # one timed pass over all its hands
    hands: int
    values: Callable[[], list[int]] | None = None  # untimed: a value per hand, for checks
    higher_is_better: bool = True


def star_loop(f: Callable[..., Any], inputs: Sequence[Sequence[Any]]) -> Callable[[], None]:
    def run() -> None:
        for h in inputs:
            f(*h)

    return run


def one_arg_loop(f: Callable[[Any], Any], inputs: Sequence[Any]) -> Callable[[], None]:
    def run() -> None:
        for h in inputs:
            f(h)

    return run


def two_arg_loop(
    f: Callable[[Any, Any], Any], inputs: Sequence[tuple[Any, Any]]
) -> Callable[[], None]:
    def run() -> None:
        for a, b in inputs:
            f(a, b)

    return run


def empty_loop(inputs: Sequence[Any]) -> Callable[[], None]:
    def run() -> None:
        for _h in inputs:
            pass

    return run


def timed(run: Callable[[], Any]) -> float:
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        if gc_was_enabled:
            gc.enable()


def best_times(cases: Sequence[Case], repeat: int) -> list[float]:
    """Best of `repeat` rounds for each case; each round runs every case once."""
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for i, case in enumerate(cases):
            best[i] = min(best[i], timed(case.run))
    return best


# ------------------------------------------------------------ per-call cases


def holdem_cases(hands: list[Hand]) -> list[Case]:
    lists = [list(h) for h in hands]
    evaluate7, evaluate = holdem.evaluate7, holdem.evaluate
    return [
        Case("python", "empty loop (for h in hands: pass)", empty_loop(hands), len(hands)),
        Case(
            "python",
            "''.format(*h) (interpreter floor: a trivial builtin, 7 args)",
            star_loop("".format, hands),
            len(hands),
        ),
        Case(
            "holdem",
            "evaluate7",
            star_loop(evaluate7, hands),
            len(hands),
            lambda: [evaluate7(*h) for h in hands],
        ),
        Case(
            "holdem",
            "evaluate (list of 7 ints)",
            one_arg_loop(evaluate, lists),
            len(hands),
            lambda: [evaluate(h) for h in lists],
        ),
    ]


def phevaluator_cases(hands: list[Hand]) -> list[Case]:
    import phevaluator  # type: ignore[import-untyped]

    # phevaluator's card id is rank * 4 + suit with suits c d h s: ours exactly.
    assert phevaluator.Card("As").id_ == 51 and phevaluator.Card("3d").id_ == 5
    cases = [
        Case(
            "phevaluator",
            "evaluate_cards",
            star_loop(phevaluator.evaluate_cards, hands),
            len(hands),
            lambda: [phevaluator.evaluate_cards(*h) for h in hands],
            higher_is_better=False,
        )
    ]
    try:  # the compiled function under evaluate_cards (a private module)
        compiled = importlib.import_module("phevaluator._pheval").evaluate_7cards
    except (ImportError, AttributeError):
        note("phevaluator._pheval.evaluate_7cards not found: timing evaluate_cards only")
    else:
        cases.append(
            Case(
                "phevaluator",
                "_pheval.evaluate_7cards",
                star_loop(compiled, hands),
                len(hands),
                lambda: [compiled(*h) for h in hands],
                higher_is_better=False,
            )
        )
    return cases


def eval7_cases(hands: list[Hand]) -> list[Case]:
    import eval7  # type: ignore[import-untyped]

    deck = [eval7.Card(card_name(c)) for c in range(52)]
    cards = [[deck[c] for c in h] for h in hands]
    return [
        Case(
            "eval7",
            "evaluate",
            one_arg_loop(eval7.evaluate, cards),
            len(hands),
            lambda: [eval7.evaluate(h) for h in cards],
        )
    ]


def treys_cases(hands: list[Hand]) -> list[Case]:
    import treys  # type: ignore[import-untyped]

    evaluator = treys.Evaluator()
    deck = [treys.Card.new(card_name(c)) for c in range(52)]
    split = [([deck[c] for c in h[:2]], [deck[c] for c in h[2:]]) for h in hands]
    return [
        Case(
            "treys",
            "Evaluator().evaluate(hand, board)",
            two_arg_loop(evaluator.evaluate, split),
            len(hands),
            lambda: [evaluator.evaluate(a, b) for a, b in split],
            higher_is_better=False,
        )
    ]


def pokerkit_cases(hands: list[Hand]) -> list[Case]:
    import pokerkit

    deck = [pokerkit.Card(pokerkit.Rank(r), pokerkit.Suit(s)) for r in RANKS for s in SUITS]
    split = [(tuple(deck[c] for c in h[:2]), tuple(deck[c] for c in h[2:])) for h in hands]
    from_game = pokerkit.StandardHighHand.from_game
    return [
        Case(
            "pokerkit",
            "StandardHighHand.from_game(hole, board)",
            two_arg_loop(from_game, split),
            len(hands),
            lambda: [from_game(a, b).entry.index for a, b in split],
        )
    ]


PEERS: dict[str, Callable[[list[Hand]], list[Case]]] = {
    "phevaluator": phevaluator_cases,
    "eval7": eval7_cases,
    "treys": treys_cases,
    "pokerkit": pokerkit_cases,
}


# ----------------------------------------------------------------- checks


def ordering_conflicts(
    ours: Sequence[int], theirs: Sequence[int], higher_is_better: bool
) -> list[str]:
    """Why two valuations order some pair of hands differently ([] if they never do).

    Every pair of hands compares alike under both iff equal values of ours
    meet equal values of theirs, and theirs strictly follow ours when ours
    are sorted: checked in O(n log n) instead of over all n^2 pairs.
    """
    sign = 1 if higher_is_better else -1
    seen: dict[int, tuple[int, int]] = {}  # our value -> (their value, hand index)
    problems = []
    for i, (v, w) in enumerate(zip(ours, theirs, strict=True)):
        first = seen.setdefault(v, (sign * w, i))
        if first[0] != sign * w:
            problems.append(f"hands {first[1]} and {i} tie for holdem but not for the peer")
    by_value = sorted(seen.items())
    for (_, (w0, i0)), (_, (w1, i1)) in itertools.pairwise(by_value):
        if not w0 < w1:
            problems.append(f"hand {i1} beats hand {i0} for holdem but not for the peer")
    return problems


def check_orderings(cases: Sequence[Case], ours: list[int]) -> None:
    for case in cases:
        if case.values is None or case.library in ("holdem", "python"):
            continue
        theirs = case.values()
        problems = ordering_conflicts(ours[: len(theirs)], theirs, case.higher_is_better)
        emit(
            check="ordering agrees with holdem (sign of every pairwise comparison)",
            library=case.library,
            method=case.method,
            hands=len(theirs),
            pairs=len(theirs) * (len(theirs) - 1) // 2,
            ok=not problems,
        )
        if problems:
            warn(
                f"{case.library}.{case.method} disagrees with holdem on "
                f"{len(problems)} point(s), e.g. {problems[0]}"
            )


def check_our_values(cases: Sequence[Case], ours: list[int]) -> None:
    for case in cases:
        if case.library == "holdem" and case.values is not None and case.values() != ours:
            warn(f"holdem.{case.method} and holdem.evaluate7 differ on the same hands")
    if 0 in ours:
        warn("holdem.evaluate7 returned 0 (invalid hand) for a valid hand")


# --------------------------------------------------------------- benchmarks


def bench_single_calls(hands: list[Hand], repeat: int) -> dict[str, float]:
    """Times every per-call case; returns ns per eval keyed 'library.method'."""
    cases = holdem_cases(hands)
    for peer, make_cases in PEERS.items():
        subset = hands[: SLOW_PEER_HANDS.get(peer, len(hands))]
        try:
            cases += make_cases(subset)
        except ImportError as exc:
            note(f"{peer} is not installed, skipped ({exc}); pip install -e '.[bench]'")
    best = best_times(cases, repeat)
    ns: dict[str, float] = {}
    for case, seconds in zip(cases, best, strict=True):
        emit_result(case.library, case.method, case.hands, seconds, repeat=repeat)
        ns[f"{case.library}.{case.method}"] = seconds / case.hands * 1e9
    ours = [holdem.evaluate7(*h) for h in hands]
    check_our_values(cases, ours)
    check_orderings(cases, ours)
    return ns


def bench_batch(n: int, repeat: int) -> dict[str, float]:
    start = time.perf_counter()
    buffer, out, how = make_batch(n, SEED + 1)
    note(f"batch: {n:,} hands built in {time.perf_counter() - start:.1f} s as {how}")
    ns: dict[str, float] = {}
    for check in (True, False):

        def run(check: bool = check) -> None:
            holdem.evaluate_many(buffer, out=out, check=check)

        run()  # warm up (and fault in the pages of `out`)
        seconds = min(timed(run) for _ in range(repeat))
        method = f"evaluate_many(check={check})"
        emit_result("holdem", method, n, seconds, repeat=repeat, threads=1, buffer=how)
        ns[f"holdem.{method}"] = seconds / n * 1e9
    sample = min(n, 20_000)
    flat = bytes(memoryview(buffer).cast("B")[: 7 * sample])
    expected = [holdem.evaluate7(*flat[i : i + 7]) for i in range(0, 7 * sample, 7)]
    agrees = [int(v) for v in out[:sample]] == expected
    emit(check="evaluate_many equals evaluate7", hands=sample, ok=agrees)
    if not agrees:
        warn("evaluate_many and evaluate7 differ on the same hands")
    return ns


def bench_enumeration(repeat: int) -> float:
    """Times value_counts(7) (and the C enumeration under it); returns its seconds."""
    counts: dict[int, int] = {}

    def run() -> None:
        nonlocal counts
        counts = holdem.value_counts(7)

    seconds = min(timed(run) for _ in range(repeat))
    emit_result("holdem", "value_counts(7)", ALL_SEVEN_CARD_HANDS, seconds, repeat=repeat)
    by_category: dict[int, int] = {}
    for value, count in counts.items():
        by_category[value >> 12] = by_category.get(value >> 12, 0) + count
    ok = by_category == SEVEN_CARD_CATEGORY_COUNTS and len(counts) == 4824
    emit(check="value_counts(7): 4,824 values, textbook category counts", ok=ok)
    if not ok:
        warn(f"value_counts(7) gave {len(counts)} values, categories {by_category}")
    bench_raw_enumeration(repeat)
    return seconds


def bench_raw_enumeration(repeat: int) -> None:
    """The bare C enumeration under value_counts (holdem's private _core)."""
    try:
        from holdem._core import ffi, lib

        limit = lib.HD_VALUE_LIMIT
        enumerate_c = lib.hd_enumerate
    except (ImportError, AttributeError):
        return
    pool = bytes(range(52))
    hist = ffi.new("uint64_t[]", limit)
    seconds = min(
        timed(lambda: enumerate_c(b"", 0, pool, 52, 7, hist, ffi.NULL)) for _ in range(repeat)
    )
    emit_result(
        "holdem",
        "_core.lib.hd_enumerate (the C call inside value_counts)",
        ALL_SEVEN_CARD_HANDS,
        seconds,
        repeat=repeat,
    )


_IMPORT_PROBE = """
import json, sys, time
def rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
for name in sys.argv[1:]:
    __import__(name)
before = rss()
start = time.perf_counter()
import holdem
seconds = time.perf_counter() - start
print(json.dumps({"rss_bytes": rss() - before, "seconds": seconds}))
"""


def bench_import(repeat: int) -> dict[str, float]:
    """Cost of `import holdem` in fresh interpreters; returns MiB added."""
    if not os.path.exists("/proc/self/status"):
        note("no /proc/self/status here: import memory not measured")
        return {}
    preloads = {
        "fresh interpreter": [],
        "stdlib and cffi modules it uses already imported": [
            "_cffi_backend",
            "array",
            "random",
            "typing",
        ],
    }
    mib: dict[str, float] = {}
    for label, modules in preloads.items():
        runs = []
        for _ in range(max(repeat, 3)):
            proc = subprocess.run(
                [sys.executable, "-c", _IMPORT_PROBE, *modules],
                capture_output=True,
                text=True,
                check=True,
            )
            runs.append(json.loads(proc.stdout))
        rss = sorted(r["rss_bytes"] for r in runs)[len(runs) // 2] / 2**20
        seconds = min(r["seconds"] for r in runs)
        emit(
            library="holdem",
            method="import holdem",
            setting=label,
            preloaded=modules,
            rss_added_mib=round(rss, 2),
            seconds=round(seconds, 4),
            runs=len(runs),
        )
        mib[label] = round(rss, 2)
    try:
        from holdem._core import lib

        emit(library="holdem", method="lookup tables", kib=round(lib.hd_table_bytes() / 1024, 1))
    except (ImportError, AttributeError):
        pass
    return mib


# ------------------------------------------------------------ ratios, targets


def emit_ratios(ns: dict[str, float]) -> None:
    pairs = [
        ("holdem.evaluate7", "phevaluator.evaluate_cards"),
        ("holdem.evaluate7", "phevaluator._pheval.evaluate_7cards"),
        ("holdem.evaluate7", "eval7.evaluate"),
        ("holdem.evaluate (list of 7 ints)", "eval7.evaluate"),
        ("holdem.evaluate (list of 7 ints)", "phevaluator.evaluate_cards"),
        ("holdem.evaluate7", "treys.Evaluator().evaluate(hand, board)"),
        ("holdem.evaluate7", "pokerkit.StandardHighHand.from_game(hole, board)"),
    ]
    for batch in ("holdem.evaluate_many(check=True)", "holdem.evaluate_many(check=False)"):
        pairs += [
            (batch, "phevaluator.evaluate_cards"),
            (batch, "phevaluator._pheval.evaluate_7cards"),
            (batch, "eval7.evaluate"),
        ]
    for ours, theirs in pairs:
        if ours in ns and theirs in ns:
            emit(ratio=f"{ours} / {theirs}", speedup=round(ns[theirs] / ns[ours], 2))


def emit_targets(ns: dict[str, float], enum_seconds: float | None, mib: dict[str, float]) -> None:
    def target(name: str, met: bool, **figures: Any) -> None:
        emit(target=name, met=met, **figures)

    def speedup(ours: str, theirs: str) -> float:
        return round(ns[theirs] / ns[ours], 2)

    ev7 = "holdem.evaluate7"
    pub, cc = "phevaluator.evaluate_cards", "phevaluator._pheval.evaluate_7cards"
    for peer in (pub, cc):
        if ev7 in ns and peer in ns:
            target(
                f"evaluate7 no slower than {peer}",
                ns[ev7] <= ns[peer],
                speedup=speedup(ev7, peer),
            )
    ev, e7 = "holdem.evaluate (list of 7 ints)", "eval7.evaluate"
    if ev in ns and e7 in ns:
        s = speedup(ev, e7)
        target("evaluate(cards) at least 2x eval7.evaluate", s >= 2, speedup=s)
    for check in (True, False):
        batch = f"holdem.evaluate_many(check={check})"
        if batch not in ns:
            continue
        rate = 1e9 / ns[batch]
        target(f"{batch}: 100M hands/s on one core", rate >= 100e6, evals_per_sec=round(rate))
        for peer in (pub, cc):
            if peer in ns:
                s = speedup(batch, peer)
                target(f"{batch} at least 20x {peer}", s >= 20, speedup=s)
    if enum_seconds is not None:
        target("value_counts(7) under 0.5 s", enum_seconds < 0.5, seconds=round(enum_seconds, 4))
    if "fresh interpreter" in mib:
        m = mib["fresh interpreter"]
        target("import holdem adds at most a few MiB (taken as <= 4)", m <= 4, rss_added_mib=m)


# ---------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=DESCRIPTION)
    p.add_argument("--hands", type=int, default=200_000, help="hands for per-call timings")
    p.add_argument("--batch", type=int, default=16_000_000, help="hands for evaluate_many")
    p.add_argument("--repeat", type=int, default=7, help="rounds; the best one counts")
    p.add_argument("--quick", action="store_true", help="small sizes: a smoke run of seconds")
    p.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    p.add_argument("--no-enum", action="store_true", help="skip value_counts(7)")
    p.add_argument("--no-import", action="store_true", help="skip the import cost probe")
    args = p.parse_args(argv)
    if args.quick:
        args.hands, args.batch, args.repeat = 10_000, 1_000_000, 2
        SLOW_PEER_HANDS.update(treys=1_000, pokerkit=100)
    if min(args.hands, args.batch, args.repeat) < 1:
        p.error("--hands, --batch and --repeat must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    emit(
        header=True,
        **machine(),
        pinned_cpu=cpu,
        holdem_path=os.path.dirname(holdem.__file__ or ""),
        implementations={
            name: implementation(getattr(holdem, name))
            for name in ("evaluate7", "evaluate", "evaluate_many", "value_counts")
        },
        seed=SEED,
        hands=args.hands,
        batch=args.batch,
        repeat=args.repeat,
        versions={name: library_version(name) for name in ("holdem", "cffi", "numpy", *PEERS)},
    )
    if cpu is None:
        note("not pinned: timings may wander between cores")
    else:
        note(f"pinned to CPU {cpu} (os.sched_setaffinity); --no-pin to allow any")

    hands = make_hands(args.hands, SEED)
    ns = bench_single_calls(hands, args.repeat)
    ns.update(bench_batch(args.batch, args.repeat))
    enum_seconds = None if args.no_enum else bench_enumeration(max(2, min(args.repeat, 5)))
    mib = {} if args.no_import else bench_import(args.repeat)
    emit_ratios(ns)
    emit_targets(ns, enum_seconds, mib)


if __name__ == "__main__":
    main()
