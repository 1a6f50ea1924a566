"""Sampling full hands consistent with a player's view (issue 9, item 6)."""

from __future__ import annotations

import random
from collections import Counter

from conftest import hand_configs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem import Hand, HandConfig
from holdem.cards import parse_cards
from holdem.sampling import sample_hand, seen_cards


def flop_spot() -> Hand:
    """Three players on a flop; seat 1 is the viewer."""
    config = HandConfig(stacks=(200, 200, 200), button=0, small_blind=1, big_blind=2)
    hand = Hand(config, hole_cards=["7c2d", "AsKs", "QhQd"], board="Ts9s2c4h5h")
    hand.raise_to(6)
    hand.call()
    hand.call()
    return hand


def test_sampled_cards_are_uniform_over_the_unseen_cards() -> None:
    """Each of the four hidden hole cards is uniform over the 47 unseen cards
    (chi-square), never a seen one, and the real hidden cards are no input."""
    view = flop_spot().view(1)
    seen = seen_cards(view)
    assert seen == set(parse_cards("AsKs Ts9s2c"))
    unseen = [c for c in range(52) if c not in seen]
    rng = random.Random(17)
    samples = 47 * 120
    counts: list[Counter[int]] = [Counter() for _ in range(4)]  # seat 0's cards, seat 2's
    for _ in range(samples):
        guess = sample_hand(view, rng)
        cards = [*guess.hole_cards(0), *guess.hole_cards(2)]  # type: ignore[misc]
        assert not seen.intersection(cards) and len(set(cards)) == 4
        for i, card in enumerate(cards):
            counts[i][card] += 1
    expected = samples / len(unseen)
    for count in counts:
        assert set(count) <= set(unseen)
        chi2 = sum((count[c] - expected) ** 2 / expected for c in unseen)
        assert chi2 < 80.1, chi2  # 46 degrees of freedom: p = 0.001 above 80.1 (fixed seed)
    # the real hidden cards (7c 2d, Qh Qd) come up no more often than any other card
    for card in parse_cards("7c2dQhQd"):
        assert all(count[card] < 1.5 * expected for count in counts)


def test_the_sample_deals_the_board_to_come_from_the_unseen_cards() -> None:
    view = flop_spot().view(1)
    turns = set()
    for seed in range(60):
        guess = sample_hand(view, seed)
        assert guess.board == view.board  # nothing more dealt yet
        while guess.street == view.street:
            guess.check_or_call()
        turns.add(guess.board[3])
    assert len(turns) > 20 and not turns & seen_cards(view)


configs = hand_configs(max_stack=80, extras=True)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, st.integers(0, 2**32 - 1))
def test_a_sample_agrees_with_everything_the_viewer_knows(config: HandConfig, seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand(config, rng=seed)
    while not hand.done:
        actor = hand.actor
        assert actor is not None
        for seat in (actor, rng.choice(config.seat_numbers)):
            view = hand.view(seat)
            guess = sample_hand(view, rng)
            again = guess.view(seat)
            assert again.hole_cards == view.hole_cards and again.board == view.board
            assert again.log == view.log and again.stacks == view.stacks
            assert again.bets == view.bets and again.statuses == view.statuses
            assert again.legal == view.legal and again.actor == view.actor
            others = [guess.hole_cards(q) for q in config.seat_numbers if q != seat]
            hidden = {c for cards in others if cards for c in cards}
            assert len(hidden) == 2 * len(others) and not hidden & seen_cards(view)
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.sample(rng))
