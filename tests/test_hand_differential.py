"""The shipped engine against a frozen copy of the pure-Python one: differential tests.

tests/reference_hand.py is holdem/hand.py as it was at commit 47d9d87, kept
unchanged.  Every test here drives the shipped :class:`holdem.hand.Hand` and
that reference side by side: the same configuration, the same cards, the same
calls, legal or not (:class:`Twin`).  After every call both must have answered
alike (the same return value, or the same exception type, message and
fields), every public reading of the two hands must agree (:func:`observe`:
the properties, ``repr``, the legal actions, ``can_*`` and ``verify_*`` of
candidate decisions, hole cards, every seat's view, the outcome), and a call
that raised must have left the hand as it was.  Readings are compared as their
``repr``, so a list where the reference has a tuple, an int where it has an
enum or a bool, fails too.

The hands: random configurations (every structure and cap policy, antes,
straddles, posts, short stacks, table seats), random cards (seeds, generators,
decks, given hole cards and boards, some unknown), ``auto`` on and off, and
random moves: legal decisions said in each of their equivalent ways, refused
ones, ``push``/``pop`` and ``copy``.  A few rare rules are also played on
purpose (``SCRIPTS``).  ``pytest -m slow`` plays many more random hands.

A failing example is shrunk before it is shown, which can take minutes here;
``HOLDEM_DIFF_NO_SHRINK=1`` shows the first one found as it is.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from conftest import hand_configs
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st
from reference_hand import Hand as ReferenceHand
from test_hand_stateful import configs as rule_configs

from holdem.actions import ActionKind, Decision, Phase
from holdem.cards import Card, Deck, format_card, format_cards
from holdem.config import HandConfig, HeadsUpCap, Post, Structure
from holdem.hand import Hand

# ------------------------------------------------------------------ answers

Answer = tuple[str, str]

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def answer(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Answer:
    """What a call gives, strictly comparable: ``("ok", repr(result))`` or
    ``("raised", the exception's type, message and fields)``."""
    try:
        result = fn(*args, **kwargs)
    except Exception as error:
        fields = {name: value for name, value in vars(error).items() if not name.startswith("_")}
        text = f"{type(error).__module__}.{type(error).__qualname__}: {error.args!r} {fields!r}"
        return "raised", _ADDRESS.sub("", text)
    return "ok", repr(result)


def _attribute(hand: Any, name: str) -> Any:
    return getattr(hand, name)


#: The public properties of a hand, read after every call.
PROPERTIES = (
    "config", "phase", "street", "done", "actor", "stacks", "stacks_by_seat", "bets",
    "contributions", "pot", "current_bet", "to_call", "board", "burns", "log", "statuses",
    "pending", "outcome",
)  # fmt: skip

Probe = tuple[str, tuple[Any, ...], dict[str, Any]]


def probes_for(hand: Any) -> list[Probe]:
    """The ``can_*`` and ``verify_*`` questions worth asking of ``hand`` now:
    every action with the seat left out, the actor's, another player's, a seat
    nobody sits in (and ``True`` once); bets and raises to every edge of the menu, and
    to amounts of the wrong type; shows of the right cards, of other cards and
    of no cards."""
    numbers = hand.config.seat_numbers
    actor = hand.actor
    other = next((s for s in numbers if s != actor), None)
    empty = next(s for s in range(101) if s not in numbers)
    seats = list(dict.fromkeys([None, actor, other, empty]))
    legal = hand.legal_actions()
    amounts = {0, 1, hand.current_bet, hand.current_bet + 1, hand.config.big_blind}
    if legal is not None:
        amounts.add(legal.call or 0)
        for value in (legal.min_to, legal.max_to, legal.all_in):
            if value is not None:
                amounts.update({value - 1, value, value + 1})
    amounts.discard(-1)
    out: list[Probe] = []
    for name in ("fold", "check", "call", "all_in", "timeout", "muck"):
        for seat in seats:
            out += [(f"can_{name}", (), {"seat": seat}), (f"verify_{name}", (), {"seat": seat})]
    out += [("can_fold", (), {"seat": True}), ("verify_fold", (), {"seat": True})]
    least = legal.min_to if legal is not None and legal.min_to is not None else max(amounts)
    for name, odd in (("bet", [4.0, True]), ("raise_to", ["4", None])):
        out.append((f"can_{name}", (), {}))
        for to in [*sorted(amounts), *odd]:
            out += [(f"can_{name}", (to,), {}), (f"verify_{name}", (to,), {})]
        for seat in seats[1:]:
            out += [(f"can_{name}", (least,), {"seat": seat})]
            out += [(f"verify_{name}", (least,), {"seat": seat})]
    for i, cards in enumerate(show_candidates(hand)):
        for seat in seats[: 3 if i == 0 else 2]:
            out += [("can_show", (cards,), {"seat": seat}), ("verify_show", (cards, seat), {})]
    return out


def show_candidates(hand: Any) -> list[object]:
    """Cards to try to show: none, the player's own (as text and reversed, as ints),
    cards nobody holds, cards on the board, three cards, and a bad card."""
    out: list[object] = [None, "AsAs", "As Kd Qh", "Zz9c"]
    seat = hand.actor
    own = hand.hole_cards(seat) if hand.phase is Phase.SHOWDOWN else None
    if own is not None:
        out += [format_cards(own), [own[1], own[0]]]
    free = unused_cards(hand)
    out.append(format_cards(free[:2]))
    if hand.board:
        out.append([hand.board[0], free[0]])
    return out


def unused_cards(hand: Any) -> list[Card]:
    """Cards neither on the board nor in a known hand, lowest first."""
    taken = set(hand.board)
    if hand.phase is not Phase.POSTING and hand.phase is not Phase.DEALING:
        for seat in hand.config.seat_numbers:
            taken.update(hand.hole_cards(seat) or ())
    return [c for c in range(52) if c not in taken]


def observe(hand: Any, probes: list[Probe]) -> dict[str, Answer]:
    """Every public reading of ``hand``, each as an :func:`answer`."""
    # the views first: on a finished hand they work the outcome out before .outcome does
    seen: dict[str, Answer] = {}
    log = hand.log
    numbers = hand.config.seat_numbers
    empty = next(s for s in range(101) if s not in numbers)
    for seat in (*numbers, empty, -1, "0"):
        seen[f"hole_cards({seat!r})"] = answer(hand.hole_cards, seat)
        seen[f"in_hand({seat!r})"] = answer(hand.in_hand, seat)
    for seat in (*numbers, None, empty, True):
        seen[f"view({seat!r})"] = answer(hand.view, seat)
        try:
            view = hand.view(seat)
        except Exception:
            continue
        seen[f"view({seat!r}).to_dict"] = answer(view.to_dict)
    spectator = hand.view(None)
    seen["view(None).more"] = answer(
        lambda: (spectator.log_length, spectator.to_dict(since=len(log) // 2))
    )
    for name in PROPERTIES:
        seen[name] = answer(_attribute, hand, name)
    seen["repr"] = answer(repr, hand)
    seen["can_step"] = answer(hand.can_step)
    seen["legal_actions"] = answer(hand.legal_actions)
    legal = hand.legal_actions()
    if legal is not None:
        seen["legal.to_dict"] = answer(legal.to_dict)
        seen["legal.str"] = answer(str, legal)
        seen["legal.choices"] = answer(lambda: legal.choices)
    seen["log.str"] = answer(lambda: [str(a) for a in log])
    seen["log.to_dict"] = answer(lambda: [a.to_dict() for a in log])
    outcome = hand.outcome
    if outcome is not None:
        seen["outcome.to_dict"] = answer(outcome.to_dict)
        seen["outcome.more"] = answer(
            lambda: (outcome.winners, outcome.total, [s.description for s in outcome.shown])
        )
    for name, args, kwargs in probes:
        seen[f"{name}{args!r}{kwargs!r}"] = answer(getattr(hand, name), *args, **kwargs)
    return seen


def agree(new: Any, ref: Any) -> dict[str, Answer]:
    """Asserts that the shipped hand reads exactly as the reference; returns the readings."""
    probes = probes_for(ref)
    got, want = observe(new, probes), observe(ref, probes)
    wrong = [key for key in want if got.get(key) != want[key]]
    wrong += [key for key in got if key not in want]
    assert not wrong, "the shipped hand disagrees with the reference:\n" + "\n".join(
        f"  {key}:\n{_difference(got.get(key), want.get(key))}" for key in wrong[:5]
    )
    return want


def _difference(got: Answer | None, want: Answer | None, around: int = 150) -> str:
    """Where two answers part, with some text on either side."""
    a, b = repr(got), repr(want)
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    start = max(0, at - around)
    return (
        f"    first difference at character {at}:\n"
        f"    shipped   ...{a[start : at + around]}...\n"
        f"    reference ...{b[start : at + around]}..."
    )


# ------------------------------------------------------------------ the pair


#: The message of a hand stuck for want of board cards nobody gave: an action
#: that ended the betting is applied, then the dealing raises (auto mode).
STUCK = "is needed but"


@dataclass
class Twin:
    """The shipped hand and the reference hand, driven in lockstep."""

    new: Any
    ref: Any
    seen: dict[str, Answer]
    #: the readings before each push that a pop should bring back
    pushed: list[dict[str, Answer]] = field(default_factory=list)
    #: hands left behind by copy(), with their readings then: they must not change
    left: list[tuple[Any, Any, dict[str, Answer]]] = field(default_factory=list)
    calls: int = 0

    @classmethod
    def start(cls, config: HandConfig, dealing: Dealing, auto: bool) -> Twin | None:
        """Both hands of ``config``, dealt alike (None: the constructor raised alike)."""
        new_kwargs, ref_kwargs = dealing.kwargs(), dealing.kwargs()
        made: list[Any] = []

        def make(engine: type[Any], kwargs: dict[str, Any]) -> None:
            made.append(engine(config, auto=auto, **kwargs))

        got = answer(make, Hand, new_kwargs)
        want = answer(make, ReferenceHand, ref_kwargs)
        assert got == want, f"Hand():\n  shipped   {got}\n  reference {want}"
        if want[0] == "raised":
            return None
        assert dealing.left(new_kwargs) == dealing.left(ref_kwargs), "cards taken differ"
        new, ref = made
        return cls(new, ref, agree(new, ref))

    def do(self, method: str, *args: Any, **kwargs: Any) -> Answer:
        """Calls ``method`` on both hands and asserts that they agree afterwards."""
        self.calls += 1
        before = self.seen
        got = answer(getattr(self.new, method), *args, **kwargs)
        want = answer(getattr(self.ref, method), *args, **kwargs)
        call = f"{method}(*{args!r}, **{kwargs!r})"
        assert got == want, f"{call}:\n{_difference(got, want)}"
        self.seen = agree(self.new, self.ref)
        if want[0] == "raised" and (method == "push" or STUCK not in want[1]):
            assert self.seen == before, f"{call} raised but changed the hand"
        if method == "push" and want[0] == "ok":
            self.pushed.append(before)
        if method == "pop":
            if want[0] == "ok":
                assert self.seen == self.pushed.pop(), "pop() did not restore the hand"
            else:
                assert not self.pushed
        return want

    def fork(self) -> None:
        """Goes on with copies of both hands, keeping the originals to check later."""
        self.calls += 1
        new, ref = self.new.copy(), self.ref.copy()
        assert type(new) is type(self.new) and type(ref) is type(self.ref)
        self.left.append((self.new, self.ref, self.seen))
        self.new, self.ref, self.pushed = new, ref, []
        assert agree(new, ref) == self.seen, "a copy reads other than its original"

    def finish(self) -> None:
        """The hands left behind by :meth:`fork` are as they were."""
        for new, ref, seen in self.left:
            assert agree(new, ref) == seen, "playing on a copy changed its original"


# ------------------------------------------------------------------ setups


@dataclass(frozen=True)
class Dealing:
    """Where the cards of a hand come from: the same for both hands.

    :meth:`kwargs` makes fresh arguments for each hand: a ``random.Random`` or
    a :class:`Deck` is used up by the hand that deals from it.
    """

    #: "seed", "random" (a random.Random), "deck" or "none"; refused ones: "seed and
    #: deck" (both given), "bad deck" (a random.Random as the deck)
    source: str
    seed: int = 0
    burnt: int = 0  # cards dealt from the deck before the hand
    hole_cards: object = None  # a tuple is given to the hand as a list
    board: object = None

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.source == "seed":
            out["rng"] = self.seed
        elif self.source == "random":
            out["rng"] = random.Random(self.seed)
        elif self.source == "bad deck":
            out["deck"] = random.Random(self.seed)
        if self.source in ("deck", "seed and deck"):
            deck = Deck(self.seed)
            deck.deal(self.burnt)
            out["deck"] = deck
        if self.source == "seed and deck":
            out["rng"] = self.seed
        if isinstance(self.hole_cards, tuple):
            out["hole_cards"] = list(self.hole_cards)
        elif self.hole_cards is not None:
            out["hole_cards"] = self.hole_cards
        if self.board is not None:
            out["board"] = self.board
        return out

    @staticmethod
    def left(kwargs: dict[str, Any]) -> object:
        """What a hand left of its random source: the deck's cards, the generator's state."""
        source = kwargs.get("deck", kwargs.get("rng"))
        if isinstance(source, Deck):
            return len(source), source.order
        if isinstance(source, random.Random):
            return source.getstate()
        return None


@st.composite
def configs(draw: st.DrawFn) -> HandConfig:
    """test_hand_stateful's configurations (every structure and cap policy, antes,
    straddles, missing small blinds, dead buttons, posts), and more: stacks a few
    bets deep, bigger straddles, a second live post, dead blinds of any seat (all-in
    ones too), fixed-limit bet sizes, caps of 0 to 4 raises, hand ids, table seats
    and names, a river aggressor who may muck (R10's relaxed reading)."""
    base = draw(rule_configs())
    n, bb = base.players, base.big_blind
    fixed = base.structure is Structure.FIXED_LIMIT
    # some stacks a few bets deep, so that all-ins for less than a full raise come up
    stacks = tuple(draw(st.just(chips) | st.integers(bb, 6 * bb)) for chips in base.stacks)
    taken = {base.small_blind_seat, base.big_blind_seat, base.straddle_seat}
    taken.update(post.seat for post in base.posts)
    free = [s for s in range(n) if s not in taken]
    posts = list(base.posts)
    if free and draw(st.booleans()):
        posts.append(Post(draw(st.sampled_from(free)), draw(st.integers(1, bb))))
    dead = st.tuples(st.integers(0, n - 1), st.integers(1, 2 * bb))
    posts += [Post(seat, amount, dead=True) for seat, amount in draw(st.lists(dead, max_size=2))]
    numbers = st.lists(st.integers(0, 99), unique=True, min_size=n, max_size=n).map(sorted)
    names = st.lists(st.one_of(st.none(), st.text(max_size=5)), min_size=n, max_size=n)
    return replace(
        base,
        stacks=stacks,
        straddle=base.straddle and draw(st.sampled_from([2 * bb, 3 * bb])),
        posts=tuple(draw(st.permutations(posts))),
        small_bet=draw(st.sampled_from([0, bb])) if fixed else 0,
        big_bet=draw(st.sampled_from([0, bb, 2 * bb, 3 * bb])) if fixed else 0,
        raise_cap=draw(st.integers(0, 4)),
        hand_id=draw(st.one_of(st.none(), st.integers(-5, 10**12), st.text(max_size=6))),
        seats=tuple(draw(st.one_of(st.just([]), numbers))),
        names=tuple(draw(st.one_of(st.just([]), names))),
        aggressor_may_muck=draw(st.booleans()),
    )


def any_configs() -> st.SearchStrategy[HandConfig]:
    """The shared configurations of conftest.py (also with stacks of 1 to 3 chips,
    which the blinds and antes put all-in) and :func:`configs`."""
    return st.one_of(
        hand_configs(),
        hand_configs(max_players=10, extras=True),
        hand_configs(max_players=10, max_stack=3, extras=True),
        configs(),
    )


_HOLE_FORMS = ("text", "ints", "texts", "spaced", "none", "??", "nones")
_BOARD_FORMS = ("text", "ints", "texts", "list")


def _hole_as(form: str, a: Card, b: Card) -> object:
    return {
        "text": format_card(a) + format_card(b),
        "ints": (a, b),
        "texts": [format_card(a), format_card(b)],
        "spaced": f"{format_card(a)} {format_card(b)}",
        "none": None,
        "??": "??",
        "nones": [None, None],
    }[form]


def _board_as(form: str, cards: list[Card]) -> object:
    return {
        "text": format_cards(cards),
        "ints": tuple(cards),
        "texts": [format_card(c) for c in cards],
        "list": list(cards),
    }[form]


@st.composite
def dealings(draw: st.DrawFn, n: int, showdown: bool = False) -> Dealing:
    """The cards of a hand of ``n`` players: from a seed, a ``random.Random`` or a
    :class:`Deck` (partly dealt), with or without given hole cards (some unknown)
    and a given (partial) board; given cards without a source too.

    ``showdown``: hole cards given, some perhaps unknown, and the whole board,
    so that the hand can reach a showdown that waits for cards nobody knows.
    """
    sources = ["none", "seed"] if showdown else ["seed", "random", "deck", "none"]
    source = draw(st.sampled_from(sources))
    seed = draw(st.integers(0, 2**32 - 1))
    burnt = draw(st.integers(0, 10)) if source == "deck" else 0
    if source != "none" and not showdown and draw(st.booleans()):
        return Dealing(source, seed, burnt)
    cards = draw(st.permutations(range(52)))
    holes = tuple(
        _hole_as(draw(st.sampled_from(_HOLE_FORMS)), cards[2 * i], cards[2 * i + 1])
        for i in range(n)
    )
    size = 5 if showdown else draw(st.sampled_from([5, 0, 3, 4, 1, 2]))
    board = cards[2 * n : 2 * n + size]
    given_board = _board_as(draw(st.sampled_from(_BOARD_FORMS)), board) if board else None
    if source != "none" and given_board is not None and not showdown and draw(st.booleans()):
        holes = None  # only the board is given
    return Dealing(source, seed, burnt, holes, given_board)


@dataclass(frozen=True)
class Scenario:
    """What kind of hands a test plays: its configurations, its cards, and how
    boldly its players play (see :func:`play`)."""

    name: str
    configs: st.SearchStrategy[HandConfig]
    showdown: bool = False
    moods: tuple[str, ...] = ("passive", "mixed", "wild", "raise")

    def __repr__(self) -> str:
        return self.name


@st.composite
def setups(draw: st.DrawFn, scenario: Scenario) -> tuple[HandConfig, Dealing, bool]:
    config = draw(scenario.configs)
    return config, draw(dealings(config.players, scenario.showdown)), draw(st.booleans())


#: The ways :func:`broken_dealings` breaks the cards of a hand (and one that does not).
BREAKS = ("seed and deck", "bad deck", "count", "text", "twice", "board", "on board",
          "bad card", "three", "fine")  # fmt: skip


@st.composite
def broken_dealings(draw: st.DrawFn, n: int, what: str) -> Dealing:
    """Cards a hand of ``n`` players should refuse (:data:`BREAKS`): a seed and a
    deck, a deck that is no Deck, the wrong number of hands or a text for them,
    a card twice, six board cards, a hole card on the board, bad cards, three
    hole cards."""
    seed = draw(st.integers(0, 2**32 - 1))
    cards = draw(st.permutations(range(52)))
    holes: list[object] = [(cards[2 * i], cards[2 * i + 1]) for i in range(n)]
    board: object = None
    if what in ("seed and deck", "bad deck"):
        return Dealing(what, seed)
    seat = draw(st.integers(0, n - 1))
    if what == "count":
        holes = [*holes[: draw(st.sampled_from([n - 2, n]))], None]  # one too few or many
    elif what == "text":
        return Dealing("seed", seed, hole_cards="AsKd" * n)
    elif what == "twice":
        holes[seat] = (cards[0], cards[0]) if seat else (cards[2], cards[3])
    elif what == "board":
        board = cards[40:46]
    elif what == "on board":
        board = [holes[seat][0], cards[50]]  # type: ignore[index]
    elif what == "bad card":
        holes[seat] = draw(st.sampled_from(["Zz9c", (52, 1), [1.5, 2], "As", 7, ["As", True]]))
    elif what == "three":
        holes[seat] = format_cards(cards[48:51])
    source = draw(st.sampled_from(["none", "seed", "deck"]))
    return Dealing(source, seed, hole_cards=tuple(holes), board=board)


# ------------------------------------------------------------------ moves


class Move:
    """One thing to do to both hands (its label is what hypothesis prints)."""

    __slots__ = ("label", "run")

    def __init__(self, label: str, run: Callable[[Twin], object]) -> None:
        self.label = label
        self.run = run

    def __repr__(self) -> str:
        return self.label


def call_move(method: str, *args: Any, **kwargs: Any) -> Move:
    label = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
    return Move(f"{method}({label})", lambda twin: twin.do(method, *args, **kwargs))


_METHODS = {
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.BET: "bet",
    ActionKind.RAISE: "raise_to",
    ActionKind.ALL_IN: "all_in",
    ActionKind.TIMEOUT: "timeout",
    ActionKind.SHOW: "show",
    ActionKind.MUCK: "muck",
}
_OLD_NAMES = {ActionKind.ALL_IN: ["all-in", "all in"]}


def decision_move(data: st.DataObject, decision: Decision, seat: int | None) -> Move:
    """``decision`` by ``seat``, in one of the equivalent ways to say it: its method,
    ``act(Decision)``, ``act(kind, to)`` (the kind as text, old spellings too), or
    ``push`` of either."""
    kind, to, cards = decision
    form = data.draw(st.sampled_from(["method", "act", "parts", "push", "push parts"]))
    if form == "method":
        args: list[Any] = [] if to is None else [to]
        if kind is ActionKind.SHOW:
            args = [cards or None]
        return call_move(_METHODS[kind], *args, seat=seat)
    verb = "push" if form.startswith("push") else "act"
    if not form.endswith("parts"):
        return call_move(verb, decision, seat=seat)
    name = data.draw(st.sampled_from([kind, kind.value, *_OLD_NAMES.get(kind, [])]))
    extra = {"cards": cards} if cards else {}
    return call_move(verb, name, to, seat=seat, **extra)


def legal_moves(data: st.DataObject, hand: Any) -> tuple[list[Move], list[Move], list[Move]]:
    """Legal moves of ``hand`` now: the passive ones (checks, calls, showdown
    decisions, dealer steps: they end the hand soon), the bets, raises and
    all-ins, and the others (folds, timeouts)."""
    phase = hand.phase
    if phase is Phase.COMPLETE:
        return [], [], []
    if phase is not Phase.BETTING and phase is not Phase.SHOWDOWN:
        return [call_move("step"), call_move("run")], [], []
    legal = hand.legal_actions()
    seat = data.draw(st.sampled_from([None, hand.actor]))
    passive: list[Decision] = []
    wagers: list[Decision] = []
    moves: list[Move] = []
    if phase is Phase.SHOWDOWN:
        own = hand.hole_cards(hand.actor)
        if hand.can_step():
            moves.append(call_move("step"))
        if own is not None:
            passive += [Decision.show(), Decision.show((own[1], own[0]))]
        else:
            free = unused_cards(hand)
            cards = data.draw(st.lists(st.sampled_from(free), min_size=2, max_size=2, unique=True))
            passive.append(Decision.show(tuple(cards)))
            moves.append(call_move("show", format_cards(cards), seat=seat))
        if legal.muck:
            passive.append(Decision.muck())
        return [*(decision_move(data, d, seat) for d in passive), *moves], [], []
    if legal.check:
        passive.append(Decision.check())
    if legal.call is not None:
        passive.append(Decision.call())
    moves.append(call_move("check_or_call", seat=seat))
    if legal.wager is not None:
        lo, hi = legal.min_to, legal.max_to
        for to in sorted({lo, hi, data.draw(st.integers(lo, hi))}):
            wagers.append(Decision(legal.wager, to))
    if legal.all_in is not None:
        wagers.append(Decision.all_in())
        if legal.all_in > legal.bet:
            wagers.append(Decision(ActionKind.RAISE if legal.bet else ActionKind.BET, legal.all_in))
    others = [Decision.fold()]
    if data.draw(st.integers(0, 3)) == 0:
        others.append(Decision.timeout())
    return (
        [*(decision_move(data, d, seat) for d in passive), *moves],
        [decision_move(data, d, seat) for d in wagers],
        [*(decision_move(data, d, seat) for d in others), call_move("check_or_fold", seat=seat)],
    )


def illegal_moves(data: st.DataObject, hand: Any) -> list[Move]:
    """Moves that should be refused now (most of them are: each is asserted only to
    be answered alike, and to leave the hand alone when refused)."""
    numbers = hand.config.seat_numbers
    actor = hand.actor
    other = next(s for s in numbers if s != actor)
    empty = next(s for s in range(101) if s not in numbers)
    legal = hand.legal_actions()
    bet = hand.current_bet
    lo = legal.min_to if legal is not None and legal.min_to is not None else bet + 1
    moves = [
        call_move("raise_to", lo, seat=other),
        call_move("fold", seat=other),
        call_move("check", seat=empty),
        call_move("call", seat="1"),
        call_move("raise_to", lo - 1),
        call_move("bet", lo),
        call_move("raise_to", lo) if not bet else call_move("bet", bet + 1),
        call_move("raise_to", sum(hand.stacks) + 1),
        call_move("raise_to", str(lo)),
        call_move("bet", float(lo)),
        call_move("raise_to", True),
        call_move("raise_to", None),
        call_move("check"),
        call_move("call"),
        call_move("all_in", seat=other),
        call_move("timeout", seat=empty),
        call_move("act", "raise"),
        call_move("act", "call", lo),
        call_move("act", "dance"),
        call_move("act", 7),
        call_move("act", ActionKind.DEAL_BOARD),
        call_move("act", Decision(ActionKind.BET)),
        call_move("push", "raise", lo - 1),
        call_move("push", Decision.fold(), seat=other),
        call_move("step"),
        call_move("run"),
        call_move("pop"),
        call_move("check_or_call", seat=other),
        call_move("check_or_fold", seat=empty),
        call_move("muck"),
        call_move("muck", seat=other),
        call_move("show", seat=other),
        call_move("show", "As Kd Qh"),
        call_move("show", "Xx2c"),
        call_move("show", 5),
    ]
    if hand.board:
        moves.append(call_move("show", [hand.board[-1], unused_cards(hand)[0]]))
    if hand.phase is Phase.SHOWDOWN:
        own = hand.hole_cards(actor)
        free = unused_cards(hand)
        wrong = [free[0], own[0]] if own is not None else [free[0], free[0]]
        moves.append(call_move("show", wrong))
    return moves


def undo_moves(twin: Twin) -> list[Move]:
    """pop() once, or several times, or copy() and go on with the copies."""
    moves = [Move("copy()", Twin.fork)]
    for depth in range(1, len(twin.pushed) + 1):
        moves.append(Move(f"pop() x{depth}", lambda t, d=depth: [t.do("pop") for _ in range(d)]))
    return moves


_WHAT = ("play",) * 6 + ("illegal", "illegal", "undo")


#: How often a legal move is a bet, raise, all-in, fold or timeout rather than a
#: passive one: 1 in 6, 1 in 3, always; "raise": only bets, raises and all-ins
#: while there are any.
_BOLDNESS = {"passive": 5, "mixed": 2, "wild": 0}


def play(twin: Twin, data: st.DataObject, mood: str, moves: int = 40, last: int = 400) -> None:
    """Plays the hand out with drawn moves: legal ones, refused ones, undos and
    copies for ``moves`` calls, then passive legal moves only until the end.
    ``mood`` says how boldly (:data:`_BOLDNESS`)."""
    while twin.calls < last:
        calm = twin.calls >= moves
        what = "play" if calm else data.draw(st.sampled_from(_WHAT))
        if what == "play":
            options, wagers, others = legal_moves(data, twin.ref)
            if calm:
                pass
            elif mood == "raise":
                options = wagers or options
            elif data.draw(st.integers(0, _BOLDNESS[mood])) == 0:
                options = options + wagers + others
            if not options:  # the hand is over: one move that should be refused, then stop
                options = [] if calm else illegal_moves(data, twin.ref)
                calm = True
        elif what == "illegal":
            options = illegal_moves(data, twin.ref)
        else:
            options = undo_moves(twin)
        if not options:
            break
        move = data.draw(st.sampled_from(options))
        result = move.run(twin)
        if calm and what == "play" and twin.ref.done:
            break
        if what == "play" and isinstance(result, tuple) and result[0] == "raised":
            break  # a legal move raised alike: the hand waits for cards nobody gave
    twin.finish()


# ------------------------------------------------------------------ tests


ANY = Scenario("any hand", any_configs())
#: Given hole cards (some unknown, without a deck) and a whole board, played to a showdown.
SHOWDOWN = Scenario("showdown", any_configs(), showdown=True, moods=("passive",))
#: Bets and raises up to the caps of fixed-limit, the pot of pot-limit, the stacks.
RAISES = Scenario("raises", configs(), moods=("raise",))

_QUICK = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    report_multiple_bugs=False,
)
if os.environ.get("HOLDEM_DIFF_NO_SHRINK"):
    _QUICK["phases"] = [Stage.explicit, Stage.reuse, Stage.generate]


def play_random_hand(data: st.DataObject, scenario: Scenario) -> None:
    config, dealing, auto = data.draw(setups(scenario), label="setup")
    mood = data.draw(st.sampled_from(scenario.moods), label="mood")
    twin = Twin.start(config, dealing, auto)
    if twin is not None:
        play(twin, data, mood)


@settings(max_examples=80, **_QUICK)
@given(data=st.data())
def test_any_hand_agrees_with_the_reference(data: st.DataObject) -> None:
    play_random_hand(data, ANY)


@settings(max_examples=30, **_QUICK)
@given(data=st.data())
def test_showdowns_agree_with_the_reference(data: st.DataObject) -> None:
    play_random_hand(data, SHOWDOWN)


@settings(max_examples=30, **_QUICK)
@given(data=st.data())
def test_raising_agrees_with_the_reference(data: st.DataObject) -> None:
    play_random_hand(data, RAISES)


@pytest.mark.slow
@settings(max_examples=2000, **_QUICK)
@given(data=st.data())
def test_many_hands_agree_with_the_reference(data: st.DataObject) -> None:
    play_random_hand(data, data.draw(st.sampled_from([ANY, ANY, SHOWDOWN, RAISES])))


@pytest.mark.parametrize("what", BREAKS)
@settings(max_examples=15, **_QUICK)
@given(config=hand_configs(max_players=10, extras=True), data=st.data(), auto=st.booleans())
def test_refused_deals_agree_with_the_reference(
    what: str, config: HandConfig, data: st.DataObject, auto: bool
) -> None:
    dealing = data.draw(broken_dealings(config.players, what))
    twin = Twin.start(config, dealing, auto)
    if twin is not None:  # the few good ones: a move or two
        play(twin, data, "mixed", moves=2, last=4)


# ------------------------------------------------------------ scripted hands
#
# Rules that random play reaches only now and then, played on purpose.


def finish(twin: Twin) -> None:
    """Plays on passively (check or call, default showdown decisions, dealer steps)."""
    while not twin.ref.done and twin.calls < 400:
        if twin.ref.phase is Phase.BETTING:
            twin.do("check_or_call")
        elif twin.ref.can_step():
            twin.do("step")
        else:  # a showdown that waits for cards nobody gave: muck them
            twin.do("muck")
    assert twin.ref.done
    twin.finish()


def raise_war(twin: Twin) -> None:
    """Bets or raises the minimum whenever that is allowed, else plays on passively."""
    while not twin.ref.done and twin.calls < 400:
        legal = twin.ref.legal_actions()
        if legal is not None and legal.wager is not None:
            twin.do("bet" if legal.wager is ActionKind.BET else "raise_to", legal.min_to)
        elif twin.ref.phase is Phase.BETTING:
            twin.do("check_or_call")
        else:
            twin.do("step")
    finish(twin)


def _script_stuck(twin: Twin) -> None:
    while twin.ref.phase is Phase.BETTING:
        name = "check" if twin.ref.can_check() else "call"
        if twin.do("push", name)[0] == "raised":
            break
    twin.do(name)  # applied, then the turn nobody gave is needed
    assert twin.ref.phase is Phase.BOARD
    twin.do("step")
    twin.do("run")
    twin.do("pop")


def _script_unknown_showdown(twin: Twin) -> None:
    twin.do("run")
    while twin.ref.phase is Phase.BETTING:
        twin.do("check_or_call")
        twin.do("run")
    assert twin.ref.phase is Phase.SHOWDOWN and twin.ref.hole_cards(twin.ref.actor) is None
    twin.do("step")  # refused: nobody knows the cards
    twin.do("show")  # refused: give them
    twin.do("show", "AcAd")  # on the board
    twin.do("push", "show", cards="7h6h")
    twin.do("pop")
    twin.do("show", [ActionKind.SHOW])  # not a card
    twin.do("show", "7h 6h")
    finish(twin)


def _script_short_all_in(twin: Twin) -> None:
    twin.do("run")
    legal = twin.ref.legal_actions()
    twin.do("raise_to", legal.min_to if legal.min_to == legal.max_to else 10)
    twin.do("call")
    twin.do("all_in")  # a raise of less than a full one: the raiser may only call
    twin.do("raise_to", 30)
    twin.do("all_in")
    finish(twin)


def _script_timeouts(twin: Twin) -> None:
    twin.do("raise_to", 10)  # seat 2
    twin.do("timeout")  # seat 3, protected: in for its ante only
    twin.do("act", Decision.timeout(), seat=3)  # refused: seat 4 is to act
    twin.do("raise_to", 30)
    twin.do("push", "timeout")
    twin.do("pop")
    twin.do("act", Decision.timeout(), seat=0)  # in for the small blind
    twin.do("act", "call")
    twin.do("timeout", seat=0)  # refused: not its turn, nor in the betting any more
    finish(twin)


def _script_fold_for_free(twin: Twin) -> None:
    twin.do("call")
    twin.do("call")
    twin.do("fold")  # the big blind folds though a check is free: the others split nothing
    finish(twin)


_DEEP3 = HandConfig((40, 40, 40), 0, 1, 2, Structure.FIXED_LIMIT, raise_cap=1)
SCRIPTS: list[tuple[str, HandConfig, Dealing, bool, Callable[[Twin], None]]] = [
    ("no-limit short all-in", HandConfig((100, 100, 14), 0, 1, 2), Dealing("seed", 1), True,
     _script_short_all_in),
    ("fixed-limit short all-in",
     HandConfig((100, 100, 9), 0, 2, 4, Structure.FIXED_LIMIT), Dealing("seed", 1), False,
     _script_short_all_in),
    *((f"cap {policy.value} {n} players",
       HandConfig((40,) * n, 0, 1, 2, Structure.FIXED_LIMIT, raise_cap=1, heads_up_cap=policy),
       Dealing("deck", 5, burnt=3), n == 2, raise_war)
      for policy in HeadsUpCap for n in (2, 3)),
    ("cap lifted after a fold", _DEEP3, Dealing("random", 2), True,
     lambda twin: (twin.do("fold"), raise_war(twin))),
    ("pot-limit raises", HandConfig((150,) * 4, 1, 1, 2, Structure.POT_LIMIT, ante=1),
     Dealing("seed", 3), False, raise_war),
    ("unknown cards at showdown", HandConfig((30, 30, 30), 2, 1, 2, hand_id="u1"),
     Dealing("none", hole_cards=("AsKs", None, "??"), board="AcAhAd 2c 3c"), False,
     _script_unknown_showdown),
    ("a turn nobody gave",
     HandConfig((30, 30, 30, 30), 3, 1, 2, structure="pot-limit", straddle=4),
     Dealing("none", hole_cards=("AsKs", "QdQc", (4, 9), [None, None]), board=[0, 1, 2]),
     True, _script_stuck),
    ("protected timeouts", HandConfig((100, 100, 100, 100, 100), 4, 1, 2, ante=1),
     Dealing("random", 6), True, _script_timeouts),
    ("free fold", HandConfig((30, 30, 30), 1, 1, 2, seats=(2, 5, 7)), Dealing("seed", 4),
     True, _script_fold_for_free),
]  # fmt: skip


@pytest.mark.parametrize(
    ("config", "dealing", "auto", "script"),
    [script[1:] for script in SCRIPTS],
    ids=[script[0] for script in SCRIPTS],
)
def test_scripted_hands_agree_with_the_reference(
    config: HandConfig, dealing: Dealing, auto: bool, script: Callable[[Twin], None]
) -> None:
    twin = Twin.start(config, dealing, auto)
    assert twin is not None
    script(twin)
