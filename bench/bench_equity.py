"""Benchmark of holdem's equity calculator against eval7 and pokerkit.

Run it from the repository root::

    pip install -e '.[bench]' && python bench/bench_equity.py

``--quick`` gives a smoke run of a few seconds; ``--help`` lists the sizes.

Spots: AsKs vs QdQh (hand against hand) and AK vs QQ+ (range against range),
plus the three-way AsKs vs QdQh vs JcTc and AK vs QQ+ vs JTs for holdem alone,
and, exact only, TT+,AJ+,KQ vs random on the flop 9c8d2h (101,614 classes of
deals of 990 boards each: many small pieces of work).

Measured, in one run, the libraries interleaved in every round:

- exact preflop equity: ``holdem.equity(..., exact=True)`` on one and
  on two threads; eval7 has no preflop enumeration, so the Python loop a
  user would write over every board with eval7's one-board exact call
  (``py_hand_vs_range_exact``), and for the hand against hand spot also the
  loop calling ``eval7.evaluate`` twice a board; on the flop, the same
  one-board loop over the 990 turns and rivers of each hero combo;
- Monte Carlo: ``equity(..., trials=N, seed=1)`` on one and on two threads,
  eval7's ``py_hand_vs_range_monte_carlo`` / ``py_all_hands_vs_range`` with
  the same number of trials, and pokerkit's ``calculate_equities`` with a
  small sample count (it is pure Python).

One-thread figures run with the process pinned to one core (unless
``--no-pin``); the two-thread figures run on every core the process may use.
Each figure is the best (smallest) time of its rounds; eval7's exact loops
and pokerkit take seconds, so they run in at most two rounds, and eval7's
exact AK vs QQ+ loop (about half a minute) in one.

Checked on the way: holdem's exact equities against the known values, eval7's
exact loops against holdem (to 1e-6), every Monte Carlo result against the
exact value (within four standard errors) and holdem's Monte Carlo result on
two threads against one thread (identical). A failed check prints a
``warning`` line.

Output: one JSON object a line on stdout: a header, notes, results, checks,
ratios, and a verdict for each performance target of the project.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from math import comb, sqrt
from typing import Any

from _common import emit, library_version, machine, note, set_bench, warn

import holdem
from holdem.cards import format_card, parse_cards
from holdem.equities import equity
from holdem.ranges import Range

set_bench("equity")

DESCRIPTION = "Benchmark of holdem's equity calculator against eval7 and pokerkit."
SEED = 1

HU = ("AsKs", "QdQh")
RANGES = ("AK", "QQ+")
HU3 = ("AsKs", "QdQh", "JcTc")
RANGES3 = ("AK", "QQ+", "JTs")
FLOP = ("TT+,AJ+,KQ", "random")
#: The boards of the spots that have one (the others are preflop).
BOARDS: dict[tuple[str, ...], str] = {FLOP: "9c8d2h"}
#: eval7's range for "random": every hand.
EVAL7_RANDOM = (
    "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
    "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
)
#: Known exact equities of each spot, player by player.
REFERENCE: dict[tuple[str, ...], tuple[float, ...]] = {
    HU: (0.4621446, 0.5378554),
    HU3: (0.4020918, 0.4105449, 0.1873633),
    RANGES: (0.317900, 0.682100),
    RANGES3: (0.275923, 0.535241, 0.188836),
}
EXACT_TOLERANCE = 1e-6
MC_SIGMAS = 4.0  # a Monte Carlo equity may stray this many standard errors from the exact one

#: The project's targets (one thread unless said otherwise).
TARGET_EXACT_HU_S = 0.010
TARGET_EXACT_RANGES_S = 0.100
TARGET_MC_RATE = 20e6  # trials per second per thread
TARGET_MC_OVER_EVAL7 = 2.0
TARGET_SPEEDUP_2T = 1.8  # "near-linear" on two threads, taken as at least 90% of 2x
#: The fastest native C++ calculator, from the issue (a machine like ours, one thread).
NATIVE = {"exact_hu_s": 0.0046, "exact_ranges_s": 0.070, "mc_rate": 20e6}


# --------------------------------------------------------------------- output


def check(name: str, ok: bool, **details: Any) -> None:
    emit(check=name, ok=ok, **details)
    if not ok:
        warn(f"check failed: {name} {json.dumps(details)}")


# ---------------------------------------------------------------- environment


def allowed_cpus() -> set[int] | None:
    if not hasattr(os, "sched_getaffinity"):
        return None
    return set(os.sched_getaffinity(0))


def set_cpus(cpus: set[int] | None) -> None:
    if cpus is None:
        return
    try:
        os.sched_setaffinity(0, cpus)
    except OSError as exc:
        warn(f"sched_setaffinity({sorted(cpus)}) failed: {exc}")


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


# -------------------------------------------------------------------- cases


@dataclass
class Outcome:
    """What one timed call found."""

    equities: list[float]
    count: int  # boards scored (exact) or trials / samples (Monte Carlo)
    unit: str  # "boards" or "trials"
    stderr: list[float] | None = None  # per player, when the library gives one
    stderr_bound: float | None = None  # an upper bound, for peers that give none
    partial_of: int | None = None  # an exact loop cut short: the boards of the whole loop


@dataclass
class Case:
    """One timed computation; its best time over the rounds counts."""

    key: str
    spot: tuple[str, ...]
    library: str
    method: str
    run: Callable[[], Outcome]
    exact: bool
    threads: int = 1
    slow: bool = False  # seconds a call: at most two rounds
    max_rounds: int | None = None  # fewer rounds still (eval7's exact range loop: one)
    reps: int = 1  # timed calls per round (for the fast ones)
    best: float = float("inf")
    outcome: Outcome | None = None
    rounds: int = 0
    times: list[float] = field(default_factory=list)


def spot_name(spot: Sequence[str]) -> str:
    board = BOARDS.get(tuple(spot))
    return " vs ".join(spot) + (f" on {board}" if board else "")


def legal_deals(spot: Sequence[str]) -> int:
    """Assignments of one combo per player sharing no card (all weights are 1 here)."""
    total = 0
    for deal in itertools.product(*(Range.parse(p) for p in spot)):
        cards = {c for combo in deal for c in combo}
        total += len(cards) == 2 * len(deal)
    return total


def holdem_case(
    spot: tuple[str, ...], threads: int, trials: int | None = None, reps: int = 1
) -> Case:
    exact = trials is None
    kwargs: dict[str, Any] = {"exact": True} if exact else {"trials": trials, "seed": SEED}
    if spot in BOARDS:
        kwargs["board"] = BOARDS[spot]

    def run() -> Outcome:
        r = equity(list(spot), threads=threads, **kwargs)
        return Outcome(
            [p.equity for p in r.players],
            r.deals,
            "boards" if r.method == "exact" else "trials",
            None if r.method == "exact" else [p.stderr for p in r.players],
        )

    call = "exact=True" if exact else f"trials={trials:,}, seed={SEED}"
    if spot in BOARDS:
        call += f", board={BOARDS[spot]!r}"
    return Case(
        key=f"holdem {'exact' if exact else 'mc'} {threads}t {spot_name(spot)}",
        spot=spot,
        library="holdem",
        method=f"equity({call}, threads={threads})",
        run=run,
        exact=exact,
        threads=threads,
        reps=reps,
    )


def holdem_cases(trials: int) -> list[Case]:
    return [
        holdem_case(HU, 1, reps=5),
        holdem_case(HU, 2, reps=5),
        holdem_case(RANGES, 1, reps=3),
        holdem_case(RANGES, 2, reps=3),
        holdem_case(HU3, 1, reps=3),
        holdem_case(RANGES3, 1),
        holdem_case(FLOP, 1),
        holdem_case(FLOP, 2),
        holdem_case(HU, 1, trials),
        holdem_case(HU, 2, trials),
        holdem_case(RANGES, 1, trials),
        holdem_case(RANGES, 2, trials),
    ]


# ---- eval7


def eval7_cases(trials: int, board_limit: int | None, all_combos: bool) -> list[Case]:
    import eval7  # type: ignore[import-untyped]

    def cards(text: str) -> tuple[Any, ...]:
        return tuple(eval7.Card(format_card(c)) for c in parse_cards(text))

    def mask(combo: Iterable[Any]) -> int:
        m = 0
        for c in combo:
            m |= c.mask
        return m

    # -- exact: every board, eval7's one-board exact call (heads-up, one hero hand)
    f_exact = eval7.py_hand_vs_range_exact

    def exact_loop(
        hero_classes: list[tuple[str, int]], villain: str, board: str = ""
    ) -> Callable[[], Outcome]:
        """Exact hero-vs-range equity from a loop over all boards (completions
        of ``board``), one eval7 call a board.

        eval7 returns the mean over the villain combos that miss the board and
        hero; weighted by how many they are (k), it sums to the exact equity:
        2k * mean = 2 * wins + ties, an integer, so no float32 rounding is kept.
        """
        fixed = cards(board)
        draws = 5 - len(fixed)
        prepared = []
        for text, multiplicity in hero_classes:
            hero = cards(text)
            hm = mask(hero)
            options = [(pair, 1.0) for pair, _ in eval7.HandRange(villain) if not mask(pair) & hm]
            vmasks = [mask(pair) for pair, _ in options]
            common = ~0
            for m in vmasks:
                common &= m
            deck = [c for c in eval7.Deck().cards if not c.mask & (hm | common | mask(fixed))]
            prepared.append((hero, multiplicity, options, vmasks, deck))
        whole = sum(comb(len(p[4]), draws) for p in prepared)

        def run() -> Outcome:
            num = den = boards = 0
            for hero, multiplicity, options, vmasks, deck in prepared:
                n = d = 0
                it: Iterable[tuple[Any, ...]] = (
                    fixed + rest for rest in itertools.combinations(deck, draws)
                )
                if board_limit is not None:  # (over all the hero hands)
                    it = itertools.islice(it, max(0, board_limit - boards))
                if len(vmasks) == 1:  # one villain hand, never on the board: k = 1
                    for b in it:
                        n += round(2.0 * f_exact(hero, options, b))
                        d += 2
                        boards += 1
                else:
                    nv = len(vmasks)
                    for b in it:
                        bm = b[0].mask | b[1].mask | b[2].mask | b[3].mask | b[4].mask
                        k = nv - sum(map(bool, map(bm.__and__, vmasks)))
                        boards += 1
                        if k:
                            n += round(2.0 * k * f_exact(hero, options, b))
                            d += 2 * k
                num += multiplicity * n
                den += multiplicity * d
            e = num / den
            return Outcome(
                [e, 1.0 - e], boards, "boards", partial_of=whole if boards < whole else None
            )

        return run

    def evaluate_loop(hero_text: str, villain_text: str) -> Callable[[], Outcome]:
        evaluate = eval7.evaluate
        hero, villain = cards(hero_text), cards(villain_text)
        dead = mask(hero) | mask(villain)
        deck = [c for c in eval7.Deck().cards if not c.mask & dead]
        whole = comb(len(deck), 5)

        def run() -> Outcome:
            wins = ties = boards = 0
            it: Iterable[tuple[Any, ...]] = itertools.combinations(deck, 5)
            if board_limit is not None:
                it = itertools.islice(it, board_limit)
            for b in it:
                h, v = evaluate(b + hero), evaluate(b + villain)
                boards += 1
                if h > v:
                    wins += 1
                elif h == v:
                    ties += 1
            e = (wins + ties / 2) / boards
            return Outcome(
                [e, 1.0 - e], boards, "boards", partial_of=whole if boards < whole else None
            )

        return run

    # AK vs QQ+: QQ+ is the same under any renaming of suits, so a suited and an
    # offsuit AK stand for their 4 and 12 combos (each has 12 villain combos left).
    ak_classes = (
        [(format_card(a) + format_card(b), 1) for a, b in Range.parse("AK")]
        if all_combos
        else [("AsKs", 4), ("AsKh", 12)]
    )
    how = "all 16 AK combos" if all_combos else "AsKs x4 + AsKh x12 (suit symmetry)"

    # TT+,AJ+,KQ vs random on 9c8d2h: no renaming of suits keeps the board
    # (three suits), so every hero combo off the board is its own class
    flop_board = set(parse_cards(BOARDS[FLOP]))
    flop_classes = [
        (format_card(a) + format_card(b), 1)
        for a, b in Range.parse(FLOP[0])
        if not {a, b} & flop_board
    ]

    # -- Monte Carlo
    bound = 0.5 / sqrt(trials)  # a share in [0, 1] has a variance of at most 1/4
    hu_hero, hu_villain = cards(HU[0]), eval7.HandRange(HU[1])

    def mc_hu() -> Outcome:
        e = eval7.py_hand_vs_range_monte_carlo(hu_hero, hu_villain, [], trials)
        return Outcome([e, 1.0 - e], trials, "trials", stderr_bound=bound)

    ak, qq = eval7.HandRange(RANGES[0]), eval7.HandRange(RANGES[1])
    per_combo = max(1, trials // len(ak))
    qq_masks = [mask(pair) for pair, _ in qq]

    def mc_ranges() -> Outcome:
        result = eval7.py_all_hands_vs_range(ak, qq, [], per_combo)
        num = den = 0.0
        for combo, e in result.items():  # weight: the villain combos this hand leaves
            m = mask(combo)
            k = sum(1 for v in qq_masks if not v & m)
            num += k * e
            den += k
        eq = num / den
        return Outcome(
            [eq, 1.0 - eq],
            per_combo * len(result),
            "trials",
            stderr_bound=0.5 / sqrt(per_combo * len(result)),
        )

    limit_note = "" if board_limit is None else f", first {board_limit:,} boards only"
    return [
        Case(
            "eval7 exact loop AsKs vs QdQh",
            HU,
            "eval7",
            f"loop over boards: py_hand_vs_range_exact(hero, [villain], board){limit_note}",
            exact_loop([(HU[0], 1)], HU[1]),
            exact=True,
            slow=True,
        ),
        Case(
            "eval7 evaluate loop AsKs vs QdQh",
            HU,
            "eval7",
            f"loop over boards: evaluate(board + hero) vs evaluate(board + villain){limit_note}",
            evaluate_loop(*HU),
            exact=True,
            slow=True,
        ),
        Case(
            "eval7 exact loop AK vs QQ+",
            RANGES,
            "eval7",
            f"loop over boards: py_hand_vs_range_exact(hero, QQ+, board) x k, {how}{limit_note}",
            exact_loop(ak_classes, RANGES[1]),
            exact=True,
            slow=True,
            max_rounds=1,
        ),
        Case(
            f"eval7 exact loop {spot_name(FLOP)}",
            FLOP,
            "eval7",
            f"loop over boards: py_hand_vs_range_exact(hero, every hand, board) x k, each of "
            f"the {len(flop_classes)} {FLOP[0]} combos{limit_note}",
            exact_loop(flop_classes, EVAL7_RANDOM, BOARDS[FLOP]),
            exact=True,
            slow=True,
            max_rounds=1,
        ),
        Case(
            "eval7 mc AsKs vs QdQh",
            HU,
            "eval7",
            f"py_hand_vs_range_monte_carlo(AsKs, HandRange('QdQh'), [], {trials:,})",
            mc_hu,
            exact=False,
        ),
        Case(
            "eval7 mc AK vs QQ+",
            RANGES,
            "eval7",
            f"py_all_hands_vs_range(HandRange('AK'), HandRange('QQ+'), [], {per_combo:,}),"
            " combos weighted by their villain combos",
            mc_ranges,
            exact=False,
        ),
    ]


# ---- pokerkit


def pokerkit_cases(samples: int) -> list[Case]:
    import pokerkit

    def case(spot: tuple[str, ...]) -> Case:
        ranges = tuple(pokerkit.parse_range(p) for p in spot)

        def run() -> Outcome:
            random.seed(SEED)  # pokerkit draws from the random module
            e = pokerkit.calculate_equities(
                ranges,
                (),
                2,
                5,
                pokerkit.Deck.STANDARD,
                (pokerkit.StandardHighHand,),
                sample_count=samples,
            )
            return Outcome(list(e), samples, "trials", stderr_bound=0.5 / sqrt(samples))

        return Case(
            f"pokerkit mc {spot_name(spot)}",
            spot,
            "pokerkit",
            f"calculate_equities(parse_range each, (), 2, 5, Deck.STANDARD, "
            f"(StandardHighHand,), sample_count={samples:,})",
            run,
            exact=False,
            slow=True,
        )

    return [case(HU), case(RANGES)]


# ------------------------------------------------------------------- timing


def timed(run: Callable[[], Outcome]) -> tuple[float, Outcome]:
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        outcome = run()
        return time.perf_counter() - start, outcome
    finally:
        if gc_was_enabled:
            gc.enable()


def run_rounds(
    cases: Sequence[Case], repeat: int, slow_rounds: int, pin: int | None, every: set[int] | None
) -> None:
    """Runs every case once a round (fast ones `reps` times), keeping each best time."""
    for r in range(repeat):
        for case in cases:
            if (case.slow and r >= slow_rounds) or r >= (case.max_rounds or repeat):
                continue
            if pin is not None:  # one core for one thread, every core for more
                set_cpus({pin} if case.threads == 1 else every)
            for _ in range(case.reps):
                seconds, outcome = timed(case.run)
                case.times.append(seconds)
                if seconds < case.best:
                    case.best, case.outcome = seconds, outcome
            case.rounds += 1
        if pin is not None:
            set_cpus({pin})
        print(f"round {r + 1}/{repeat} done", file=sys.stderr, flush=True)


def report(case: Case) -> None:
    o = case.outcome
    assert o is not None
    rate = o.count / case.best
    extra: dict[str, Any] = {}
    if o.partial_of is not None:
        extra = {
            "partial": True,
            "whole_boards": o.partial_of,
            "extrapolated_seconds": round(case.best * o.partial_of / o.count, 3),
        }
    emit(
        key=case.key,
        spot=spot_name(case.spot),
        library=case.library,
        method=case.method,
        exact=case.exact,
        threads=case.threads,
        count=o.count,
        unit=o.unit,
        seconds=round(case.best, 6),
        per_sec=round(rate),
        per_sec_per_thread=round(rate / case.threads),
        median_seconds=round(sorted(case.times)[len(case.times) // 2], 6),
        calls=len(case.times),
        equities=[round(e, 7) for e in o.equities],
        stderr=None if o.stderr is None else [round(s, 7) for s in o.stderr],
        **extra,
    )


# ------------------------------------------------------------------- checks


def run_checks(cases: dict[str, Case]) -> None:
    for case in cases.values():
        o = case.outcome
        if o is None or o.partial_of is not None:
            continue
        ref = REFERENCE.get(case.spot)
        if ref is None:
            continue
        diff = max(abs(a - b) for a, b in zip(o.equities, ref, strict=True))
        if case.exact:
            check(
                f"{case.key}: exact equities match the known values to {EXACT_TOLERANCE:g}",
                diff <= EXACT_TOLERANCE,
                equities=[round(e, 7) for e in o.equities],
                reference=list(ref),
                max_diff=diff,
            )
        else:
            se = max(o.stderr) if o.stderr else (o.stderr_bound or 0.0)
            kind = "its standard error" if o.stderr else "0.5/sqrt(trials), a bound on it"
            check(
                f"{case.key}: within {MC_SIGMAS:g} standard errors of the exact equities",
                diff <= MC_SIGMAS * se,
                equities=[round(e, 7) for e in o.equities],
                reference=list(ref),
                max_diff=round(diff, 7),
                stderr=round(se, 7),
                stderr_is=kind,
                sigmas=round(diff / se, 2) if se else None,
            )
    for spot in (HU, RANGES, FLOP):
        ours = cases.get(f"holdem exact 1t {spot_name(spot)}")
        for case in cases.values():
            o = case.outcome
            if case.library == "holdem" or case.spot != spot or not case.exact or o is None:
                continue
            if o.partial_of is not None or ours is None or ours.outcome is None:
                continue
            diff = max(abs(a - b) for a, b in zip(o.equities, ours.outcome.equities, strict=True))
            check(
                f"{case.key}: same exact equities as holdem to {EXACT_TOLERANCE:g}",
                diff <= EXACT_TOLERANCE,
                max_diff=diff,
            )
        one = cases.get(f"holdem mc 1t {spot_name(spot)}")
        two = cases.get(f"holdem mc 2t {spot_name(spot)}")
        if one and two and one.outcome and two.outcome:
            check(
                f"holdem Monte Carlo {spot_name(spot)}: same result on 1 and 2 threads",
                one.outcome.equities == two.outcome.equities,
                one_thread=one.outcome.equities,
                two_threads=two.outcome.equities,
            )
        ex = [cases.get(f"holdem exact {t}t {spot_name(spot)}") for t in (1, 2)]
        if all(c and c.outcome for c in ex):
            a, b = (c.outcome.equities for c in ex if c and c.outcome)
            diff = max(abs(x - y) for x, y in zip(a, b, strict=True))
            check(
                f"holdem exact {spot_name(spot)}: same result on 1 and 2 threads",
                diff <= 1e-12 if spot != FLOP else a == b,  # (runs of slices: to the bit)
                max_diff=diff,
            )


# ------------------------------------------------------------- ratios, targets


def seconds_of(cases: dict[str, Case], key: str) -> float | None:
    case = cases.get(key)
    if case is None or case.outcome is None:
        return None
    o = case.outcome
    return case.best * o.partial_of / o.count if o.partial_of else case.best


def rate_of(cases: dict[str, Case], key: str) -> float | None:
    case = cases.get(key)
    if case is None or case.outcome is None:
        return None
    return case.outcome.count / case.best


def emit_ratios(cases: dict[str, Case]) -> None:
    def time_ratio(ours: str, theirs: str) -> None:
        a, b = seconds_of(cases, ours), seconds_of(cases, theirs)
        if a and b:
            peer = cases[theirs].outcome
            partial = peer is not None and peer.partial_of is not None
            emit(
                ratio=f"{ours} / {theirs}",
                speedup=round(b / a, 2),
                basis="time" + (" (peer extrapolated)" if partial else ""),
            )

    def rate_ratio(ours: str, theirs: str) -> None:
        a, b = rate_of(cases, ours), rate_of(cases, theirs)
        if a and b:
            emit(ratio=f"{ours} / {theirs}", speedup=round(a / b, 2), basis="trials per second")

    for spot in (HU, RANGES, FLOP):
        s = spot_name(spot)
        for peer in (f"eval7 exact loop {s}", f"eval7 evaluate loop {s}"):
            time_ratio(f"holdem exact 1t {s}", peer)
        for peer in (f"eval7 mc {s}", f"pokerkit mc {s}"):
            rate_ratio(f"holdem mc 1t {s}", peer)
        for kind in ("exact", "mc"):
            a = seconds_of(cases, f"holdem {kind} 1t {s}")
            b = seconds_of(cases, f"holdem {kind} 2t {s}")
            if a and b:
                emit(
                    ratio=f"holdem {kind} {s}: 2 threads / 1 thread",
                    speedup=round(a / b, 2),
                    basis="time",
                )


def emit_targets(cases: dict[str, Case], quick: bool) -> None:
    def target(name: str, met: bool | None, **figures: Any) -> None:
        emit(target=name, met=met, **figures, **({"quick_run": True} if quick else {}))

    for spot, limit, native in (
        (HU, TARGET_EXACT_HU_S, NATIVE["exact_hu_s"]),
        (RANGES, TARGET_EXACT_RANGES_S, NATIVE["exact_ranges_s"]),
    ):
        s = seconds_of(cases, f"holdem exact 1t {spot_name(spot)}")
        if s is not None:
            target(
                f"{spot_name(spot)} exact, one thread, under {limit * 1e3:g} ms",
                s < limit,
                ms=round(s * 1e3, 2),
                native_cpp_ms=native * 1e3,
            )
    one, two = (seconds_of(cases, f"holdem exact {t}t {spot_name(FLOP)}") for t in (1, 2))
    if one is not None and two is not None:
        target(
            f"{spot_name(FLOP)} exact: faster on 2 threads than on 1",
            two < one,
            speedup=round(one / two, 2),
            ms_1t=round(one * 1e3, 1),
            ms_2t=round(two * 1e3, 1),
        )
    for spot in (HU, RANGES):
        name = spot_name(spot)
        ours = rate_of(cases, f"holdem mc 1t {name}")
        if ours is None:
            continue
        target(
            f"Monte Carlo {name}: at least {TARGET_MC_RATE / 1e6:g} M trials/s on one thread",
            ours >= TARGET_MC_RATE,
            trials_per_sec=round(ours),
        )
        theirs = rate_of(cases, f"eval7 mc {name}")
        if theirs is not None:
            target(
                f"Monte Carlo {name}: at least {TARGET_MC_OVER_EVAL7:g}x eval7 in the same run",
                ours >= TARGET_MC_OVER_EVAL7 * theirs,
                speedup=round(ours / theirs, 2),
                eval7_trials_per_sec=round(theirs),
            )
        else:
            target(f"Monte Carlo {name}: at least 2x eval7", None, reason="eval7 not installed")
        two = rate_of(cases, f"holdem mc 2t {name}")
        if two is not None:
            target(
                f"Monte Carlo {name}: near-linear on 2 threads (at least "
                f"{TARGET_SPEEDUP_2T:g}x one thread)",
                two >= TARGET_SPEEDUP_2T * ours,
                speedup=round(two / ours, 2),
                trials_per_sec_2t=round(two),
            )


# --------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=DESCRIPTION)
    p.add_argument(
        "--trials",
        type=int,
        default=20_000_000,
        help="Monte Carlo trials for holdem and eval7 (default 20,000,000)",
    )
    p.add_argument(
        "--pokerkit-samples",
        type=int,
        default=4_000,
        help="pokerkit's sample_count (default 4,000; about 1,000 a second)",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="rounds; the best time counts (default 3; slow peers: at most 2)",
    )
    p.add_argument("--quick", action="store_true", help="small sizes: a smoke run of seconds")
    p.add_argument(
        "--no-pin", action="store_true", help="do not pin the one-thread figures to one core"
    )
    p.add_argument(
        "--eval7-all-combos",
        action="store_true",
        help="eval7's exact AK vs QQ+ loop over all 16 AK combos (8x longer) "
        "instead of one suited and one offsuit",
    )
    args = p.parse_args(argv)
    args.board_limit = None
    if args.quick:
        args.trials, args.pokerkit_samples, args.repeat = 200_000, 100, 2
        args.board_limit = 20_000
    if min(args.trials, args.pokerkit_samples, args.repeat) < 1:
        p.error("--trials, --pokerkit-samples and --repeat must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    every = allowed_cpus()
    pin = None if args.no_pin or not every else max(every)
    emit(
        header=True,
        **machine(),
        allowed_cpus=sorted(every) if every else None,
        pinned_cpu=pin,
        load_average=load_average(),
        holdem_path=os.path.dirname(holdem.__file__ or ""),
        seed=SEED,
        trials=args.trials,
        pokerkit_samples=args.pokerkit_samples,
        repeat=args.repeat,
        quick=args.quick,
        versions={n: library_version(n) for n in ("holdem", "cffi", "eval7", "pokerkit")},
    )
    if pin is None:
        note("not pinned: timings may wander between cores")
    else:
        note(
            f"one-thread figures pinned to CPU {pin}; two-thread figures on CPUs "
            f"{sorted(every or ())} (os.sched_setaffinity); --no-pin to allow any"
        )
        set_cpus({pin})
    if args.quick:
        note(
            f"quick run: eval7's exact loops stop after {args.board_limit:,} boards "
            "(times extrapolated, equities not checked); figures are not meaningful"
        )

    cases = holdem_cases(args.trials)
    peers: list[tuple[str, Callable[[], list[Case]]]] = [
        ("eval7", lambda: eval7_cases(args.trials, args.board_limit, args.eval7_all_combos)),
        ("pokerkit", lambda: pokerkit_cases(args.pokerkit_samples)),
    ]
    for name, make in peers:
        try:
            cases += make()
        except ImportError as exc:
            note(f"{name} not installed, skipped ({exc})")
    # interleave: the exact cases first, then Monte Carlo; slow peers last in each round
    cases.sort(key=lambda c: (not c.exact, c.slow))
    run_rounds(cases, args.repeat, min(args.repeat, 2), pin, every)

    by_key = {c.key: c for c in cases}
    for case in cases:
        report(case)
    emit(
        info="exact deals covered: legal hole-card deals x boards, before suit symmetry",
        **{spot_name(s): legal_deals(s) * comb(52 - 2 * len(s), 5) for s in REFERENCE},
    )
    run_checks(by_key)
    emit_ratios(by_key)
    emit_targets(by_key, args.quick)
    emit(footer=True, load_average=load_average())


if __name__ == "__main__":
    main()
