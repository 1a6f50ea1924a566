"""Replaying hand histories through the rules engine, and checking their numbers.

Replaying is validating: every move of a :class:`~holdem.histories.HandHistory`
is fed to a :class:`~holdem.hand.Hand`, so an illegal move surfaces as the
engine's own :class:`~holdem.errors.IllegalActionError`, quoted with the
file's line.  Then every number the file claims (finishing stacks,
winnings, collected amounts, returned bets, pot and rake) is compared with
what the rules give.

>>> from holdem.histories import read_phh_text
>>> hand = next(read_phh_text('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6', 'p2 f']
... finishing_stacks = [102, 98, 101]
... '''))
>>> [str(p) for p in validate(hand)]
['<text>:8: error: finishing_stacks: the file says p3 ends with 101; the rules give 100']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import zip_longest
from typing import Any

from ..actions import Action, Decision
from ..actions import ActionKind as K
from ..cards import Card, format_cards
from ..config import HandConfig, Post, Structure
from ..errors import ConfigError, HoldemError, IllegalActionError
from ..hand import Hand, Phase
from ..pots import Outcome, Pot
from ..units import check_unit
from .conventions import CONVENTION_BY_NAME, candidates
from .model import (
    BET_RAISE,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DEAL_SECOND_BOARD,
    FOLD,
    MOVE_KINDS,
    MUCK,
    SECOND_RUN,
    SHOW,
    Blinds,
    Claims,
    HandHistory,
    Move,
    Player,
    Problem,
)

__all__ = ["Replay", "completed_claims", "record", "replay", "states", "validate", "with_results"]

#: Unknown starting stacks are played as this many chips.
UNKNOWN_STACK = 10**15

_STRUCTURE = {"NT": Structure.NO_LIMIT, "FT": Structure.FIXED_LIMIT, "PT": Structure.POT_LIMIT}
_VARIANT = {structure: code for code, structure in _STRUCTURE.items()}


class _Stop(Exception):
    """Ends a replay at a problem (carried in ``problem``)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


@dataclass
class Replay:
    """The result of replaying one hand: the engine's hand, and what was found."""

    history: HandHistory
    hand: Hand | None
    problems: list[Problem]
    #: chips of raises nobody could call, by seat: replayed as calls, the
    #: excess comes back as an uncalled bet
    excess: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No error and nothing unsupported (warnings allowed)."""
        return all(p.severity == "warning" for p in self.problems)

    @property
    def stacks(self) -> tuple[int, ...] | None:
        """Each player's chips at the end by the rules (None: the replay did not
        finish): the engine's, with a cap game's chips above the cap (kept out
        of the play) added back."""
        if self.hand is None or self.hand.outcome is None:
            return None
        above = _above_cap(self.history)
        return tuple(s + a for s, a in zip(self.hand.outcome.stacks, above, strict=True))


def config_of(history: HandHistory) -> HandConfig:
    """The engine configuration of a hand history (raises ConfigError or _Stop)."""
    h = history
    n = len(h.players)
    b = h.blinds
    button = n - 1
    sb_seat, bb_seat = (button, 0) if n == 2 else (0, 1)
    small, big = b.blinds[sb_seat], b.blinds[bb_seat]
    nominal = b.small_bet if h.variant == "FT" else b.min_bet
    straddle, straddle_seat = 0, 2
    for seat, amount in enumerate(b.blinds):
        if not amount or seat in (sb_seat, bb_seat):
            continue
        if n > 2 and seat == 2:
            straddle = amount
        else:
            _unsupported(
                h,
                f"a forced bet of {h.to_text(amount)} by {h.player_name(seat)} "
                "(only small blind, big blind and an under-the-gun straddle)",
            )
    lone = not big and not _all_in_by(h, bb_seat, 0)  # the big blind's seat posts nothing
    if (
        n > 2
        and small
        and (small >= nominal or lone)
        and (not big or (big >= 2 * small and not straddle))
    ):
        # a lone blind in the small-blind seat: the big blind (all-in for less, or
        # of the full amount), the small one missing (a dead button, a small blind
        # who left); a blind of twice as much after it is the straddle
        if big:
            straddle, straddle_seat = big, 1
        big, small, bb_seat = small, 0, sb_seat
    if n == 2 and small > big and not _all_in_by(h, bb_seat, big):
        raise _error(
            h,
            None,
            f"heads-up, the button posts the small blind (R3), but here "
            f"{h.player_name(button)} on the button posts {h.to_text(small)} and "
            f"{h.player_name(0)} {h.to_text(big)}",
            "config",
        )
    if nominal > big:
        # the big blind's seat posted less (all-in for less, or nothing left after an
        # ante): the big blind is still the full amount for everybody else (R6)
        big = nominal
    if not big:
        if not small:
            _unsupported(h, "no blinds: a hold'em hand here needs a big blind")
        # a lone blind in the small-blind seat is a big blind with the small one missing
        big, small, bb_seat = small, 0, sb_seat
    if n > 2 and not b.blinds[0] and b.blinds[1] and _all_in_by(h, 0, 0):
        # the small blind's stack went on the ante: a small blind of nothing, not a
        # missing one (the big blind stays where the file has it); any amount posts 0
        small = max(1, big // 2)
    missing_small = not small
    if straddle and straddle < 2 * big and _all_in_by(h, straddle_seat, straddle):
        # a straddle all-in for less: the usual one, two big blinds, for the others
        straddle = 2 * big
    antes = b.antes
    ante, bb_ante = 0, False
    nonzero = {a for a in antes if a}
    if len(nonzero) > 1 and all(antes):
        # a uniform ante that a short stack could only post in part
        top = max(nonzero)
        if all(a == top or a == h.players[i].stack for i, a in enumerate(antes)):
            nonzero = {top}
            antes = tuple(top for _ in antes)
    dead = b.dead
    if nonzero:
        if len(nonzero) == 1 and all(antes):
            ante = antes[0]
        elif len(nonzero) == 1 and antes[bb_seat] and sum(1 for a in antes if a) == 1:
            ante, bb_ante = antes[bb_seat], True
        else:
            # other antes (the button's, antes of several sizes) are dead chips of
            # their posters, as an ante is (R3): posted after the blinds
            dead = tuple(a + d for a, d in zip_longest(antes, dead, fillvalue=0))
    posts = tuple(Post(seat, amount) for seat, amount in enumerate(b.posts) if amount) + tuple(
        Post(seat, amount, dead=True) for seat, amount in enumerate(dead) if amount
    )
    structure = _STRUCTURE.get(h.variant)
    if structure is None:
        _unsupported(h, f"variant {h.variant!r}")
    stacks = _capped(h)
    fixed = structure is Structure.FIXED_LIMIT
    # the file runs the rest of the board twice: everybody agreed (R10)
    twice = tuple(range(n)) if _runs_twice(h.moves) else ()
    key = (
        stacks,
        button,
        small,
        big,
        structure,
        ante,
        bb_ante,
        straddle,
        missing_small,
        posts,
        b.small_bet if fixed else 0,
        b.big_bet if fixed else 0,
        twice,
    )
    config = _CONFIGS.get(key)
    if config is None:
        if len(_CONFIGS) > 4096:
            _CONFIGS.clear()
        # no hand_id: problems carry the file's hand id, and equal setups share one config
        config = _CONFIGS[key] = HandConfig(
            stacks=stacks,
            button=button,
            small_blind=small,
            big_blind=big,
            structure=structure,  # type: ignore[arg-type]
            ante=ante,
            big_blind_ante=bb_ante,
            straddle=straddle,
            missing_small_blind=missing_small and n > 2,
            posts=posts,
            small_bet=key[10],
            big_bet=key[11],
            run_twice=twice,
        )
    return config


def _runs_twice(moves: Sequence[Move]) -> bool:
    """Whether the moves deal a second run of the board (R10): its deals come
    after the first run's, only shows and mucks after them (a second run
    dealt elsewhere is an error of the replay, which then runs the board once)."""
    for move in reversed(moves):
        kind = move.kind
        if kind == DEAL_SECOND_BOARD:
            return True
        if kind != SHOW and kind != MUCK:
            return False
    return False


def _capped(h: HandHistory) -> tuple[int, ...]:
    """The stacks a hand is played with: unknown ones as :data:`UNKNOWN_STACK`
    chips, and in a cap game (PokerStars' cap no-limit) at most the cap, which no
    player can put in more than (a player at the cap is all-in for the hand)."""
    stacks = tuple(UNKNOWN_STACK if p.stack is None else p.stack for p in h.players)
    cap = h.fields.get("cap") if h.fields else None
    if cap is None or isinstance(cap, bool):
        return stacks
    try:
        chips = cap if isinstance(cap, int) else int(Decimal(cap) / h.unit)
    except (ArithmeticError, ValueError, TypeError):
        return stacks
    return stacks if chips < 1 else tuple(min(s, chips) for s in stacks)


def _above_cap(h: HandHistory) -> list[int]:
    """The chips of each player above a cap game's cap (kept out of the play)."""
    return [
        0 if p.stack is None else p.stack - c for p, c in zip(h.players, _capped(h), strict=True)
    ]


def _all_in_by(h: HandHistory, seat: int, blind: int) -> bool:
    """Whether a player's ante and ``blind`` take their whole (known) stack."""
    stack = h.players[seat].stack
    return stack is not None and blind + h.blinds.antes[seat] >= stack


#: Configurations by setup: hands of one table share them (a HandConfig is immutable).
_CONFIGS: dict[tuple[Any, ...], HandConfig] = {}


def _problem(h: HandHistory, line: int, severity: str, code: str, message: str) -> Problem:
    return Problem(h.source or "<input>", line or h.line, h.hand_id, severity, message, code)


def _unsupported(h: HandHistory, what: str) -> None:
    raise _Stop(_problem(h, h.line, "unsupported", "unsupported", f"{what} cannot be replayed yet"))


def _error(h: HandHistory, move: Move | None, message: str, code: str) -> _Stop:
    return _Stop(_problem(h, move.line if move is not None else 0, "error", code, message))


def replay(
    history: HandHistory,
    *,
    check_claims: bool = True,
    conventions: bool | Iterable[str] = True,
) -> Replay:
    """Plays a hand history through the engine; returns the hand and the problems.

    ``conventions``: True (the default) plays by our rules, and only when they
    fail tries the known conventions of other engines and sites that could
    explain the failure (:mod:`holdem.histories.conventions`): a hand that then
    agrees gets one warning per convention it needs (the code is the
    convention's name), one that does not keeps our rules' problems.  False:
    our rules only; names: play by exactly these conventions.
    """
    if conventions is True or conventions is False:
        result = _replay(history, check_claims, frozenset())
        if conventions:
            return _explain(history, result, check_claims)
        return result
    names = frozenset(conventions)
    unknown = sorted(names - CONVENTION_BY_NAME.keys())
    if unknown:
        raise ValueError(
            f"unknown convention {unknown[0]!r}: one of {', '.join(CONVENTION_BY_NAME)}"
        )
    return _replay(history, check_claims, names)


def _replay(history: HandHistory, check_claims: bool, rules: frozenset[str]) -> Replay:
    problems: list[Problem] = list(history.notes)
    hand: Hand | None = None
    excess: dict[int, int] = {}
    try:
        hand = _play(history, problems, excess, rules)
        if check_claims:
            _check_claims(history, hand, problems, excess, rules)
    except _Stop as stop:
        problems.append(stop.problem)
    return Replay(history, hand, problems, excess)


def _trigger(result: Replay) -> Problem | None:
    """The problem conventions are asked to explain: the first error, else a
    warning one of them may explain better."""
    errors = [p for p in result.problems if p.severity != "warning"]
    if errors:
        return errors[0] if errors[0].severity == "error" else None
    return next((p for p in result.problems if p.code in _EXPLAINED_WARNINGS), None)


#: Warnings of our rules that a convention may explain (and then replaces).
_EXPLAINED_WARNINGS = frozenset({"winnings-rake", "unknown-cards"})


def _explain(history: HandHistory, ours: Replay, check_claims: bool) -> Replay:
    """``ours`` (the replay by our rules), or the replay by the fewest known
    conventions that explain its failure, with a warning naming each (without
    ``check_claims``, only conventions of the play itself can be needed)."""
    trigger = _trigger(ours)
    if trigger is None:
        return ours
    used: dict[str, Problem] = {}  # convention -> the problem of ours it explains
    result, problem = ours, trigger
    problem_or_none: Problem | None = trigger
    while problem_or_none is not None:
        problem = problem_or_none
        new = [c.name for c in candidates(history, problem) if c.name not in used]
        if not new:
            return ours
        result = _replay(history, check_claims, frozenset(used).union(new))
        problem_or_none = _trigger(result)
        if problem_or_none is not None and len(new) > 1:
            # one of them alone may do what all together do not (another may not fit
            # the hand: a file that says its antes are untrimmed and trims them)
            for name in new:
                alone = _replay(history, check_claims, frozenset(used) | {name})
                if _trigger(alone) is None:
                    result, problem_or_none, new = alone, None, [name]
                    break
        for name in new:
            used[name] = problem
    if len(used) > 1:  # name only the conventions the hand needs
        for name in list(used):
            rest = frozenset(used) - {name}
            trial = _replay(history, check_claims, rest)
            if _trigger(trial) is None:
                del used[name]
                result = trial
    for name in used:  # (where our rules mark the place, the warning quotes it)
        mark = CONVENTION_BY_NAME[name].marks
        used[name] = next((p for p in ours.problems if p.code == mark), used[name])
    warnings = [_convention_warning(history, name, why) for name, why in used.items()]
    return Replay(history, result.hand, result.problems + warnings, result.excess)


def _convention_warning(h: HandHistory, name: str, why: Problem) -> Problem:
    c = CONVENTION_BY_NAME[name]
    return _problem(
        h,
        why.line,
        "warning",
        name,
        f"{why.message}: consistent by {c.source}'s convention {name}, not by our rules",
    )


def validate(history: HandHistory, *, conventions: bool = True) -> list[Problem]:
    """Every problem of one hand (empty when the file agrees with the rules).

    A hand consistent only by known conventions of another engine or site gets
    a warning naming each (see :func:`replay`); ``conventions=False``: our rules only.
    """
    return replay(history, conventions=conventions).problems


def states(history: HandHistory) -> Iterator[Hand]:
    """The engine's hand after each move of a history (a copy per state).

    Raises :class:`~holdem.errors.HoldemError` at the first illegal move.
    """
    problems: list[Problem] = []
    try:
        yield from _play_states(history, problems)
    except _Stop as stop:
        raise HoldemError(str(stop.problem)) from None


def _play(
    history: HandHistory,
    problems: list[Problem],
    excess: dict[int, int],
    rules: frozenset[str] = frozenset(),
) -> Hand:
    """The engine's hand at the end of the history (what :func:`_play_states`
    yields last, without a state per move)."""
    hand = _start(history, rules)
    showdown: list[Move] = []
    moves = history.moves
    if rules or not _SCRIPTED or type(moves) is not tuple:
        for move in moves:
            _apply(hand, history, move, showdown, problems, excess, rules)
    else:
        # the engine plays the plain moves in one call; each other one is played
        # here (and worded, if it breaks the rules), then the engine goes on
        i, end = 0, len(moves)
        while i < end:
            i = hand._play_script(moves, i, MOVE_KINDS, showdown)
            if i < end:
                _apply(hand, history, moves[i], showdown, problems, excess, rules)
                i += 1
    _finish(hand, history, showdown, problems)
    return hand


#: Whether replays play the plain moves and dealer steps in the engine's C
#: loops (``Hand._replayed``, ``_play_script``, ``_finish_script``); False:
#: one Python call each (the tests compare the two).
_SCRIPTED = True


def _play_states(h: HandHistory, problems: list[Problem]) -> Iterator[Hand]:
    """A copy of the engine's hand after each move, by our rules."""
    rules: frozenset[str] = frozenset()
    excess: dict[int, int] = {}  # raises nobody could call
    hand = _start(h, rules)
    yield hand.copy()
    showdown: list[Move] = []
    for move in h.moves:
        if _apply(hand, h, move, showdown, problems, excess, rules):
            yield hand.copy()
    _finish(hand, h, showdown, problems)
    yield hand.copy()


def _start(h: HandHistory, rules: frozenset[str]) -> Hand:
    """The engine's hand of a history with the forced bets posted and the hole
    cards dealt (the file's known cards given)."""
    try:
        config = config_of(h)
        if rules:
            variants = tuple(
                v for name in sorted(rules) if (v := CONVENTION_BY_NAME[name].rule_variant)
            )
            if variants:
                config = replace(config, rule_variants=variants)
    except ConfigError as exc:
        raise _error(h, None, f"the hand's setup breaks the rules: {exc}", "config") from None
    if _SCRIPTED and type(h.moves) is tuple and not config.run_twice:
        hand = Hand._replayed(config, h.moves, MOVE_KINDS)
        if hand is not None:
            return hand
    n = len(h.players)
    hole: list[object] = [None] * n
    board: list[Card] = []
    second: list[Card] = []
    for move in h.moves:
        if move.kind == DEAL_HOLE and move.actor is not None:
            if not 0 <= move.actor < n:
                raise _error(h, move, f"cards dealt to p{move.actor + 1}: no such player", "deal")
            if len(move.cards) == 2 and None not in move.cards:
                hole[move.actor] = tuple(move.cards)
        elif move.kind == DEAL_BOARD:
            board.extend(c for c in move.cards if c is not None)
        elif move.kind == DEAL_SECOND_BOARD:
            second.extend(c for c in move.cards if c is not None)
    twice = None
    if config.run_twice:  # (the second run's board: the first's before it began)
        twice = tuple(board[: max(0, 5 - len(second))] + second)
    try:
        hand = Hand(
            config,
            hole_cards=hole,
            board=tuple(board) if board else None,
            auto=False,
            second_board=twice,
        )
    except HoldemError as exc:
        raise _error(h, None, f"the cards break the rules: {exc}", "cards") from None
    while hand.phase is Phase.POSTING:
        hand.step()
    hand.step()  # the hole cards: the file's deals are all known already
    return hand


def _apply(
    hand: Hand,
    h: HandHistory,
    move: Move,
    showdown: list[Move],
    problems: list[Problem],
    excess: dict[int, int],
    rules: frozenset[str],
) -> bool:
    """Plays one move of the history; False when the state stays as it was (a
    deal of hole cards, a check nobody asks for), or the move waits for the
    showdown (shows and mucks, collected in ``showdown``)."""
    kind = move.kind
    if kind == DEAL_HOLE:
        return False
    if kind in (DEAL_BOARD, DEAL_SECOND_BOARD):
        _deal_board(hand, h, move)
    elif kind == FOLD and move.actor != hand.actor and _all_in_on_posts(hand, move.actor):
        return _site_fold(hand, h, move, problems, rules)
    elif kind in (SHOW, MUCK):
        showdown.append(move)
        return False
    elif (
        LONE_CHECK in rules
        and kind == CHECK_CALL
        and hand.phase in _NO_BETTING
        and hand.statuses[move.actor or 0] == "active"
    ):
        return False  # a check nobody asks for by our rules (pokerkit-lone-check)
    else:
        _player_move(hand, h, move, problems, excess)
    return True


LONE_CHECK = CONVENTION_BY_NAME["pokerkit-lone-check"].name  # (fails at import if renamed)
SITTING_OUT_FOLD = CONVENTION_BY_NAME["pokerstars-sitting-out-fold"].name


def _all_in_on_posts(hand: Hand, seat: int | None) -> bool:
    """Whether a player is all-in on their forced bets, without a decision of theirs."""
    if seat is None or not 0 <= seat < len(hand.statuses) or hand.statuses[seat] != "all_in":
        return False
    return not any(a.seat == seat and a.kind in _DECIDED for a in hand.log)


_DECIDED = frozenset({K.FOLD, K.CHECK, K.CALL, K.BET, K.RAISE, K.TIMEOUT})


def _site_fold(
    hand: Hand, h: HandHistory, move: Move, problems: list[Problem], rules: frozenset[str]
) -> bool:
    """PokerStars folds a player sitting out who is all-in on what they posted: the
    rules have no such fold (the player stays in for what they put in, R4), so it
    is left out with a warning; played as a fold by ``pokerstars-sitting-out-fold``."""
    seat = move.actor
    assert seat is not None
    if SITTING_OUT_FOLD in rules:
        hand._forfeit(seat)
        return True
    out = h.players[seat].seat in h.fields.get("sitting_out_seats", ())
    problems.append(
        _warn(
            h,
            move.line,
            "site-fold",
            f"PokerStars folds {h.player_name(seat)}{' (sitting out)' * out}, all-in on what "
            "they posted: the rules have no such fold, an all-in player makes no more "
            "decisions and stays in the hand for the pot they are all-in for (R4)",
        )
    )
    return False


_NO_BETTING = (Phase.BOARD, Phase.SHOWDOWN, Phase.AWARDING)
_BETTING, _BOARD = Phase.BETTING, Phase.BOARD


def _deal_board(hand: Hand, h: HandHistory, move: Move) -> None:
    """Deals a street (of the second run: a ``deal_second_board`` move, R10)."""
    phase = hand.phase
    second = move.kind == DEAL_SECOND_BOARD
    if phase is _BOARD and second != _second_run_next(hand):
        if second:
            raise _error(
                h,
                move,
                f"{h.describe_move(move)}: the rules do not run the board twice here "
                "(every player left all-in before the river, the first run dealt)",
                "order",
            )
        raise _error(
            h,
            move,
            f"{h.describe_move(move)}: the first run is dealt, the second run's "
            f"{hand.street.label} is next",
            "order",
        )
    if phase is _BETTING:
        actor = hand.actor
        assert actor is not None
        raise _error(
            h,
            move,
            f"{h.describe_move(move)}: the betting is not over, {h.player_name(actor)} is to act",
            "order",
        )
    if phase is not _BOARD:
        raise _error(
            h,
            move,
            f"{h.describe_move(move)}: no street is to be dealt now ({phase.value})",
            "order",
        )
    try:
        record = hand.step()
    except HoldemError as exc:
        raise _error(h, move, f"{h.describe_move(move)}: {exc}", "deal") from None
    assert record is not None
    dealt = record.cards
    if len(dealt) != len(move.cards):
        street = record.street.label
        raise _error(
            h,
            move,
            f"{h.describe_move(move)}: the {street} has {len(dealt)} card{'s' * (len(dealt) != 1)}",
            "deal",
        )


def _second_run_next(hand: Hand) -> bool:
    """Whether the next street dealt is the second run's (R10: the first run dealt)."""
    return len(hand.board) == 5 and hand.config.run_twice != () and hand.phase is _BOARD


def _player_move(
    hand: Hand, h: HandHistory, move: Move, problems: list[Problem], excess: dict[int, int]
) -> None:
    seat = move.actor
    assert seat is not None
    phase = hand.phase
    if phase is not _BETTING:
        if phase is _BOARD:
            raise _error(
                h,
                move,
                f"{h.describe_move(move)}: the betting round is over, the "
                "next cards should be dealt first",
                "order",
            )
        raise _error(h, move, f"{h.describe_move(move)}: no betting now ({phase.value})", "order")
    if seat != hand.actor:
        actor = hand.actor
        assert actor is not None
        raise _error(
            h, move, f"{h.describe_move(move)}: it is {h.player_name(actor)}'s turn", "order"
        )
    # a raise's stated increment is checked against the bets before it
    bets, top = (hand.bets, hand.current_bet) if move.stated is not None else ((), 0)
    kind = move.kind
    try:
        # what hand.act(decision_of(move, hand)) does, without building the decision
        if kind == FOLD:
            action = hand.fold(seat)
        elif kind == CHECK_CALL:
            action = hand.call(seat) if hand.to_call else hand.check(seat)
        elif kind == BET_RAISE:
            to = move.to or 0
            action = hand.raise_to(to, seat) if hand.current_bet else hand.bet(to, seat)
        else:
            action = hand.act(decision_of(move, hand), seat=seat)
    except IllegalActionError as exc:
        if move.kind == BET_RAISE and _nobody_can_call_more(hand, seat):
            # some sites let a player raise past what anybody can call, and
            # give the excess back: the chips end as with a call
            hand.call(seat)
            excess[seat] = excess.get(seat, 0) + (move.to or 0) - hand.bets[seat]
            problems.append(
                _warn(
                    h,
                    move.line,
                    "uncallable-raise",
                    f"{h.describe_move(move)}: nobody can call more than "
                    f"{h.to_text(hand.bets[seat])}; replayed as a call (the "
                    "excess comes back as an uncalled bet)",
                )
            )
            return
        raise _error(h, move, f"{h.describe_move(move)}: {exc}", "illegal") from None
    if move.stated is not None or (move.all_in and not action.all_in):
        _check_stated(hand, action, h, move, bets, top, problems)


#: How files word ``raises X to Y`` other than PokerStars does today (X: the
#: increment over the largest bet made): code, what X is, and its meaning.
_RAISE_WORDINGS = (
    ("raise-added", "the chips the raise puts in", "as PokerStars wrote some years ago"),
    ("raise-total", "the raise's total", "as a tracker's export writes it"),
)


def _check_stated(
    hand: Hand,
    action: Action,
    h: HandHistory,
    move: Move,
    bets: tuple[int, ...],
    top: int,
    problems: list[Problem],
) -> None:
    """Compares what the file says of a move (its amount, all-in) with what the
    engine did (``action``, its record); ``bets`` and ``top`` are the bets and
    the bet to call before the move."""
    seat = move.actor
    assert seat is not None
    to, stated = move.to or 0, move.stated
    # what the call put in (the engine asks no more than another player can
    # match, R6, so nothing of it comes back at once)
    paid = action.amount
    if stated is not None and move.kind == CHECK_CALL and stated != paid:
        raise _error(
            h,
            move,
            f"{h.player_name(seat)} calls {h.to_text(stated)}: the call puts in {h.to_text(paid)}",
            "amount",
        )
    if (
        stated is not None
        and move.kind == BET_RAISE
        and bets
        and stated not in (to - max(bets), to - top)
    ):
        # the increment counts from the largest bet made: a big blind all-in for
        # less than the blind is raised from what it posted, or from the full blind
        wording = {to - bets[seat]: _RAISE_WORDINGS[0], to: _RAISE_WORDINGS[1]}.get(stated)
        if wording is None:
            raise _error(
                h,
                move,
                f"{h.player_name(seat)} raises {h.to_text(stated)} to {h.to_text(to)}: "
                f"that raises the bet of {h.to_text(max(bets))} by "
                f"{h.to_text(to - max(bets))}",
                "amount",
            )
        code, what, who = wording
        if not any(p.code == code for p in problems):
            problems.append(
                _warn(
                    h,
                    move.line,
                    code,
                    f"{h.player_name(seat)} raises {h.to_text(stated)} to {h.to_text(to)}: "
                    f"the file states {what} where PokerStars states by how much it "
                    f"raises the bet, {who}",
                )
            )
    if move.all_in and not action.all_in:
        raise _error(
            h,
            move,
            f"{h.describe_move(move)}: the file says all-in, but "
            f"{h.to_text(hand.stacks[seat])} are left",
            "all-in",
        )


def decision_of(move: Move, hand: Hand) -> Decision:
    """The engine decision a history's betting move stands for, in ``hand`` as it is
    (a ``check_call`` is a check or a call, a ``bet_raise`` a bet or a raise)."""
    kind = move.kind
    if kind == FOLD:
        return _FOLD
    if kind == CHECK_CALL:
        return _CALL if hand.to_call else _CHECK
    if kind == BET_RAISE:
        return Decision(K.RAISE if hand.current_bet else K.BET, move.to or 0)
    raise ValueError(f"{kind!r} is not a betting move")


_FOLD, _CALL, _CHECK = Decision.fold(), Decision.call(), Decision.check()


def _nobody_can_call_more(hand: Hand, seat: int) -> bool:
    """Whether no other player in the hand has chips to call more than the current bet."""
    bet = hand.current_bet
    return all(
        status != "active" or stack + bets <= bet
        for q, (status, stack, bets) in enumerate(
            zip(hand.statuses, hand.stacks, hand.bets, strict=True)
        )
        if q != seat
    )


def _warn(h: HandHistory, line: int, code: str, message: str) -> Problem:
    return _problem(h, line, "warning", code, message)


def _finish(hand: Hand, h: HandHistory, showdown: list[Move], problems: list[Problem]) -> None:
    """Plays the rest: board run-out, showdown with the file's shows and mucks, awards.

    Shows and mucks are taken in the rules' showdown order (R10), whatever
    order the file writes them in; a player the file says nothing about does
    the default (show if they can win).  Shows and mucks of players who are
    not at the showdown (a winner who shows without being called) change
    nothing.
    """
    if _SCRIPTED:
        hand._finish_script(showdown, MOVE_KINDS)
        if hand.done and not showdown:
            return  # (no shows or mucks in the file: no order to compare)
    # the seats the engine showed or mucked, their cards known (so none of them
    # could muck if the showdown is face up); the rest are played here
    numbers = hand.config.seat_numbers
    order = [numbers[p] for p in hand._sd_order[: hand._sd_i]]
    face_up = bool(order) and hand._face_up
    pending = {m.actor: m for m in showdown if m.actor not in order}
    while not hand.done:
        phase = hand.phase
        if phase is Phase.BETTING:
            actor = hand.actor
            assert actor is not None
            last = h.moves[-1] if h.moves else None
            raise _error(
                h,
                last,
                f"the file ends, but {h.player_name(actor)} still has to act "
                f"on the {hand.street.label}",
                "incomplete",
            )
        if phase is Phase.SHOWDOWN:
            seat = hand.actor
            assert seat is not None
            move = pending.pop(seat, None)
            order.append(seat)
            legal = hand.legal_actions()
            face_up = face_up or (legal is not None and not legal.muck)
            line = move.line if move is not None else h.line
            known = [c for c in move.cards if c is not None] if move is not None else []
            cards = known if len(known) == 2 else None
            if hand.hole_cards(seat) is None and cards is None:
                if move is not None and move.kind == MUCK and legal is not None and legal.muck:
                    hand.muck(seat)
                    continue
                raise _Stop(
                    _warn(
                        h,
                        line,
                        "unknown-cards",
                        f"{h.player_name(seat)} reaches the "
                        "showdown with cards the file does not give: the showdown "
                        "cannot be checked",
                    )
                )
            try:
                if move is not None and move.kind == MUCK:
                    if legal is not None and legal.muck:
                        hand.muck(seat)
                    else:
                        problems.append(
                            _warn(
                                h,
                                line,
                                "face-up",
                                f"the file mucks "
                                f"{h.player_name(seat)}'s hand; with a player "
                                "all-in every hand is shown (R10)",
                            )
                        )
                        hand.show(cards, seat)
                elif move is not None and move.kind == SHOW:
                    hand.show(cards, seat)
                else:
                    hand.step()
            except HoldemError as exc:
                raise _error(
                    h, move, f"showdown of {h.player_name(seat)}: {exc}", "showdown"
                ) from None
            continue
        try:
            hand.step()
        except HoldemError as exc:
            raise _error(h, None, str(exc), "deal") from None
    file_order = [m.actor for m in showdown if m.actor in order]
    if not face_up and file_order and file_order != [s for s in order if s in file_order]:
        problems.append(
            _warn(
                h,
                showdown[0].line,
                "showdown-order",
                "the hands are shown in "
                "another order than the rules' showdown order "
                f"({', '.join(h.player_name(s) for s in order)})",
            )
        )


def _check_claims(
    h: HandHistory,
    hand: Hand,
    problems: list[Problem],
    excess: dict[int, int],
    rules: frozenset[str] = frozenset(),
) -> None:
    outcome = hand.outcome
    assert outcome is not None  # the replay ran to the end
    path = h.source or "<input>"
    claims = h.claims

    def report(code: str, message: str, line: int | None = None, severity: str = "error") -> None:
        at = line or claims.lines.get(code) or h.line
        problems.append(Problem(path, at, h.hand_id, severity, message, code))

    split_chips: list[tuple[int, int]] = [
        (i, said)
        for name, values in (
            ("finishing_stacks", claims.finishing_stacks),
            ("winnings", claims.winnings),
        )
        for i, said in enumerate(values or ())
        if said is not None and said % h.chip
    ]
    if split_chips:
        i, said = split_chips[0]
        report(
            "split-chip",
            f"the file splits a pot into fractions of a chip ({h.player_name(i)}: "
            f"{h.to_text(said)}); chips are whole (R9), the odd chip goes to the first "
            "winner left of the button",
            severity="warning",
        )
    won = [0] * len(h.players)
    for pot in outcome.pots:
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            won[seat] += share
    final = list(outcome.stacks)
    if ODD_CHIPS in rules:
        moved = _odd_chips_elsewhere(outcome, claims)
        if moved is not None:
            final = [f + d for f, d in zip(final, moved, strict=True)]
            won = [w + d for w, d in zip(won, moved, strict=True)]
    if GROSS_WINNINGS in rules:
        # the file's winnings count the player's own uncalled bet given back
        back = outcome.returned
        won = [w + back[i] + excess.get(i, 0) for i, w in enumerate(won)]
    if claims.finishing_stacks is not None:
        above = _above_cap(h) if "cap" in h.fields else [0] * len(h.players)
        for i, stack in enumerate(claims.finishing_stacks):
            if stack is None or h.players[i].stack is None:
                continue
            said = stack
            got = final[i] + above[i]
            if said != got and said % h.chip == 0:
                report(
                    "finishing_stacks",
                    f"finishing_stacks: the file says {h.player_name(i)} "
                    f"ends with {h.to_text(said)}; the rules give {h.to_text(got)}",
                )
    lines = claims.lines
    if claims.returned is not None:
        for k, (i, said) in enumerate(claims.returned):
            if said != outcome.returned[i] + excess.get(i, 0):
                report(
                    "returned",
                    f"uncalled bet: the file returns {h.to_text(said)} to "
                    f"{h.player_name(i)}; the rules return {h.to_text(outcome.returned[i])}",
                    lines.get(f"returned.{k}"),
                )
    rake = claims.rake or 0
    if claims.total_pot is not None and claims.total_pot != outcome.total:
        report(
            "total_pot",
            f"total pot: the file says {h.to_text(claims.total_pot)}; the rules "
            f"give {h.to_text(outcome.total)}",
        )
    if claims.collected is not None:
        got_by = [0] * len(h.players)
        first_line: dict[int, int] = {}
        for k, (i, chips, _) in enumerate(claims.collected):
            got_by[i] += chips
            first_line.setdefault(i, lines.get(f"collected.{k}", 0))
        if sum(got_by) + rake != outcome.total:
            report(
                "collected",
                f"the players collect {h.to_text(sum(got_by))} and the rake is "
                f"{h.to_text(rake)}, but the pots hold {h.to_text(outcome.total)}",
                lines.get("total_pot"),
            )
        for i in range(len(h.players)):
            if got_by[i] > won[i] or (not rake and got_by[i] != won[i]):
                report(
                    "collected",
                    f"{h.player_name(i)} collects {h.to_text(got_by[i])}; the "
                    f"rules award {h.to_text(won[i])}",
                    first_line.get(i),
                )
    if claims.winnings is not None:
        said_all = claims.winnings
        if claims.rake is not None and sum(won) - sum(said_all) == claims.rake:
            said_all = ()  # the rake the file states explains the difference
            for i, said in enumerate(claims.winnings):
                if said > won[i]:
                    report(
                        "winnings",
                        f"winnings: the file says {h.player_name(i)} wins "
                        f"{h.to_text(said)}; the rules award {h.to_text(won[i])}",
                        lines.get(f"winnings.{i}"),
                    )
        if said_all and not any(said_all) and any(won):
            report(
                "winnings-unset",
                "winnings are all 0 though the pots were won: the file does not fill them in",
                severity="warning",
            )
        elif said_all:
            for i, said in enumerate(said_all):
                if said > won[i] or (said < won[i] and not said):
                    report(
                        "winnings",
                        f"winnings: the file says {h.player_name(i)} wins "
                        f"{h.to_text(said)}; the rules award {h.to_text(won[i])}",
                        lines.get(f"winnings.{i}"),
                    )
                elif said < won[i] and said % h.chip == 0:
                    report(
                        "winnings-rake",
                        f"winnings: {h.player_name(i)} wins "
                        f"{h.to_text(said)} of {h.to_text(won[i])} awarded (rake?)",
                        severity="warning",
                    )
    shown = {s.seat: s for s in outcome.shown if not s.run}  # (as described: the first run)
    for i, text in claims.described:
        s = shown.get(i)
        if s is not None and not _same_description(text, s.description):
            report(
                "described",
                f"{h.player_name(i)}'s hand: the file says {text!r}; the "
                f"rules read {format_cards(s.cards)} as {s.description!r}",
                lines.get(f"described.{i}"),
            )


ODD_CHIPS = CONVENTION_BY_NAME["pokerkit-odd-chips"].name
GROSS_WINNINGS = CONVENTION_BY_NAME["pokerkit-gross-winnings"].name


def _odd_chips_elsewhere(outcome: Outcome, claims: Claims) -> list[int] | None:
    """How much each player's stated finishing stack differs from ours, when the
    difference can only be the odd chips of split pots dealt otherwise
    (``pokerkit-odd-chips``): the same chips in all, and each player off by
    fewer chips than the winners of each split pot they share; else None."""
    said = claims.finishing_stacks
    if said is None or None in said:
        return None
    diff = [s - o for s, o in zip(said, outcome.stacks, strict=True)]  # type: ignore[operator]
    if sum(diff) or not any(diff):
        return None
    splits = [0] * len(diff)
    for pot in outcome.pots:
        for seat in pot.winners:  # a pot's remainder is fewer chips than its winners
            splits[seat] += len(pot.winners) - 1
    if any(abs(d) > k for d, k in zip(diff, splits, strict=True)):
        return None
    return diff


#: Words naming a category, the longer first ("straight flush" before "flush").
_CATEGORY_WORDS = (
    "straight flush",
    "royal flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "pair",
    "high card",
)


def _same_description(text: str, ours: str) -> bool:
    """Whether a file's words name the same category as the engine's description."""
    low, mine = text.lower(), ours.lower()
    for words in _CATEGORY_WORDS:
        if words in low:
            return words in mine or (words == "straight flush" and "royal" in mine)
    return True  # words we do not know: nothing to compare


_BLINDS = (K.SMALL_BLIND, K.BIG_BLIND, K.STRADDLE)


def record(
    hand: Hand,
    *,
    names: Sequence[str] | None = None,
    hand_id: str | None = None,
    unit: Decimal | None = None,
    show_all: bool = True,
    hero: int | None = None,
    tournament: bool = False,
    fields: Mapping[str, Any] | None = None,
    rake: Mapping[int, int] | None = None,
) -> HandHistory:
    """The history of a hand played on the engine, to write as PHH or PokerStars.

    ``names`` are in the order of the configuration's stacks (default: the
    configuration's ``names``); each player's seat in the history is their
    table seat plus one (histories count seats from 1).  ``unit`` is the value of one chip in the
    file (default: the hand's chip unit, ``config.unit``; ``Decimal("0.01")``
    for a game in cents): a history counts in a power of ten of the money, so
    a chip of 0.5 is written as 5 tenths (``unit`` 0.1, ``chip`` 5: the play
    moves 5 tenths at a time).  The history holds every
    hole card the referee knows (``show_all=False``: only the shown ones, and
    those of the table seat ``hero``: a player's own history).
    ``tournament`` marks a tournament hand; ``fields`` are the format's other
    fields (``table``, ``seat_count``, ``level`` ...); ``rake`` the chips the
    house took from each table seat's winnings (a cash table's
    :class:`~holdem.table.Rake`): the history then states the rake and the
    winnings after it, and no finishing stacks (the rules give them before
    the rake).

    >>> from holdem.config import HandConfig
    >>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2), rng=1)
    >>> _ = hand.raise_to(6), hand.fold()
    >>> history = record(hand, names=["Ann", "Bob"])
    >>> [p.name for p in history.players], [m.kind for m in history.moves][2:]
    (['Bob', 'Ann'], ['bet_raise', 'fold'])
    >>> validate(history)
    []
    """
    cfg = hand.config
    # a history's unit is a power of ten of the money: a chip is ``scale`` of them
    _, digits, exponent = check_unit(cfg.unit if unit is None else unit).normalize().as_tuple()
    assert isinstance(exponent, int)
    scale = int("".join(map(str, digits))) * 10 ** max(exponent, 0)
    unit = Decimal(1).scaleb(min(exponent, 0))
    n = len(cfg.stacks)
    order = [(cfg.button + 1 + i) % n for i in range(n)]  # the model's order: button last
    index = {seat: i for i, seat in enumerate(order)}  # by position in the configuration
    numbers = cfg.seat_numbers
    by_number = {numbers[seat]: i for i, seat in enumerate(order)}  # by table seat
    antes = [0] * n
    blinds = [0] * n
    dead = [0] * n
    posts = [0] * n
    # the forced bets as set (a writer caps them by the stacks where its format
    # states what was posted): a short big blind stays the big blind
    for kind, seat, amount in cfg.forced_bets:
        i = index[seat]
        if kind in _BLINDS:
            blinds[i] = amount
        elif kind is K.ANTE:
            antes[i] = amount
        elif kind is K.DEAD_BLIND:
            dead[i] = amount
        else:
            posts[i] = amount
    outcome = hand.outcome
    if outcome is None:
        raise HoldemError("the hand is not over: only a finished hand can be recorded")
    names_of_pots = pot_names(outcome.pots)
    shown = {a.seat for a in hand.log if a.kind is K.SHOW}
    moves: list[Move] = []
    returned: list[tuple[int, int]] = []
    collected: list[tuple[int, int, str]] = []
    for a in hand.log:
        kind = a.kind
        if kind is K.DEAL_HOLE:
            for seat in order:
                cards = hand.hole_cards(numbers[seat])
                seen = show_all or numbers[seat] in shown or numbers[seat] == hero  # (table seats)
                known = cards if cards is not None and seen else None
                moves.append(Move(DEAL_HOLE, index[seat], cards=known or (None, None)))
        elif kind is K.DEAL_BOARD:
            moves.append(Move(DEAL_SECOND_BOARD if a.run else DEAL_BOARD, cards=a.cards))
        elif a.seat is None:
            continue
        elif kind is K.FOLD:
            moves.append(Move(FOLD, by_number[a.seat]))
        elif kind is K.CHECK or kind is K.CALL:
            moves.append(Move(CHECK_CALL, by_number[a.seat], all_in=a.all_in))
        elif kind is K.BET or kind is K.RAISE:
            moves.append(Move(BET_RAISE, by_number[a.seat], to=a.to, all_in=a.all_in))
        elif kind is K.SHOW:
            moves.append(Move(SHOW, by_number[a.seat], cards=a.cards))
        elif kind is K.MUCK:
            moves.append(Move(MUCK, by_number[a.seat]))
        elif kind is K.RETURN:
            returned.append((by_number[a.seat], a.amount))
        elif kind is K.WIN:
            collected.append((by_number[a.seat], a.amount, names_of_pots[a.pot]))
        elif kind is K.TIMEOUT:
            raise HoldemError("a protected timeout has no hand-history notation")
    taken = {by_number[seat]: chips for seat, chips in (rake or {}).items() if chips}
    if taken:
        collected = _after_rake(collected, taken)
    won = [0] * n
    for i, chips, _ in collected:
        won[i] += chips
    fixed = cfg.structure is Structure.FIXED_LIMIT
    variant = _VARIANT[cfg.structure]
    history = HandHistory(
        variant=variant,
        players=tuple(
            Player(
                names[seat] if names else (cfg.names[seat] if cfg.names else None),
                cfg.stacks[seat],
                numbers[seat] + 1,
            )
            for seat in order
        ),
        blinds=Blinds(
            antes=tuple(antes),
            blinds=tuple(blinds),
            dead=tuple(dead) if any(dead) else (),
            posts=tuple(posts) if any(posts) else (),
            small_bet=cfg.small_bet if fixed else 0,
            big_bet=cfg.big_bet if fixed else 0,
            min_bet=0 if fixed else cfg.big_blind,
        ),
        moves=tuple(moves),
        claims=Claims(
            finishing_stacks=None if taken else tuple(outcome.stacks[seat] for seat in order),
            winnings=tuple(won),
            collected=tuple(collected),
            returned=tuple(returned),
            total_pot=outcome.total,
            rake=sum(taken.values()),
        ),
        unit=unit,
        hand_id=hand_id
        if hand_id is not None
        else (str(cfg.hand_id) if cfg.hand_id is not None else None),
        fields=dict(fields or {}),
        tournament=tournament,
    )
    return history if scale == 1 else _scaled(history, scale)


def _scaled(h: HandHistory, scale: int) -> HandHistory:
    """The history with every amount ``scale`` times as many units (a chip of
    ``scale`` units: the play's smallest amount, ``chip``)."""

    def x(amounts: Iterable[int]) -> tuple[int, ...]:
        return tuple(a * scale for a in amounts)

    b, c = h.blinds, h.claims
    return replace(
        h,
        players=tuple(
            p._replace(stack=None if p.stack is None else p.stack * scale) for p in h.players
        ),
        blinds=Blinds(
            antes=x(b.antes),
            blinds=x(b.blinds),
            dead=x(b.dead),
            posts=x(b.posts),
            small_bet=b.small_bet * scale,
            big_bet=b.big_bet * scale,
            min_bet=b.min_bet * scale,
        ),
        moves=tuple(
            m._replace(
                to=None if m.to is None else m.to * scale,
                stated=None if m.stated is None else m.stated * scale,
            )
            for m in h.moves
        ),
        claims=replace(
            c,
            finishing_stacks=None
            if c.finishing_stacks is None
            else tuple(None if s is None else s * scale for s in c.finishing_stacks),
            winnings=None if c.winnings is None else x(c.winnings),
            collected=None
            if c.collected is None
            else tuple((i, a * scale, pot) for i, a, pot in c.collected),
            returned=None if c.returned is None else tuple((i, a * scale) for i, a in c.returned),
            total_pot=None if c.total_pot is None else c.total_pot * scale,
            rake=None if c.rake is None else c.rake * scale,
            pots=None if c.pots is None else x(c.pots),
        ),
        chip=scale,
    )


def _after_rake(
    collected: list[tuple[int, int, str]], taken: dict[int, int]
) -> list[tuple[int, int, str]]:
    """What each player collects once the house has taken ``taken`` (by player)
    from their winnings, pot by pot in order."""
    left = dict(taken)
    out = []
    for i, chips, pot in collected:
        cut = min(chips, left.get(i, 0))
        left[i] = left.get(i, 0) - cut
        if chips - cut:
            out.append((i, chips - cut, pot))
    if any(left.values()):
        raise ConfigError("rake: a player pays more than they won", field="rake", value=taken)
    return out


def with_results(history: HandHistory) -> HandHistory:
    """The history with the results the rules give where the file states none.

    Used when writing a format that states results (PokerStars' collected
    amounts and summary) from one that need not (PHH): the claims of
    :func:`completed_claims`, unless the file states its total pot or who
    collected what (as PokerStars text does: then it states every result it
    has); and the finishing stacks, when every starting stack is known (less
    any rake the winnings leave out).  A hand that does not replay cleanly is
    returned unchanged.
    """
    claims = history.claims
    result = replay(history)  # (by the conventions its stated results need, if any)
    if not result.ok:
        result = replay(history, check_claims=False)
    if not result.ok or result.hand is None or result.hand.outcome is None:
        return history
    outcome = result.hand.outcome
    if claims.total_pot is None and claims.collected is None:
        excess = [result.excess.get(i, 0) for i in range(len(history.players))]
        claims = completed_claims(history, outcome, excess)
    if claims.finishing_stacks is None and all(p.stack is not None for p in history.players):
        kept = [0] * len(history.players)  # what each player took from the pots
        for who, amount, _ in claims.collected or ():
            kept[who] += amount
        won = _awards(outcome, len(history.players))
        stacks = tuple(
            stack + above - (award - took) if took <= award else stack + above
            for stack, award, took, above in zip(
                outcome.stacks, won, kept, _above_cap(history), strict=True
            )
        )
        claims = replace(claims, finishing_stacks=stacks)
    return replace(history, claims=claims)


def _awards(outcome: Outcome, players: int) -> list[int]:
    """What the rules award each player from the pots."""
    won = [0] * players
    for pot in outcome.pots:
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            won[seat] += share
    return won


def completed_claims(history: HandHistory, outcome: Outcome, excess: Sequence[int]) -> Claims:
    """The file's claims, with the results of the rules where it states none: the
    winnings (the file's, unless they exceed the awards or were never filled in),
    who collected what from which pot, the rake (what the rules award beyond
    the stated winnings), the uncalled bets (``excess``: chips of raises nobody
    could call, by seat), the total pot and the side pots.  The finishing
    stacks and hand descriptions are left as the file states them."""
    claims = history.claims
    n = len(history.players)
    won = _awards(outcome, n)
    said = claims.winnings
    if said is not None and (
        len(said) != n
        or any(w > r for w, r in zip(said, won, strict=False))
        or (not any(said) and any(won))  # winnings never filled in
    ):
        said = None
    winnings = tuple(said) if said is not None else tuple(won)
    collected = _collected(outcome.pots, won, winnings)
    back = [r + x for r, x in zip(outcome.returned, excess, strict=True)]
    return replace(
        claims,
        winnings=winnings,
        collected=tuple(collected),
        rake=claims.rake
        if claims.rake is not None
        else max(0, outcome.total - sum(amount for _, amount, _ in collected)),
        returned=claims.returned
        if claims.returned is not None
        else tuple((seat, amount) for seat, amount in enumerate(back) if amount),
        total_pot=outcome.total,
        pots=claims.pots if claims.pots is not None else _pot_amounts(outcome.pots),
    )


def _pot_amounts(pots: Sequence[Pot]) -> tuple[int, ...] | None:
    """The amounts of the pots, main pot first, where there are side pots (a
    board run twice: each pot's two halves together); None for one pot."""
    first = [p.amount for p in pots if not p.run]
    for k, pot in enumerate(p for p in pots if p.run):
        first[k] += pot.amount
    return tuple(first) if len(first) > 1 else None


def pot_names(pots: Sequence[Pot]) -> list[str]:
    """Each pot's name as PokerStars writes it: ``pot`` alone, else ``main pot``
    and ``side pot-1`` ...; a pot of a board's second run (R10) with
    :data:`~holdem.histories.model.SECOND_RUN` after it."""
    count = [0, 0]
    for pot in pots:
        count[pot.run] += 1
    names = []
    seen = [0, 0]
    for pot in pots:
        k = seen[pot.run]
        seen[pot.run] += 1
        name = "pot" if count[pot.run] == 1 else ("main pot" if k == 0 else f"side pot-{k}")
        names.append(name + SECOND_RUN * pot.run)
    return names


def _collected(
    pots: Sequence[Pot], won: list[int], winnings: tuple[int, ...]
) -> list[tuple[int, int, str]]:
    """Who collected what from which pot: the engine's shares, less each player's
    rake (what the rules award beyond the stated winnings), taken from the last
    pot they won first."""
    rows: list[list[Any]] = []
    for pot, name in zip(pots, pot_names(pots), strict=True):
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            rows.append([seat, share, name])
    for seat, (award, kept) in enumerate(zip(won, winnings, strict=False)):
        cut = award - kept
        for row in reversed(rows):
            if cut <= 0:
                break
            if row[0] == seat:
                take = min(cut, row[1])
                row[1] -= take
                cut -= take
    return [(seat, amount, name) for seat, amount, name in rows if amount]
