"""What a room server keeps survives what can happen to it (issue 28): a
crash in a hand keeps every seat's buy-ins and cash-outs; the files that
hold join codes, tokens and hole cards are the user's alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rooms_helpers import players

from holdem.rooms import Room, Store


def _results_after_restart(path: Path, code: str, seed: int) -> dict[str, Any]:
    """The results a watcher of a room made again on the file is told."""
    again = Room(Store(path), seed=seed)  # (the room before it dropped: killed in the hand)
    (watcher,) = players(again, 1)
    results: dict[str, Any] = watcher.result("watch", code=code)["results"]
    return results


def test_a_player_who_joined_and_left_in_the_hand_a_crash_cut_stays_in_the_results(
    tmp_path: Path,
) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=1)
    ann, ben, cat = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=100)  # fmt: skip
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")  # (Ann and the bot are dealt in; seat 2 is free)
    ben.result("join", code=made["code"], name="Ben", buy_in=150, seat=2)  # (not in the hand)
    assert ben.result("add_chips", table="t1", chips=30)["now"]
    assert ben.result("leave", table="t1")["left"]  # (at once: he was not dealt in)
    # the seat taken again in the same hand, by Cat: Ben's row is not hers
    cat.result("join", code=made["code"], name="Cat", buy_in=60, seat=2)
    told = ann.result("state", table="t1")["results"]
    assert told["Ben"] == {"bought_in": 180, "cashed_out": 180, "net": 0, "hands": 0}
    for seed in (2, 3):  # (twice: what the first restart stored holds it too)
        results = _results_after_restart(path, made["code"], seed)
        assert results["Ben"] == told["Ben"]  # (the hand was cut: none of it happened)
        assert results["Cat"]["bought_in"] == 60
        assert sum(r["net"] for r in results.values()) == 0
    assert Store(path).seats_left("t1") == []  # (the snapshot after the restart holds them)


def test_chips_added_in_the_cut_hand_by_players_who_left_in_it_stay_in_the_results(
    tmp_path: Path,
) -> None:
    # Ben, at the snapshot's table, sits out the hand being played (two
    # timeouts); Ann plays it (with a bot and Cat): both add chips and leave
    # during it
    path = tmp_path / "room.sqlite"
    now = [0.0]
    room = Room(Store(path), seed=1, clock=lambda: now[0])
    ann, ben, cat = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=100,
                      timer={"seconds": 5, "time_bank": 0})  # fmt: skip
    ben.result("join", code=made["code"], name="Ben", buy_in=300, seat=2)
    cat.result("join", code=made["code"], name="Cat", buy_in=200, seat=3)
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    by = {0: ann, 3: cat}
    while not (served.table.seats[2].status == "sitting_out" and served.table.hand is not None
               and 2 not in served.table.hand.config.seats):  # fmt: skip
        hand = served.table.hand
        assert hand is not None and hand.actor is not None
        if hand.actor in by:
            legal = hand.legal_actions()
            assert legal is not None
            by[hand.actor].result("act", table="t1",
                                  action={"kind": "check" if legal.check else "call"})  # fmt: skip
        else:
            now[0] += 6  # (Ben times out)
            room.tick()
    hand = served.table.hand
    assert hand is not None and 0 in hand.config.seats
    began = dict(zip(hand.config.names or (), hand.config.stacks, strict=True))
    ben_had = served.table.seats[2].chips
    assert ben.result("add_chips", table="t1", chips=50)["now"]  # (not in the hand: at once)
    assert ben.result("leave", table="t1")["left"]
    assert ann.result("add_chips", table="t1", chips=20)["now"] is False  # (after the hand)
    assert ann.result("leave", table="t1")["left"] is False
    assert served.table.hand is hand  # (the bot and Cat play on: the hand is cut)
    results = _results_after_restart(path, made["code"], 2)
    assert results["Ben"]["bought_in"] == 300 + 50
    assert results["Ben"]["cashed_out"] == ben_had + 50
    assert results["Ann"]["bought_in"] == 100 + 20
    assert results["Ann"]["cashed_out"] == began["Ann"] + 20  # (the hand cut: she had that)
    assert sum(r["net"] for r in results.values()) == 0
