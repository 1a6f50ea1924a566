"""A player's decision, the menu of legal actions, and their wire forms (issue 9, items 1-3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import hand_configs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem import Decision, Hand, HandConfig, LegalActions
from holdem.actions import PLAYER_KINDS, ActionKind, Choice
from holdem.errors import IllegalActionError, WireError


def candidates(legal: LegalActions, hand: Hand) -> list[Decision]:
    """Decisions around every edge of the menu, legal or not."""
    amounts = {0, 1, hand.current_bet, hand.current_bet + 1}
    for value in (legal.call, legal.min_to, legal.max_to, legal.all_in):
        if value is not None:
            amounts.update({value - 1, value, value + 1})
    amounts.discard(-1)
    wagers = (ActionKind.BET, ActionKind.RAISE)
    out = [Decision(kind) for kind in PLAYER_KINDS if kind not in wagers]
    out += [Decision(kind, to) for kind in wagers for to in amounts]
    out += [Decision(ActionKind.CALL, 5), Decision.timeout()]
    return out


def applies(hand: Hand, decision: Decision) -> bool:
    """Whether the engine takes the decision (tried and undone)."""
    try:
        hand.push(decision)
    except IllegalActionError:
        return False
    hand.pop()
    return True


configs = hand_configs(extras=True)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, st.integers(0, 2**32 - 1))
def test_membership_is_exactly_what_the_engine_accepts(config: HandConfig, seed: int) -> None:
    """At every decision of randomly played hands, ``decision in legal`` holds for
    exactly the decisions the engine applies (the timeout: never on the menu)."""
    rng = random.Random(seed)
    hand = Hand(config, rng=seed)
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        for decision in candidates(legal, hand):
            if decision.kind is ActionKind.TIMEOUT:
                assert decision not in legal and applies(hand, decision)
                continue
            assert (decision in legal) == applies(hand, decision), (decision, legal)
        decision = legal.sample(rng)
        assert decision in legal
        hand.act(decision)


def test_sample_draws_each_choice_alike_and_amounts_uniformly() -> None:
    legal = LegalActions(
        seat=2,
        fold=True,
        call=30,
        wager=ActionKind.RAISE,
        min_to=130,
        max_to=133,
        all_in=900,
        bet=30,
    )
    legal = legal._replace(max_to=133, all_in=None)
    assert legal.choices == (
        Choice(ActionKind.FOLD), Choice(ActionKind.CALL), Choice(ActionKind.RAISE, 130, 133),
    )  # fmt: skip
    rng = random.Random(5)
    draws = [legal.sample(rng) for _ in range(12_000)]
    kinds = Counter(d.kind for d in draws)
    assert set(kinds) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    # chi-square, 2 degrees of freedom: p = 0.001 above 13.8 (fixed seed)
    assert sum((c - 4000) ** 2 / 4000 for c in kinds.values()) < 13.8
    amounts = Counter(d.to for d in draws if d.kind is ActionKind.RAISE)
    assert set(amounts) == {130, 131, 132, 133}
    n = sum(amounts.values())
    assert sum((c - n / 4) ** 2 / (n / 4) for c in amounts.values()) < 16.3  # 3 df, p = 0.001


def test_all_in_for_less_is_in_the_menu_as_all_in_and_as_its_raise() -> None:
    hand = Hand(
        HandConfig(stacks=(1000, 130, 1000), button=0, small_blind=50, big_blind=100), rng=1
    )
    _ = hand.call(), hand.call(), hand.check()
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.all_in == 30 and legal.wager is None
    assert Decision.all_in() in legal and Decision.bet(30) in legal
    assert Decision.bet(29) not in legal and Decision.raise_to(30) not in legal
    assert str(legal) == "seat 1: fold, check, all-in to 30"


def test_timeout_is_a_referee_step_not_a_choice() -> None:
    hand = Hand(HandConfig(stacks=(100, 100, 100), button=0, small_blind=1, big_blind=2), rng=3)
    legal = hand.legal_actions()
    assert legal is not None and ActionKind.TIMEOUT not in legal.kinds
    assert Decision.timeout() not in legal
    record = hand.act(Decision.timeout())  # the table applies it for the player
    assert record.kind is ActionKind.TIMEOUT and hand.statuses[0] == "protected"


def test_act_takes_a_decision_or_its_parts_and_old_spellings() -> None:
    config = HandConfig(stacks=(100, 100, 100), button=0, small_blind=1, big_blind=2)
    a, b = Hand(config, rng=4), Hand(config, rng=4)
    assert a.act(Decision.raise_to(6)) == b.act("raise", 6, seat=0)
    assert a.act(Decision.all_in()) == b.act("all-in")
    with pytest.raises(IllegalActionError, match="unknown action 'dance'"):
        a.act("dance")


decisions = st.one_of(
    st.sampled_from(
        [Decision(k) for k in PLAYER_KINDS if k not in (ActionKind.BET, ActionKind.RAISE)]
    ),
    st.builds(
        lambda kind, to: Decision(kind, to),
        st.sampled_from([ActionKind.BET, ActionKind.RAISE]),
        st.integers(0, 10**12),
    ),
    st.builds(
        lambda cards: Decision.show(tuple(cards)),
        st.lists(st.integers(0, 51), min_size=2, max_size=2, unique=True),
    ),
)


@given(decisions)
def test_decision_wire_form_round_trips(decision: Decision) -> None:
    data = decision.to_dict()
    assert Decision.from_dict(data) == decision
    assert all(isinstance(c, str) and len(c) == 2 for c in data.get("cards", []))


@settings(max_examples=60, deadline=None)
@given(configs, st.integers(0, 2**32 - 1))
def test_legal_actions_wire_form_round_trips(config: HandConfig, seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand(config, rng=seed)
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        assert LegalActions.from_dict(legal.to_dict()) == legal
        hand.act(legal.sample(rng))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "raise"}, "decision.to: a bet or raise needs its to-amount"),
        ({"kind": "raise", "to": "6"}, "decision.to: expected an integer, not a string"),
        ({"kind": "fold", "to": 6}, "decision.to: only a bet or raise"),
        ({"kind": "deal_hole"}, "decision.kind: 'deal_hole' is a dealer step, not a decision"),
        ({"kind": "call", "seat": 1}, "decision.seat: unknown field"),
        ({"kind": "show", "cards": ["As", "Xx"]}, "decision.cards[1]: "),
        ({"kind": "show", "cards": ["As", "As"]}, "decision.cards[1]: As is there twice"),
        ("fold", "decision: expected an object, not a string"),
    ],
)
def test_decision_wire_errors_name_the_field(data: object, message: str) -> None:
    with pytest.raises(WireError) as caught:
        Decision.from_dict(data)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)
