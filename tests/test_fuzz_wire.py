"""Fuzz targets for the wire readers (``from_dict`` of every value a program sends):
any JSON in, only ``WireError`` or ``ConfigError`` out, short messages, and what
is read writes back to an equal value.

A short run in the default suite; ``-m fuzz`` (or ``HOLDEM_FUZZ_SECONDS``) runs
each for long, as the other fuzz targets (see ``test_fuzz_cards.py``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_cards import expect, run_fuzz

from holdem import Decision, Hand, HandConfig, LegalActions
from holdem.actions import Action
from holdem.errors import ConfigError, WireError
from holdem.pots import Outcome
from holdem.views import PlayerView

pytestmark = pytest.mark.fuzz

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["As", "Kd", "Xx", "fold", "raise", "bet", "call", "no_limit", "flop", ""]),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=10), inner, max_size=6)
    ),
    max_leaves=30,
)


def _samples() -> dict[str, list[dict[str, Any]]]:
    """Valid wire objects of every kind, from a few played hands."""
    out: dict[str, list[dict[str, Any]]] = {"config": [], "decision": [], "legal": [], "action": []}
    out["outcome"] = []
    out["view"] = []
    rng = random.Random(3)
    for seed in range(6):
        config = HandConfig(
            stacks=tuple(rng.randint(1, 40) for _ in range(3 + seed % 4)),
            button=0,
            small_blind=1,
            big_blind=2,
            ante=seed % 2,
        )
        out["config"].append(config.to_dict())
        hand = Hand(config, rng=seed)
        while not hand.done:
            legal = hand.legal_actions()
            assert legal is not None
            out["legal"].append(legal.to_dict())
            out["view"].append(hand.view(legal.seat).to_dict())
            decision = legal.sample(rng)
            out["decision"].append(decision.to_dict())
            hand.act(decision)
        out["action"] += [a.to_dict() for a in hand.log]
        assert hand.outcome is not None
        out["outcome"].append(hand.outcome.to_dict())
    return out


SAMPLES = _samples()
READERS: dict[str, Any] = {
    "config": HandConfig.from_dict,
    "decision": Decision.from_dict,
    "legal": LegalActions.from_dict,
    "action": Action.from_dict,
    "outcome": Outcome.from_dict,
    "view": PlayerView.from_dict,
}


def mutated(kind: str) -> st.SearchStrategy[Any]:
    """A valid object of ``kind`` with fields dropped, replaced or added."""

    def mutate(data: dict[str, Any], edits: list[tuple[int, Any, str]]) -> Any:
        data = json.loads(json.dumps(data))
        keys = list(data)
        for what, value, name in edits:
            if not keys:
                break
            key = keys[what % len(keys)]
            if what % 3 == 0:
                data.pop(key, None)
            elif what % 3 == 1:
                data[key] = value
            else:
                data[name] = value
        return data

    return st.builds(
        mutate,
        st.sampled_from(SAMPLES[kind]),
        st.lists(st.tuples(st.integers(0, 60), json_values, st.text(max_size=8)), max_size=3),
    )


def check_reader(kind: str, data: Any) -> None:
    read = READERS[kind]
    value = expect(lambda: read(data), WireError, ConfigError)
    if value is not None:  # read: it writes back to the same value
        assert read(json.loads(json.dumps(value.to_dict()))) == value


@pytest.mark.parametrize("kind", sorted(READERS))
def test_fuzz_wire_readers(pytestconfig: pytest.Config, kind: str) -> None:
    @given(st.one_of(json_values, mutated(kind)))
    def check(data: Any) -> None:
        check_reader(kind, data)

    run_fuzz(pytestconfig, check, examples=150)


@pytest.mark.parametrize("status", [["folded"], {"a": 1}, 3, None])
def test_a_view_whose_status_is_not_a_name_is_a_wire_error(status: Any) -> None:
    """A status that is a list or an object was looked up as a name (TypeError:
    unhashable), found by the fuzzer."""
    hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2))
    data = hand.view(hand.actor).to_dict()
    data["statuses"] = [status, data["statuses"][1]]
    with pytest.raises(WireError, match="statuses"):
        PlayerView.from_dict(data)
