"""``holdem stats`` and :mod:`holdem.stats`: every figure against hands built
for it, against an independent count over simulated hands, against what
``holdem simulate`` reports, and the command's files, plots and page."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import struct
import subprocess
import sys
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import with_ctrl_c
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.cards import parse_cards
from holdem.cli.main import main
from holdem.equities import equity
from holdem.histories import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    FOLD,
    HandHistory,
    read_hands,
    read_phh_text,
    write_phh,
)
from holdem.histories import parallel as parallel_module
from holdem.simulation import simulate
from holdem.stats import (
    HEADS_UP_BOARDS,
    POINTS,
    Series,
    Stats,
    heads_up_equity,
    position_names,
    stats_files,
)

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def phh(actions: list[str], *, stacks: int | list[int] = 200, players: int = 3,
        names: list[str] | None = None, blinds: tuple[int, int] = (1, 2)) -> str:  # fmt: skip
    """One PHH hand (p1 the small blind, the last player the button)."""
    n = players
    stacks = [stacks] * n if isinstance(stacks, int) else stacks
    names = names or ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"][:n]
    straddles = [*blinds, *[0] * (n - 2)]  # (heads-up PHH reads them the other way round)
    return (
        "variant = 'NT'\n"
        f"antes = {[0] * n}\n"
        f"blinds_or_straddles = {straddles}\n"
        f"min_bet = {blinds[1]}\n"
        f"starting_stacks = {stacks}\n"
        f"actions = {actions}\n"
        f"players = {names}\n"
    )


def counted(*texts: str) -> Stats:
    stats = Stats(series=True)
    for text in texts:
        stats.add_hands(read_phh_text(text))
    return stats


def chances(stats: Stats, name: str) -> dict[str, tuple[int, int]]:
    return stats.players[name].total().chances()


# -- hands built for one figure each ------------------------------------------

DEAL3 = ["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d"]


def test_a_three_bet_and_a_fold_to_it() -> None:
    # the button opens, the small blind 3-bets, the big blind folds, the button folds to it
    stats = counted(phh([*DEAL3, "p3 cbr 6", "p1 cbr 20", "p2 f", "p3 f"]))
    ann, bob, cid = (chances(stats, n) for n in ("Ann", "Bob", "Cid"))
    assert ann["three_bet"] == (1, 1)
    assert bob["three_bet"] == (0, 0)  # (a 3-bet before their turn: no chance to 3-bet)
    assert cid["three_bet"] == (0, 0)
    assert cid["fold_to_three_bet"] == (1, 1)
    assert ann["fold_to_three_bet"] == (0, 0)
    assert (ann["vpip"], bob["vpip"], cid["vpip"]) == ((1, 1), (0, 1), (1, 1))
    assert (ann["pfr"], bob["pfr"], cid["pfr"]) == ((1, 1), (0, 1), (1, 1))
    totals = {n: stats.players[n].total() for n in ("Ann", "Bob", "Cid")}
    assert totals["Ann"].net == 8  # the blinds and the open: 2 + 6
    assert totals["Cid"].net_bb == -3.0


def test_a_walk_is_no_chance_to_put_money_in() -> None:
    stats = counted(phh([*DEAL3, "p3 f", "p1 f"]))
    assert chances(stats, "Bob")["vpip"] == (0, 0)  # the big blind's walk: no decision
    assert chances(stats, "Ann")["vpip"] == (0, 1)
    bob = stats.players["Bob"].total()
    assert (bob.hands, bob.net_bb) == (1, 0.5)
    assert stats.players["Bob"].total().figures()["vpip"] is None


def test_a_limp_and_a_check_of_the_big_blind() -> None:
    stats = counted(
        phh([*DEAL3, "p3 cc", "p1 cc", "p2 cc", "d db 2h3h4h", "p1 cc", "p2 cc", "p3 cc",
             "d db 9c", "p1 cc", "p2 cc", "p3 cc", "d db Jd", "p1 cc", "p2 cc", "p3 cc"])
    )  # fmt: skip
    assert chances(stats, "Cid")["vpip"] == (1, 1)  # a limp
    assert chances(stats, "Ann")["vpip"] == (1, 1)  # the small blind completes
    assert chances(stats, "Bob")["vpip"] == (0, 1)  # a check is no money put in
    assert all(chances(stats, n)["pfr"] == (0, 1) for n in ("Ann", "Bob", "Cid"))
    assert chances(stats, "Bob")["three_bet"] == (0, 0)  # no raise to 3-bet
    for name in ("Ann", "Bob", "Cid"):
        c = chances(stats, name)
        assert c["wtsd"] == (1, 1)
        assert c["aggression_frequency"] == (0, 0)  # checks are not counted
        assert c["cbet"] == (0, 0)  # nobody raised before the flop
    assert chances(stats, "Bob")["wsd"] == (1, 1)  # the queens
    assert chances(stats, "Ann")["wsd"] == (0, 1)


def test_a_continuation_bet_and_a_fold_to_it() -> None:
    stats = counted(
        phh([*DEAL3, "p3 cbr 6", "p1 f", "p2 cc", "d db 2h8c9d", "p2 cc", "p3 cbr 8", "p2 f"])
    )
    assert chances(stats, "Cid")["cbet"] == (1, 1)
    assert chances(stats, "Bob")["fold_to_cbet"] == (1, 1)
    assert chances(stats, "Bob")["cbet"] == (0, 0)
    assert chances(stats, "Bob")["wtsd"] == (0, 1)  # saw the flop, no showdown
    assert chances(stats, "Ann")["wtsd"] == (0, 0)  # did not see it
    assert chances(stats, "Cid")["aggression"] == (1, 0)
    assert stats.players["Cid"].total().figures()["aggression"] is None  # bets, never a call
    assert chances(stats, "Bob")["aggression_frequency"] == (0, 1)  # the fold (not the check)


def test_a_donk_bet_takes_the_chance_to_continuation_bet_away() -> None:
    stats = counted(
        phh([*DEAL3, "p3 cbr 6", "p1 f", "p2 cc", "d db 2h8c9d", "p2 cbr 4", "p3 cc",
             "d db Tc", "p2 cc", "p3 cc", "d db Jc", "p2 cc", "p3 cc"])
    )  # fmt: skip
    assert chances(stats, "Cid")["cbet"] == (0, 0)
    assert chances(stats, "Bob")["fold_to_cbet"] == (0, 0)
    assert chances(stats, "Bob")["aggression"] == (1, 0)
    assert chances(stats, "Cid")["aggression"] == (0, 1)
    assert chances(stats, "Cid")["aggression_frequency"] == (0, 1)


def test_pokerstars_money_rake_positions_and_showdowns() -> None:
    """The cash file of the PokerStars tests, worked out by hand: two hands,
    a 3-bet called, a c-bet folded to, a showdown, the rake of each pot."""
    stats = Stats()
    stats.add_hands(read_hands(DATA / "pokerstars" / "cash_two_hands.txt"))
    totals = {name: p.total() for name, p in stats.players.items()}
    assert sorted(totals) == ["Ann Lee", "[cat]", "bob:2", "eve"]
    nets = {name: c.net for name, c in totals.items()}
    assert nets == {
        "[cat]": Decimal("0.75"),
        "bob:2": Decimal("1.35"),
        "Ann Lee": Decimal("-1.00"),
        "eve": Decimal("-1.75"),
    }
    assert sum(nets.values()) == Decimal("-0.65")  # the two rakes
    assert totals["[cat]"].net_bb == pytest.approx(1.5)
    cat, bob = chances(stats, "[cat]"), chances(stats, "bob:2")
    assert cat["three_bet"] == (1, 1)
    assert bob["fold_to_three_bet"] == (0, 1)
    assert cat["cbet"] == (1, 1)
    assert bob["fold_to_cbet"] == (1, 1)
    assert cat["vpip"] == (2, 2) and bob["vpip"] == (1, 2)
    assert chances(stats, "Ann Lee")["vpip"] == (1, 2)  # the small blind completes
    assert bob["wtsd"] == (1, 2) and bob["wsd"] == (1, 1)
    assert cat["wtsd"] == (1, 2) and cat["wsd"] == (0, 1)  # mucked at the showdown
    assert bob["aggression"] == (1, 1) and bob["aggression_frequency"] == (1, 3)
    assert cat["aggression"] == (2, 1) and cat["aggression_frequency"] == (2, 3)
    assert sorted(stats.players["[cat]"].positions) == ["BTN", "UTG"]
    assert sorted(stats.players["bob:2"].positions) == ["BB", "UTG"]
    assert stats.players["bob:2"].positions["UTG"].net == Decimal("-4.50")


def test_position_names() -> None:
    assert position_names(2) == ("BB", "BTN")
    assert position_names(3) == ("SB", "BB", "BTN")
    assert position_names(4) == ("SB", "BB", "UTG", "BTN")
    assert position_names(6) == ("SB", "BB", "UTG", "HJ", "CO", "BTN")
    assert position_names(10) == (
        "SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN",
    )  # fmt: skip
    for n in range(2, 11):
        assert len(set(position_names(n))) == n


# -- all-in adjusted winnings --------------------------------------------------


def test_an_all_in_before_the_flop_is_shared_by_the_exact_equity() -> None:
    hand = phh(["d dh p1 QdQh", "d dh p2 AsKs", "p2 cbr 100", "p1 cc", "d db 2c7d8h",
                "d db 9s", "d db Jc"], stacks=100, players=2)  # fmt: skip
    stats = counted(hand)
    ak = equity(["AsKs", "QdQh"], exact=True).players[0].equity
    button, big_blind = stats.players["Bob"].total(), stats.players["Ann"].total()
    assert button.net == -100  # the queens hold
    assert button.adjusted_bb == pytest.approx((ak * 200 - 100) / 2, abs=1e-9)
    assert big_blind.adjusted_bb == pytest.approx(((1 - ak) * 200 - 100) / 2, abs=1e-9)
    assert button.count("all_ins") == 1
    assert stats.players["Bob"].series is not None
    assert stats.players["Bob"].series.curve()[-1][1:3] == (-50.0, button.adjusted_bb)


def test_an_all_in_on_the_flop_is_shared_by_the_equity_on_the_flop() -> None:
    hand = phh([*DEAL3, "p3 f", "p1 cbr 6", "p2 cc", "d db Qs9s2s", "p1 cbr 194", "p2 cc",
                "d db 3c", "d db 4d"])  # fmt: skip
    stats = counted(hand)
    spades = equity(["AsKs", "QdQh"], board="Qs9s2s").players[0].equity
    ann = stats.players["Ann"].total()
    assert ann.net == 200  # the flush on the flop holds against the set
    assert ann.adjusted_bb == pytest.approx((spades * 400 - 200) / 2, abs=1e-9)


def test_side_pots_are_shared_among_their_own_players() -> None:
    # Ann all-in for 50, Bob and Cid for 200: the main pot three ways, the side pot two
    hand = phh([*DEAL3, "p3 cbr 200", "p1 cc", "p2 cc", "d db 2c7d8h", "d db 9s", "d db Jc"],
               stacks=[50, 200, 200])  # fmt: skip
    stats = counted(hand)
    three = equity(["AsKs", "QdQh", "7c2d"], exact=True).players
    two = equity(["QdQh", "7c2d"], exact=True).players
    expected = {
        "Ann": three[0].equity * 150 - 50,
        "Bob": three[1].equity * 150 + two[0].equity * 300 - 200,
        "Cid": three[2].equity * 150 + two[1].equity * 300 - 200,
    }
    for name, chips in expected.items():
        assert stats.players[name].total().adjusted_bb == pytest.approx(chips / 2, abs=1e-9)


def test_the_heads_up_table_agrees_with_the_equity_engine() -> None:
    rng = random.Random(7)
    for _ in range(12):
        cards = rng.sample(range(52), 4)
        first, second = cards[:2], cards[2:]
        table = heads_up_equity(first, second)
        assert table is not None, "holdem/data/heads_up_preflop.bin is missing"
        exact = equity([first, second], exact=True).players[0].equity
        assert table == pytest.approx(exact, abs=0.5 / HEADS_UP_BOARDS)
    assert heads_up_equity(parse_cards("AsAh"), parse_cards("AdAc")) == pytest.approx(0.5)


# -- an independent count over simulated hands ----------------------------------


def independent_count(hand: HandHistory) -> dict[str, Counter[str]]:
    """Each player's counts of one hand, worked out from the file's moves
    alone (what a call is: the bet to match is more than the player's)."""
    n = len(hand.players)
    names = [hand.player_name(p) for p in range(n)]
    out = {name: Counter[str]() for name in names}
    put = list(hand.blinds.blinds)
    level = max(put)
    street = 0
    raises, opener, aggressor = 0, -1, -1
    flop_bets, cbettor = 0, -1
    folded = [False] * n
    seen: set[tuple[str, int]] = set()
    for move in hand.moves:
        if move.kind == DEAL_BOARD:
            if street == 0:
                for p in range(n):
                    out[names[p]]["saw_flop"] += not folded[p]
            street += 1
            put, level = [0] * n, 0
            continue
        if move.kind not in (FOLD, CHECK_CALL, BET_RAISE):
            continue
        p = move.actor
        assert p is not None
        c = out[names[p]]
        facing = level > put[p]
        if street == 0:
            c["decided"] = 1
            if raises == 1 and p != opener and ("3b", p) not in seen:
                seen.add(("3b", p))
                c["three_bet_chances"] += 1
                c["three_bet"] += move.kind == BET_RAISE
            elif raises == 2 and p == opener and ("f3b", p) not in seen:
                seen.add(("f3b", p))
                c["fold_three_bet_chances"] += 1
                c["fold_three_bet"] += move.kind == FOLD
            if move.kind == BET_RAISE or (move.kind == CHECK_CALL and facing):
                c["vpip"] = 1
            if move.kind == BET_RAISE:
                c["pfr"] = 1
                raises += 1
                aggressor = p
                opener = p if raises == 1 else opener
        else:
            if move.kind == BET_RAISE:
                c["post_aggressive"] += 1
            elif move.kind == FOLD:
                c["post_folds"] += 1
            elif facing:
                c["post_calls"] += 1
            if street == 1:
                if flop_bets == 0 and p == aggressor and ("cb", p) not in seen:
                    seen.add(("cb", p))
                    c["cbet_chances"] += 1
                    c["cbet"] += move.kind == BET_RAISE
                    cbettor = p if move.kind == BET_RAISE else -1
                elif flop_bets == 1 and cbettor >= 0 and p != cbettor and ("fcb", p) not in seen:
                    seen.add(("fcb", p))
                    c["fold_cbet_chances"] += 1
                    c["fold_cbet"] += move.kind == FOLD
                flop_bets += move.kind == BET_RAISE
        if move.kind == BET_RAISE:
            put[p] = move.to or 0
            level = max(level, put[p])
        elif move.kind == CHECK_CALL:
            put[p] = level
        else:
            folded[p] = True
    left = [p for p in range(n) if not folded[p]]
    assert hand.claims.finishing_stacks is not None and hand.claims.winnings is not None
    for p in range(n):
        c = out[names[p]]
        c["hands"] = 1
        stack = hand.players[p].stack
        assert stack is not None
        c["net"] = (hand.claims.finishing_stacks[p] or 0) - stack
        if len(left) > 1 and p in left:
            c["showdowns"] = 1
            c["showdowns_won"] = hand.claims.winnings[p] > 0
    return out


def test_figures_agree_with_an_independent_count_of_simulated_hands(tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    simulate(["random", "easy", "normal", "random", "calling-station", "easy"],
             hands=400, seed=11, histories=folder)  # fmt: skip
    theirs: dict[str, Counter[str]] = {}
    stats = Stats()
    adjusted = actual = 0.0
    for path in sorted(folder.iterdir()):
        for hand in read_hands(path):
            assert isinstance(hand, HandHistory)
            for name, c in independent_count(hand).items():
                theirs.setdefault(name, Counter()).update(c)
    for report in stats_files([str(p) for p in sorted(folder.iterdir())]):
        stats.merge(report.stats)
    assert stats.hands == 400 and stats.left_out == 0
    assert sorted(stats.players) == sorted(theirs)
    for name, c in theirs.items():
        ours = stats.players[name].total()
        assert ours.hands == c["hands"]
        assert ours.net == c["net"]
        for key in ("decided", "vpip", "pfr", "three_bet_chances", "three_bet",
                    "fold_three_bet_chances", "fold_three_bet", "cbet_chances", "cbet",
                    "fold_cbet_chances", "fold_cbet", "post_aggressive", "post_calls",
                    "post_folds", "saw_flop", "showdowns", "showdowns_won"):  # fmt: skip
            assert ours.count(key) == c[key], (name, key)
        adjusted += ours.adjusted_bb
        actual += ours.net_bb
    # somebody made each kind of play, or the comparison above says little
    every = Counter[str]()
    for c in theirs.values():
        every.update(c)
    assert all(every[k] > 5 for k in ("three_bet", "fold_three_bet", "cbet", "fold_cbet"))
    # all-in adjusted winnings move chips among the players: none are made or lost
    assert adjusted == pytest.approx(actual, abs=1e-6)
    assert sum(p.total().count("all_ins") for p in stats.players.values()) > 10


def test_a_simulation_s_histories_give_what_it_reported(tmp_path: Path) -> None:
    """``holdem simulate --histories`` then ``holdem stats`` on the folder:
    each bot's hands, net and bb/100 as the simulation reported them."""
    folder = tmp_path / "hands"
    code, out, err = run("simulate", "--seats", "hard,random,easy", "--hands", "300",
                         "--seed", "5", "--histories", str(folder), "--json")  # fmt: skip
    assert code == 0, err
    reported = json.loads(out)
    code, out, err = run("stats", str(folder), "--json")
    assert code == 0, err
    record = json.loads(out)
    assert record["hands"] == reported["hands"] == 300
    assert record["left_out"] == 0
    players = {p["player"]: p for p in record["players"]}
    for seat, r in enumerate(reported["seats"], 1):
        mine = players[f"seat{seat}-{r['bot']}"]
        assert mine["hands"] == r["hands"]
        assert mine["net_bb"] == pytest.approx(r["net_bb"], abs=1e-9)
        assert mine["bb_per_100"] == pytest.approx(r["bb_per_100"], abs=1e-9)
        assert mine["ci95"] == pytest.approx(r["ci95"], rel=1e-9)
        assert mine["counts"]["wtsd"][0] == r["showdowns"]
        assert mine["counts"]["pfr"][0] == round(r["pfr"] * r["hands"])


# -- pieces, processes and bounded series ------------------------------------------


def test_series_stay_bounded_and_end_at_the_totals() -> None:
    series = Series()
    total = 0.0
    for k in range(1, 20_001):
        total += 1.0
        series.add((k, total, total, 0.0, total))
    curve = series.curve()
    assert len(curve) <= 2 * POINTS + 2
    assert curve[0] == (0, 0.0, 0.0, 0.0, 0.0) and curve[-1] == (20_000, 20_000.0, 20_000.0, 0.0,
                                                                   20_000.0)  # fmt: skip
    steps = {b[0] - a[0] for a, b in itertools.pairwise(curve[1:-1])}
    assert len(steps) == 1  # evenly spaced


@given(st.lists(st.integers(1, 700), min_size=1, max_size=6))
@settings(max_examples=40)
def test_series_of_pieces_joined_stay_on_the_line(pieces: list[int]) -> None:
    joined = Series()
    start = 0
    for size in pieces:
        part = Series()
        for k in range(1, size + 1):
            part.add((k, float(k), 0.0, 0.0, 0.0))
        joined.merge(part)
        start += size
    curve = joined.curve()
    assert curve[-1][0] == start == curve[-1][1]
    assert all(h == x for h, x, *_ in curve)  # every point is a true total
    assert len(curve) <= 2 * POINTS + 2
    assert [p[0] for p in curve] == sorted({p[0] for p in curve})


def simulated_file(tmp_path: Path, hands: int = 600) -> Path:
    """One PHH set of ``hands`` simulated hands of four bots."""
    folder = tmp_path / "sim"
    simulate(["random", "easy", "normal", "calling-station"], hands=hands, seed=3, histories=folder)
    histories = [h for path in sorted(folder.iterdir()) for h in read_hands(path)]
    one = tmp_path / "all.phhs"
    with open(one, "w", encoding="utf-8") as out:
        write_phh(histories, out, many=True)  # type: ignore[arg-type]
    return one


def test_two_processes_and_pieces_give_the_same_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = simulated_file(tmp_path)
    whole = Stats(series=True)
    for report in stats_files([str(path)], series=True):
        whole.merge(report.stats)
    monkeypatch.setattr(parallel_module, "SPLIT_BYTES", 20_000)  # (pieces of 200 hands)
    pieces = Stats(series=True)
    for report in stats_files([str(path)], jobs=2, series=True):
        pieces.merge(report.stats)
    assert whole.hands == pieces.hands == 600
    for name, player in whole.players.items():
        other = pieces.players[name]
        a, b = player.total(), other.total()
        assert a.counts == b.counts and a.net == b.net
        assert a.net_bb == pytest.approx(b.net_bb) and a.m2 == pytest.approx(b.m2)
        assert a.figures()["ci95"] == pytest.approx(b.figures()["ci95"])
        assert player.series is not None and other.series is not None
        assert player.series.curve()[-1] == pytest.approx(other.series.curve()[-1])


# -- the command --------------------------------------------------------------------


def test_the_command_prints_the_players_and_a_player_by_position() -> None:
    code, out, err = run("stats", str(DATA / "pokerstars" / "cash_two_hands.txt"),
                         "--player", "bob:2")  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "2 hands"
    assert lines[1].split()[:4] == ["player", "hands", "net", "net"]
    assert lines[2].split()[:3] == ["bob:2", "2", "+1.35"]
    assert "bob:2 by position" in lines
    rows = {line.split()[0]: line for line in lines[lines.index("bob:2 by position") + 2 :]}
    assert sorted(rows) == ["BB", "UTG"]
    assert rows["UTG"].split()[:3] == ["UTG", "1", "-4.50"]
    code, out, err = run("stats", str(DATA / "pokerstars" / "cash_two_hands.txt"))
    assert out.splitlines()[2].split()[:4] == ["Ann", "Lee", "2", "-1.00"]  # (cents, as the rest)
    code, out, err = run("stats", str(DATA / "phh" / "ok_heads_up_decimal.phh"))
    assert code == 0, err
    nets = [line.split()[2] for line in out.splitlines()[2:]]
    assert all(n[0] in "+-" and not n.endswith(".0") for n in nets), nets


def test_the_command_s_csv_and_json(tmp_path: Path) -> None:
    path = str(DATA / "pokerstars" / "cash_two_hands.txt")
    code, out, err = run("stats", path, "--csv")
    assert code == 0, err
    rows = [line.split(",") for line in out.splitlines()]
    assert rows[0][:5] == ["player", "position", "hands", "net", "net_bb"]
    cat = [r for r in rows if r[0] == "[cat]"]
    assert [r[1] for r in cat] == ["all", "UTG", "BTN"]
    assert cat[0][2:4] == ["2", "0.75"]
    code, out, err = run("stats", path, "--json", "--player", "[cat]", "--player", "[cat]")
    record = json.loads(out)
    assert [p["player"] for p in record["players"]] == ["[cat]"]  # (once, named twice)
    cat_record = record["players"][0]
    assert cat_record["net"] == 0.75 and cat_record["three_bet"] == 1.0
    assert cat_record["counts"]["vpip"] == [2, 2]
    assert cat_record["positions"]["BTN"]["hands"] == 1


def test_bad_input_is_named(tmp_path: Path) -> None:
    good = str(DATA / "phh" / "ok_showdown.phh")
    code, out, err = run("stats", good, str(tmp_path / "nowhere.phh"))
    assert code == 2
    assert "nowhere.phh: no such file or folder" in err
    assert out.startswith("1 hand")  # the others are counted
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"variant = 'NT'\n\0\0\0")
    code, out, err = run("stats", good, str(binary))
    assert code == 2 and "binary.phh" in err and "NUL" in err
    code, out, err = run("stats", good, "--player", "Nobody")
    assert code == 2
    assert "--player 'Nobody': no such player in the 1 hands counted" in err
    assert "'Ann'" in err
    code, out, err = run("stats", good, "--plot", str(tmp_path / "out.gif"))
    assert code == 2
    assert "out.gif" in err and ".png, .svg" in err and not (tmp_path / "out.gif").exists()
    code, out, err = run("stats", good, "--json", "--csv")
    assert code == 2 and "--json or --csv" in err
    # a hand that does not replay is left out, counted and named
    code, out, err = run("stats", good, str(DATA / "phh" / "bad_turn_order.phh"))
    assert code == 0, err
    assert out.startswith("1 hand; 1 left out: they cannot be replayed (holdem validate")
    assert "bad_turn_order.phh:8" in out


def test_without_matplotlib_a_plot_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # (an import of it fails)
    good = str(DATA / "phh" / "ok_showdown.phh")
    for option, name in (("--plot", "out.png"), ("--html", "page.html")):
        code, _, err = run("stats", good, option, str(tmp_path / name))
        assert code == 2
        said = "plots need matplotlib, which is not installed: pip install 'holdem-toolkit[plots]'"
        assert said in err
        assert not (tmp_path / name).exists()


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_winnings_plot_png_and_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = str(simulated_file(tmp_path, hands=300))
    png = tmp_path / "winnings.png"
    code, _, err = run("stats", path, "--plot", str(png))
    assert code == 0, err
    assert png_size(png) == (1000, 4 * 400)  # a panel for each of the 4 players
    assert png.stat().st_size > 20_000
    svg = tmp_path / "one.svg"
    code, _, err = run("stats", path, "--plot", str(svg), "--player", "seat2-easy")
    assert code == 0, err
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and 'width="720pt" height="288pt"' in text


def test_the_plot_draws_the_series_it_was_given(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from holdem.plots import winnings_figure

    points = [(0, 0.0, 0.0, 0.0, 0.0), (10, 5.0, 3.0, 8.0, -3.0), (20, -2.0, 1.0, 0.0, -2.0)]
    figure = winnings_figure([("Ann", points)])
    (ax,) = figure.axes
    lines = {str(line.get_label()): line for line in ax.get_lines()}
    lines = {label: line for label, line in lines.items() if not label.startswith("_")}
    assert sorted(lines) == ["all-in adjusted", "non-showdown", "showdown", "winnings"]
    assert list(lines["winnings"].get_xdata()) == [0, 10, 20]
    assert list(lines["winnings"].get_ydata()) == [0.0, 5.0, -2.0]
    assert list(lines["all-in adjusted"].get_ydata()) == [0.0, 3.0, 1.0]
    assert list(lines["showdown"].get_ydata()) == [0.0, 8.0, 0.0]
    assert list(lines["non-showdown"].get_ydata()) == [0.0, -3.0, -2.0]
    assert ax.get_title(loc="left") == "Ann: 20 hands"


def test_the_html_page_is_whole_and_escapes_names(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    text = phh([*DEAL3, "p3 cbr 6", "p1 f", "p2 cc", "d db 2h8c9d", "p2 cc", "p3 cbr 8", "p2 f"],
               names=["<script>alert(1)</script>", "Bob & Co", "$x$ -->"])  # fmt: skip
    source = tmp_path / "hands.phh"
    source.write_text(text, encoding="utf-8")
    page = tmp_path / "report.html"
    code, _, err = run("stats", str(source), "--html", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<script" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Bob &amp; Co" in html
    assert html.count("<svg") == 1  # the plot, in the page
    # nothing fetched from elsewhere: no link, no source, no address but the SVG's namespaces
    lowered = html.lower()
    assert "<link" not in lowered and "src=" not in lowered and "@import" not in lowered
    assert lowered.count("url(") == lowered.count("url(#")  # (the plot's own clip paths)
    for part in lowered.split("http")[1:]:
        assert part.startswith(("://www.w3.org/2000/svg", "://www.w3.org/1999/xlink")), part[:40]


def test_ctrl_c_stops_the_command(tmp_path: Path) -> None:
    path = tmp_path / "many.phhs"
    hand = phh([*DEAL3, "p3 cbr 6", "p1 f", "p2 cc", "d db 2h8c9d", "p2 cc", "p3 cbr 8", "p2 f"])
    with open(path, "w", encoding="utf-8") as out:
        for number in range(1, 50_001):
            out.write(f"[{number}]\n{hand}\n")
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", "stats", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=with_ctrl_c,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        opened = False
        while time.monotonic() < deadline and not opened:  # (the file open: it is counting)
            with contextlib.suppress(OSError):
                opened = any(
                    os.readlink(f"/proc/{child.pid}/fd/{fd}") == str(path)
                    for fd in os.listdir(f"/proc/{child.pid}/fd")
                )
            time.sleep(0.05)
        assert opened, "the command never opened the file"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 130
    assert err.decode().strip().endswith("holdem stats: interrupted")
    assert b"Traceback" not in err


def docs_figures() -> Any:
    return (ROOT / "docs" / "stats.md").read_text(encoding="utf-8")


def test_docs_define_every_figure() -> None:
    from holdem.report import COLUMNS

    text = docs_figures()
    for _, heading, _ in COLUMNS:
        assert f"**{heading}**" in text, heading


def test_the_module_s_examples() -> None:
    import doctest

    from holdem import report, stats

    for module in (stats, report):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module


def test_a_room_s_export_is_counted(tmp_path: Path) -> None:
    """``holdem serve --export`` then ``holdem stats``: every exported hand
    counted, each player's net the stacks the room recorded."""
    from rooms_helpers import play_out, players

    from holdem.rooms.room import Room
    from holdem.rooms.store import Store

    store = Store(tmp_path / "room.sqlite")
    room = Room(store, seed=3)
    (ann,) = players(room, 1)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=400)  # fmt: skip
    ann.result("add_bots", table=made["table"], level="calling-station", count=2)
    ann.result("start", table=made["table"])
    play_out([ann], random.Random(3), until=lambda: store.hand_count(made["table"]) >= 12)
    store.close()
    out = tmp_path / "hands.phhs"
    code, said, err = run("serve", "--data", str(tmp_path), "--export", str(out))
    assert code == 0, err
    exported = list(read_hands(out))
    assert len(exported) >= 12
    nets: Counter[str] = Counter()
    for hand in exported:
        assert isinstance(hand, HandHistory) and hand.claims.finishing_stacks is not None
        ends = hand.claims.finishing_stacks
        for p, (player, end) in enumerate(zip(hand.players, ends, strict=True)):
            nets[hand.player_name(p)] += (end or 0) - (player.stack or 0)
    code, said, err = run("stats", str(out), "--json")
    assert code == 0, err
    record = json.loads(said)
    assert record["hands"] == len(exported) and record["left_out"] == 0
    assert {p["player"]: p["net"] for p in record["players"]} == nets
    assert {p["player"]: p["hands"] for p in record["players"]}["Ann"] == len(exported)


def test_a_hand_the_counting_fails_on_is_left_out_and_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug of ours met while counting one hand (here the equity of its
    all-in fails) leaves that hand out, named, and counts the others."""
    import holdem.stats as stats_module

    def broken(*args: object) -> list[float]:
        raise RuntimeError("no equity today")

    monkeypatch.setattr(stats_module, "_equities", broken)
    all_in = phh(["d dh p1 QdQh", "d dh p2 AsKs", "p2 cbr 100", "p1 cc", "d db 2c7d8h",
                  "d db 9s", "d db Jc"], stacks=100, players=2)  # fmt: skip
    stats = counted(phh([*DEAL3, "p3 f", "p1 f"]), all_in)
    assert (stats.hands, stats.left_out) == (2, 1)
    (problem,) = stats.problems
    assert problem.code == "internal" and "no equity today" in problem.message
    assert "while counting" in problem.message
    assert stats.players["Bob"].total().hands == 1  # (the walk; the all-in left out whole)
    assert stats.players["Ann"].total().hands == 1
