"""Wire forms: to_dict / from_dict round-trip exactly, and every generated object
validates against the JSON Schema shipped in the package (issue 9, item 3)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import hand_configs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem import Decision, Hand, HandConfig, LegalActions
from holdem.actions import (
    PLAYER_KINDS,
    REFEREE_KINDS,
    STATUS_NAMES,
    Action,
    ActionKind,
    Phase,
    Street,
)
from holdem.config import RULE_VARIANTS, HeadsUpCap, Structure
from holdem.errors import ConfigError, WireError
from holdem.pots import Outcome
from holdem.views import PlayerView
from holdem.wire import schema

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = schema()


def check(shape: str, data: Any) -> None:
    """Validates ``data`` against ``$defs/<shape>``, after a trip through JSON text."""
    data = json.loads(json.dumps(data))
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{shape}", "$defs": SCHEMA["$defs"]},
        format_checker=jsonschema.FormatChecker(),
    )
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, f"{shape}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_the_schema_is_a_valid_schema_and_names_every_token() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    defs = SCHEMA["$defs"]
    assert defs["action_kind"]["enum"] == [k.value for k in ActionKind]
    assert defs["decision_kind"]["enum"] == [k.value for k in PLAYER_KINDS + REFEREE_KINDS]
    assert defs["street"]["enum"] == [s.label for s in Street]
    assert defs["structure"]["enum"] == [s.value for s in Structure]
    assert defs["heads_up_cap"]["enum"] == [c.value for c in HeadsUpCap]
    assert defs["phase"]["enum"] == [p.value for p in Phase]
    assert defs["status"]["enum"] == list(STATUS_NAMES)
    assert defs["rule_variant"]["enum"] == list(RULE_VARIANTS)
    tokens = [k.value for k in ActionKind] + [s.value for s in Structure]
    assert all(t.isidentifier() and t == t.lower() for t in tokens)  # snake_case


configs = hand_configs(max_players=9, max_stack=300, extras=True)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, st.integers(0, 2**32 - 1))
def test_every_value_of_a_played_hand_round_trips_and_fits_the_schema(
    config: HandConfig, seed: int
) -> None:
    check("HandConfig", config.to_dict())
    assert HandConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    rng = random.Random(seed)
    hand = Hand(config, rng=seed)
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        check("LegalActions", legal.to_dict())
        assert LegalActions.from_dict(legal.to_dict()) == legal
        decision = legal.sample(rng)
        check("Decision", decision.to_dict())
        assert Decision.from_dict(decision.to_dict()) == decision
        hand.act(decision)
        for seat in (legal.seat, None):  # the actor's view and a spectator's, whole and as deltas
            view = hand.view(seat)
            check("PlayerView", view.to_dict())
            assert PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))) == view
            delta = view.to_dict(since=view.log_length // 2)
            check("PlayerView", delta)
            assert PlayerView.from_dict(delta, previous=view) == view
    for record in hand.log:
        check("Action", record.to_dict())
        assert Action.from_dict(json.loads(json.dumps(record.to_dict()))) == record
    outcome = hand.outcome
    assert outcome is not None
    check("Outcome", outcome.to_dict())
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome


def test_cards_travel_as_lists_of_two_character_strings() -> None:
    config = HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2)
    hand = Hand(config, hole_cards=["AsKs", "7c2d"], board="QsJsTs2h3h")
    while not hand.done:
        hand.check_or_call()
    board = next(a for a in hand.log if a.kind is ActionKind.DEAL_BOARD).to_dict()
    assert board["cards"] == ["Qs", "Js", "Ts"]
    outcome = hand.outcome
    assert outcome is not None and outcome.to_dict()["shown"][0]["cards"] in (
        ["As", "Ks"],
        ["7c", "2d"],
    )


@pytest.mark.parametrize(
    ("shape", "read", "data", "message"),
    [
        ("HandConfig", HandConfig.from_dict, {"stacks": [100], "button": 0, "small_blind": 1,
         "big_blind": 2}, "invalid stacks"),
        ("HandConfig", HandConfig.from_dict, {"stacks": [100, "x"], "button": 0,
         "small_blind": 1, "big_blind": 2}, "config.stacks[1]: expected an integer"),
        ("HandConfig", HandConfig.from_dict, {"stacks": [100, 100], "button": 0,
         "small_blind": 1, "big_blind": 2, "structure": "no-limit"},
         "config.structure: 'no-limit' is not one of"),
        ("HandConfig", HandConfig.from_dict, {"stacks": [100, 100], "button": 0,
         "small_blind": 1, "big_blind": 2, "posts": [{"seat": 1}]},
         "config.posts[0].amount: missing"),
        ("Action", Action.from_dict, {"kind": "call", "street": "turnn"},
         "action.street: 'turnn' is not one of preflop, flop, turn, river"),
        ("Action", Action.from_dict, {"kind": "call", "street": "flop", "seat": -1},
         "action.seat: -1 is below 0"),
        ("LegalActions", LegalActions.from_dict, {"seat": 0}, "legal.fold: missing"),
        ("Outcome", Outcome.from_dict, {"pots": [{"amount": 3}]}, "outcome.pots[0].eligible"),
    ],
)  # fmt: skip
def test_a_bad_wire_object_is_refused_by_the_reader_and_the_schema(
    shape: str, read: Any, data: dict[str, Any], message: str
) -> None:
    with pytest.raises((WireError, ConfigError)) as caught:
        read(data)
    assert message in str(caught.value)
    if isinstance(caught.value, WireError):  # the schema refuses it too
        with pytest.raises(AssertionError):
            check(shape, data)


def test_a_view_delta_needs_the_view_it_continues() -> None:
    config = HandConfig(stacks=(100, 100, 100), button=0, small_blind=1, big_blind=2)
    hand = Hand(config, rng=5)
    first = hand.view(1)
    hand.call()
    later = hand.view(1)
    delta = later.to_dict(since=first.log_length)
    assert [r["kind"] for r in delta["log"]] == ["call"]
    assert PlayerView.from_dict(delta, previous=first) == later
    with pytest.raises(WireError, match=r"view\.log_start: a delta from record \d+, but no view"):
        PlayerView.from_dict(delta)
    tampered = dict(delta, pot=delta["pot"] + 1)
    with pytest.raises(WireError, match=r"view\.pot: the contributions add up to"):
        PlayerView.from_dict(tampered, previous=first)
