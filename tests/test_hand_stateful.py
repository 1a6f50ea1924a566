"""Random configurations, random legal actions: invariants after every step.

Chips are conserved (R9), no stack goes negative, the pots equal the
contributions, exactly one player is to act until the hand ends, ``pop()``
restores the previous state exactly, and no view leaks what its player may
not know (R14).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from holdem.actions import ActionKind, LegalActions
from holdem.cards import format_card
from holdem.config import HandConfig, HeadsUpCap, Post, Structure
from holdem.hand import Hand, Phase
from holdem.pots import build_pots


@st.composite
def configs(draw: st.DrawFn) -> HandConfig:
    """Any valid hand configuration: 2-10 players, one chip to deep stacks, every structure."""
    n = draw(st.integers(2, 10))
    structure = draw(st.sampled_from(Structure))
    bb = draw(st.sampled_from([1, 2, 10, 100]))
    sb = draw(st.integers(0, bb))
    top = draw(st.sampled_from([3 * bb, 20 * bb, 300 * bb]))
    stacks = tuple(draw(st.lists(st.integers(1, top), min_size=n, max_size=n)))
    button = draw(st.integers(0, n - 1))
    ante = draw(st.sampled_from([0, 0, 1, max(1, bb // 2), bb]))
    bb_ante = bool(ante) and draw(st.booleans())
    straddle = 0
    if n >= 3 and structure is not Structure.FIXED_LIMIT and draw(st.integers(0, 4)) == 0:
        straddle = 2 * bb
    missing_sb = draw(st.integers(0, 5)) == 0
    posts: list[Post] = []
    probe = HandConfig(stacks, button, sb, bb, structure, straddle=straddle,
                       missing_small_blind=missing_sb)  # fmt: skip
    blinds = {probe.small_blind_seat, probe.big_blind_seat, probe.straddle_seat}
    free = [s for s in range(n) if s not in blinds]
    if free and draw(st.integers(0, 3)) == 0:
        seat = draw(st.sampled_from(free))
        posts.append(Post(seat, bb))
        if sb and draw(st.booleans()):
            posts.append(Post(seat, sb, dead=True))
    return HandConfig(
        stacks=stacks,
        button=button,
        small_blind=sb,
        big_blind=bb,
        structure=structure,
        ante=ante,
        big_blind_ante=bb_ante,
        straddle=straddle,
        missing_small_blind=missing_sb,
        dead_button=draw(st.booleans()),
        posts=tuple(posts),
        raise_cap=draw(st.sampled_from([3, 4])),
        heads_up_cap=draw(st.sampled_from(HeadsUpCap)),
    )


def choose(legal: LegalActions, rnd: random.Random) -> tuple[ActionKind, int | None]:
    """A random legal decision (biased toward calls so hands go on)."""
    options: list[tuple[ActionKind, int | None]] = []
    if legal.show:
        options.append((ActionKind.SHOW, None))
    if legal.muck:
        options.append((ActionKind.MUCK, None))
    if legal.show or legal.muck:
        return rnd.choice(options)
    if legal.check:
        options += [(ActionKind.CHECK, None)] * 3
    if legal.call is not None:
        options += [(ActionKind.CALL, None)] * 3
    if legal.wager is not None:
        assert legal.min_to is not None and legal.max_to is not None
        for to in {legal.min_to, legal.max_to, rnd.randint(legal.min_to, legal.max_to)}:
            options.append((legal.wager, to))
    if legal.all_in is not None:
        options.append((ActionKind.ALL_IN, None))
    options.append((ActionKind.FOLD, None))
    if rnd.random() < 0.05:
        options.append((ActionKind.TIMEOUT, None))
    return rnd.choice(options)


def state_of(hand: Hand) -> tuple[Any, ...]:
    """Everything observable about a hand, for exact comparisons."""
    n = hand.config.players
    return (
        hand._snapshot(),
        hand.log,
        hand.board,
        hand.burns,
        hand.stacks,
        hand.bets,
        hand.contributions,
        hand.statuses,
        hand.phase,
        hand.street,
        hand.actor,
        hand.legal_actions(),
        hand.outcome,
        tuple(hand.hole_cards(s) for s in range(n)),
        tuple(hand.view(s) for s in range(n)),
    )


def check_invariants(hand: Hand) -> None:
    cfg = hand.config
    n = cfg.players
    stacks = hand.stacks
    assert min(stacks) >= 0
    assert sum(stacks) + hand.pot == sum(cfg.stacks)  # chip conservation (R9)
    contributions = hand.contributions
    in_hand = [hand.in_hand(s) for s in range(n)]
    all_in = [status in ("all_in", "protected") for status in hand.statuses]
    assert sum(a for a, _ in build_pots(contributions, in_hand, all_in)) == sum(contributions)
    assert all(b <= c for b, c in zip(hand.bets, contributions, strict=True))
    actor = hand.actor
    legal = hand.legal_actions()
    if hand.phase is Phase.BETTING:
        assert actor is not None and hand.statuses[actor] == "active"
        assert legal is not None and legal.seat == actor and legal.fold
        assert legal.check != (legal.call is not None)
        if legal.wager is not None:
            assert legal.min_to is not None and legal.max_to is not None
            assert (
                hand.current_bet < legal.min_to <= legal.max_to <= stacks[actor] + hand.bets[actor]
            )
        if cfg.structure is Structure.FIXED_LIMIT and legal.wager is not None:
            assert legal.min_to == legal.max_to
    elif hand.phase is Phase.SHOWDOWN:
        assert actor is not None and legal is not None and legal.seat == actor
    else:
        assert actor is None and legal is None
    if hand.done:
        out = hand.outcome
        assert out is not None
        assert hand.pot == 0 and out.stacks == stacks
        assert sum(out.net) == 0
        for pot in out.pots:
            assert sum(pot.shares) == pot.amount and set(pot.winners) <= set(pot.eligible)
    check_views(hand)


def check_views(hand: Hand) -> None:
    """No view holds another player's unshown cards, the deck or the burns (R14)."""
    n = hand.config.players
    shown = {a.seat for a in hand.log if a.kind is ActionKind.SHOW}
    public = set(hand.board)
    for s in shown:
        public.update(hand.hole_cards(s) or ())
    for seat in [*range(n), None]:
        view = hand.view(seat)
        own = set(hand.hole_cards(seat) or ()) if seat is not None else set()
        assert (view.hole_cards is None) == (not own)
        allowed = public | own
        seen: set[int] = set(view.hole_cards or ()) | set(view.board)
        for a in view.log:
            seen.update(a.cards)
        for _, cards in view.shown:
            seen.update(cards)
        if view.outcome is not None:
            for h in view.outcome.shown:
                seen.update(h.cards)
        assert seen <= allowed
        data = view.to_dict()
        texts = [data["hole_cards"] or "", data["board"]]
        texts += [a.get("cards", "") for a in data["log"]]
        texts += [h["cards"] for h in data["shown"]]
        if data["outcome"]:
            texts += [h["cards"] for h in data["outcome"]["shown"]]
        allowed_text = {format_card(c) for c in allowed}
        for text in texts:  # cards as text ("As Kd") or as a list (["As", "Kd"])
            assert set(text.split() if isinstance(text, str) else text) <= allowed_text
        assert set(data) == VIEW_KEYS
        hidden = [
            c for s in range(n) if s != seat and s not in shown for c in hand.hole_cards(s) or ()
        ]
        hidden += [c for c in hand.burns if c is not None]
        assert not (set(hidden) - public) & seen


VIEW_KEYS = {
    "seat", "hole_cards", "config", "phase", "street", "board", "stacks", "bets",
    "contributions", "statuses", "pot", "current_bet", "actor", "legal", "shown",
    "log_start", "log", "outcome",
}  # fmt: skip


class HandMachine(RuleBasedStateMachine):
    """Plays random legal actions (with push/pop) on random configurations."""

    hand: Hand
    rnd: random.Random
    undo: list[tuple[Any, ...]]

    @initialize(config=configs(), seed=st.integers(0, 2**32 - 1), auto=st.booleans())
    def begin(self, config: HandConfig, seed: int, auto: bool) -> None:
        self.start(config, seed, auto)

    def start(self, config: HandConfig, seed: int, auto: bool) -> None:
        self.hand = Hand(config, rng=seed, auto=auto)
        self.rnd = random.Random(seed)
        self.undo = []

    @precondition(lambda self: self.hand.actor is not None)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        legal = self.hand.legal_actions()
        assert legal is not None
        kind, to = choose(legal, self.rnd)
        if data.draw(st.booleans(), label="push"):
            self.undo.append(state_of(self.hand))
            self.hand.push(kind, to)
        else:
            self.hand.act(kind, to)

    @precondition(lambda self: self.hand.can_step())
    @rule()
    def step(self) -> None:
        self.hand.step()

    @precondition(lambda self: bool(self.undo))
    @rule()
    def pop(self) -> None:
        self.hand.pop()
        assert state_of(self.hand) == self.undo.pop()

    @precondition(lambda self: self.hand.done)
    @rule(config=configs(), seed=st.integers(0, 2**32 - 1), auto=st.booleans())
    def next_hand(self, config: HandConfig, seed: int, auto: bool) -> None:
        self.start(config, seed, auto)

    @invariant()
    def invariants(self) -> None:
        if hasattr(self, "hand"):
            check_invariants(self.hand)


HandMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=60, deadline=None)
TestHandMachine = HandMachine.TestCase


def play_random(hand: Hand, rnd: random.Random, check: bool = False) -> None:
    while not hand.done:
        if check:
            check_invariants(hand)
        if hand.actor is not None:
            legal = hand.legal_actions()
            assert legal is not None
            kind, to = choose(legal, rnd)
            hand.act(kind, to)
        else:
            hand.step()
    if check:
        check_invariants(hand)


@settings(max_examples=300, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_r9_random_hands_conserve_chips_and_end(config: HandConfig, seed: int) -> None:
    hand = Hand(config, rng=seed, auto=bool(seed & 1))
    play_random(hand, random.Random(seed), check=True)


@settings(max_examples=150, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32 - 1), viewer=st.integers(0, 9))
def test_r14_views_do_not_depend_on_hidden_cards(
    config: HandConfig, seed: int, viewer: int
) -> None:
    """Two hands that differ only in what ``viewer`` may not see give equal views."""
    n = config.players
    viewer %= n
    first = Hand(config, rng=seed)
    board = first._stub  # same board cards, other burns and other hole cards
    rnd = random.Random(seed ^ 0x5EED)
    own = first.hole_cards(viewer)
    assert own is not None
    taken = set(own) | {c for i, c in enumerate(board) if c is not None and i not in (0, 4, 6)}
    rest = [c for c in range(52) if c not in taken]
    rnd.shuffle(rest)
    holes: list[object] = []
    for s in range(n):
        holes.append(own if s == viewer else (rest.pop(), rest.pop()))
    full_board = [board[i] for i in (1, 2, 3, 5, 7)]
    twin = Hand(config, hole_cards=holes, board=full_board)

    def same() -> None:
        if first.outcome is None or not first.outcome.showdown:
            assert twin.view(viewer) == first.view(viewer)
            assert repr(twin.view(viewer)) == repr(first.view(viewer))
            assert twin.view(viewer).to_dict() == first.view(viewer).to_dict()

    same()
    while first.phase is Phase.BETTING:
        legal = first.legal_actions()
        assert legal is not None
        kind, to = choose(legal, rnd)
        first.act(kind, to)
        twin.act(kind, to)
        same()
    assert [format_card(c) for c in own] == first.view(viewer).to_dict()["hole_cards"]
