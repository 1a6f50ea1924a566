"""The JSON text of a program's turn (holdem.protocol.texts): written in C for
speed, it must be exactly the text of the view's wire form, for any view of
any hand (any seat, the spectator, every delta), and each record's too."""

from __future__ import annotations

import json
import random

import pytest
from conftest import hand_configs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem import Decision, Hand, HandConfig, LegalActions
from holdem.cards import format_card
from holdem.errors import WireError
from holdem.protocol import texts
from holdem.protocol.messages import encode
from holdem.protocol.texts import records_text, view_text
from holdem.views import PlayerView


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_configs(max_players=9, max_stack=300, extras=True), st.integers(0, 2**32 - 1))
def test_a_view_s_text_is_its_wire_form(config: HandConfig, seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand(config, rng=seed)
    views = []
    seats = config.seats or range(config.players)
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.sample(rng))
        views += [hand.view(seat) for seat in (legal.seat, None, rng.choice(seats))]
    views.append(hand.view(None))  # the outcome and the shown hands, once over
    for view in views:
        for since in {0, 1, view.log_length // 2, view.log_length}:
            since = min(since, view.log_length)
            text = view_text(view, since)
            assert text.isascii()
            assert text == encode(view.to_dict(since))  # (the same keys, order, spacing)
            assert json.loads(text) == view.to_dict(since)
    for record in hand.log:
        assert records_text((record,)) == f"[{encode(record.to_dict())}]"


def test_the_configurations_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(texts, "MOST_KEPT", 3)
    for stack in range(100, 110):
        hand = Hand(HandConfig((stack,) * 6, 0, 1, 2), rng=3)
        view = hand.view(hand.actor)
        assert json.loads(view_text(view)) == view.to_dict()
        assert len(texts._CONFIGS) <= 3
        hand.act(Decision.call())
        assert view_text(hand.view(0)) == encode(hand.view(0).to_dict())


def test_the_c_writer_refuses_what_is_no_view_or_record() -> None:
    from holdem import _engine

    hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
    view = hand.view(0)
    with pytest.raises(ValueError, match=r"log index 9 is outside 0\.\.\d"):
        view_text(view, 9)
    with pytest.raises(TypeError):
        _engine.view_json(view.to_dict(), 0, "{}")
    with pytest.raises(TypeError):
        _engine.record_json(("call", 1))


def test_a_delta_leaves_the_configuration_out_and_its_reader_puts_it_back() -> None:
    hand = Hand(HandConfig((100, 100, 100), 0, 1, 2), rng=5)
    first = hand.view(0)
    hand.call()
    later = hand.view(0)
    delta = later.to_dict(since=first.log_length)
    assert "config" not in delta and "config" in later.to_dict()
    assert PlayerView.from_dict(delta, previous=first) == later
    # a hand's first view must carry it
    whole = later.to_dict()
    del whole["config"]
    with pytest.raises(WireError, match=r"view\.config: missing"):
        PlayerView.from_dict(whole)


def test_a_menu_read_before_is_not_taken_for_one_of_other_types() -> None:
    legal = LegalActions(seat=1, fold=True, check=True, bet=0)
    data = legal.to_dict()
    assert LegalActions.from_dict(dict(data)) == legal  # read, and kept
    assert LegalActions.from_dict(dict(data)) == legal  # kept
    with pytest.raises(WireError, match=r"legal\.fold: expected true or false"):
        LegalActions.from_dict(dict(data, fold=1))  # 1 == True, but not on the wire


def test_a_message_s_text_is_its_plain_form_s_json() -> None:
    from holdem.protocol.messages import encode
    from holdem.protocol.texts import message_text, plain

    hand = Hand(HandConfig((100, 100, 100), 0, 1, 2, names=("Ann", "Bé", "Cy")), rng=2)
    view = hand.view(hand.actor)
    record = hand.log[-1]
    messages = [
        {"event": "action", "hand": 4, "action": record, "table": "t1"},
        {"event": "action", "hand": 4, "action": record, "table": "t1", "full_information": True},
        {"event": "turn", "hand": 4, "seat": view.seat, "view": view, "table": "t2"},
        {
            "event": "turn",
            "hand": 4,
            "seat": view.seat,
            "view": view,
            "table": "t2",
            "seconds": 12.5,
        },
        {"event": "hand_ended", "hand": 4, "table": "t\u00e9"},
    ]
    for message in messages:
        text = message_text(message)
        assert text.isascii()
        assert json.loads(text) == json.loads(encode(plain(message)))


def test_a_table_s_own_lines_of_records_and_turns_are_their_messages() -> None:
    """The lines a served table writes itself (every record, every player's
    cards, every turn) say what its message says, whatever the table's id."""
    from json.encoder import encode_basestring_ascii

    from holdem.protocol.messages import encode
    from holdem.protocol.texts import action_line, hole_cards_line, plain, turn_line

    hand = Hand(HandConfig((100, 100, 100), 0, 1, 2), rng=4)
    for table in ("t1", 't\u00e9"x'):
        quoted = encode_basestring_ascii(table)
        for record in hand.log:
            line = action_line(7, record, quoted)
            message = {"event": "action", "hand": 7, "action": record, "table": table}
            assert line.isascii() and json.loads(line) == json.loads(encode(plain(message)))
        for seat in range(3):
            cards = hand.hole_cards(seat)
            assert cards is not None
            line = hole_cards_line(7, seat, cards, quoted)
            names = [format_card(c) for c in cards]
            message = {"event": "hole_cards", "hand": 7, "seat": seat, "cards": names,
                       "table": table}  # fmt: skip
            assert line.isascii() and line == encode(message)
        view = hand.view(hand.actor)
        for seconds in (None, 3.25):
            line = turn_line(7, view.seat, view, quoted, seconds)
            message = {"event": "turn", "hand": 7, "seat": view.seat, "view": view, "table": table}
            if seconds is not None:
                message["seconds"] = seconds
            assert line.isascii() and json.loads(line) == json.loads(encode(plain(message)))


def test_a_table_event_s_line_is_the_encoder_s_text_of_its_message() -> None:
    """The line of each kind of table event, as the served table writes it
    (a writer a type, made from its fields), is the encoder's own text of the
    event's wire form with the table's id: over random games that meet every
    kind (busts, rebuys, sit-outs, timeouts, levels, eliminations)."""
    from json.encoder import encode_basestring_ascii

    from test_table_snapshot import KINDS, new_game, play_on, table_of

    from holdem.protocol.messages import encode
    from holdem.protocol.texts import event_line

    seen: set[str] = set()
    for seed in range(12):
        game, clock = new_game(KINDS[seed % len(KINDS)], 2 + seed % 8, seed * 7919)
        ident = ["t1", 't\u00e9"9'][seed % 2]
        quoted = encode_basestring_ascii(ident)

        def check(event: object, ident: str = ident, quoted: str = quoted) -> None:
            wire = {**event.to_dict(), "table": ident}  # type: ignore[attr-defined]
            assert event_line(event, quoted) == encode(wire)  # type: ignore[arg-type]
            seen.add(wire["event"])

        table_of(game).subscribe(check)
        play_on(game, clock, seed, 25)
    assert seen >= {"seat_taken", "seat_freed", "sat_out", "chips_added", "hand_started",
                    "action", "hand_ended", "level_up", "player_eliminated"}, seen  # fmt: skip
