"""Every hand a table plays can be written as a hand history (PHH and
PokerStars text) with table seats, names, the game's header and level, and
validates (issue 11, item 6)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from holdem import Decision, LegalActions, PlayerView
from holdem.actions import ActionKind
from holdem.histories import (
    DEAL_HOLE,
    HandHistory,
    read_phh_text,
    read_pokerstars_text,
    record,
    validate,
    write_phh,
    write_pokerstars,
)
from holdem.table import CashGame, HandResult, Rake, Table


def mixed(rng: random.Random):  # type: ignore[no-untyped-def]
    def decide(view: PlayerView, legal: LegalActions) -> Decision:
        roll = rng.random()
        if legal.wager is not None and legal.min_to is not None and roll < 0.25:
            return Decision(legal.wager, legal.min_to)
        if legal.check:
            return Decision.check()
        if legal.call is not None and roll < 0.8:
            return Decision.call()
        return Decision.fold()

    return decide


def histories_of(results: list[HandResult], **kw: object) -> list[object]:
    return [
        record(r.played, rake=r.raked, **kw)  # type: ignore[arg-type]
        for r in results
        if r.played is not None
    ]


def written_and_read(histories: list[object]) -> tuple[list[object], list[object]]:
    phh, stars = io.StringIO(), io.StringIO()
    write_phh(histories, phh, many=True)  # type: ignore[arg-type]
    write_pokerstars(histories, stars)  # type: ignore[arg-type]
    return list(read_phh_text(phh.getvalue())), list(read_pokerstars_text(stars.getvalue()))


def test_cash_hands_with_rake_write_and_validate_in_both_formats() -> None:
    rng = random.Random(11)
    game = CashGame(seats=6, small_blind=5, big_blind=10, rake=Rake(5, cap=30), rng=rng,
                    max_hands=40)  # fmt: skip
    results: list[HandResult] = []
    game.table.subscribe(lambda e: None)
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve"]):
        game.join(seat + 1, name, rng.randint(400, 1000))
    decide = mixed(rng)
    while not game.over and game.table.can_deal():
        results.append(game.play_hand(decide))
    assert any(r.rake for r in results)
    histories = histories_of(results, fields={"table": "holdem 1", "seat_count": 6})
    for hand in histories:
        assert validate(hand) == []  # type: ignore[arg-type]
    phh, stars = written_and_read(histories)
    assert len(phh) == len(stars) == len(results)
    for hand in [*phh, *stars]:
        assert validate(hand) == [], hand  # type: ignore[arg-type]
    seats = {p.seat for h in phh for p in h.players}  # type: ignore[attr-defined]
    assert seats <= {2, 3, 4, 5, 6}  # table seats 1..5, counted from 1
    raked = [h for h in stars if h.claims.rake]  # type: ignore[attr-defined]
    assert raked and all(h.claims.rake <= 30 for h in raked)  # type: ignore[attr-defined]


def test_tournament_hands_write_with_their_header_and_validate() -> None:
    rng = random.Random(5)
    table = Table(seats=4, small_blind=10, big_blind=20, ante=2, tournament=True, rng=rng)
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        table.sit(seat, name, 300)
    decide = mixed(rng)
    results = []
    while table.can_deal() and len(results) < 60:
        results.append(table.play_hand(decide))
    histories = histories_of(results, tournament=True, fields={"level": "I"})
    phh, stars = written_and_read(histories)
    text = io.StringIO()
    write_pokerstars(histories[:1], text)  # type: ignore[arg-type]
    assert "Tournament #0, Hold'em No Limit - Level I (10/20)" in text.getvalue()
    for hand in [*phh, *stars]:
        assert validate(hand) == [], hand  # type: ignore[arg-type]
        assert hand.tournament  # type: ignore[attr-defined]


def test_holdem_validate_accepts_the_files_of_a_table(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from holdem.cli.main import main

    rng = random.Random(3)
    game = CashGame(seats=4, small_blind=1, big_blind=2, rake=Rake(5, cap=2), rng=rng,
                    max_hands=30)  # fmt: skip
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        game.join(seat, name, 200)
    decide = mixed(rng)
    results = [game.play_hand(decide) for _ in range(30) if game.table.can_deal()]
    histories = histories_of(results, fields={"table": "holdem 1", "seat_count": 4})
    with open(tmp_path / "table.phhs", "w", encoding="utf-8") as out:
        write_phh(histories, out, many=True)  # type: ignore[arg-type]
    with open(tmp_path / "table.txt", "w", encoding="utf-8") as out:
        write_pokerstars(histories, out)  # type: ignore[arg-type]
    result = CliRunner().invoke(main, ["validate", str(tmp_path), "--strict"])
    assert result.exit_code == 0, result.output
    assert f"2 files: 2 OK; {2 * len(results)} hands" in result.output


def test_a_player_s_own_history_holds_their_hole_cards_and_the_shown_ones_alone() -> None:
    rng = random.Random(3)
    table = Table(seats=4, small_blind=5, big_blind=10, rng=rng)
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        table.sit(seat + 1, name, 500)
    decide = mixed(rng)
    showdowns = 0
    for _ in range(12):
        hand = table.play_hand(decide).played
        shown = {a.seat for a in hand.log if a.kind is ActionKind.SHOW}
        showdowns += bool(shown)
        for hero in (1, 2, 3, None):  # (table seats; None: a watcher's)
            out = io.StringIO()
            write_phh([record(hand, show_all=False, hero=hero)], out, many=False)
            (read,) = read_phh_text(out.getvalue())
            assert isinstance(read, HandHistory) and validate(read) == []
            dealt = [m for m in read.moves if m.kind == DEAL_HOLE and None not in m.cards]
            known = {read.players[m.actor].seat for m in dealt if m.actor is not None}
            assert {s - 1 for s in known if s is not None} == ({hero} | shown) - {None}
    assert showdowns
