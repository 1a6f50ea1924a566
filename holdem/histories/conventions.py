"""Other engines' and sites' readings of the rules, as named, documented data.

A hand history written by another program is consistent by that program's
rules, which differ from ours in a few known places (docs/rules.md,
"Differences from pokerkit").  Each such difference is a :class:`Convention`
here: its name (the code of the warning a hand gets when only it explains the
hand), the engine or site that plays it, what it changes, and how replay
applies it: an engine rule variant (:data:`holdem.config.RULE_VARIANTS`), a
step of the replay, or a way of reading the file's results.

:func:`holdem.histories.playback.replay` plays every hand by our rules first.
Only when they fail does it look here, for the conventions that could explain
that failure (:func:`candidates`: a cheap test of the hand and of the first
error), and replays with them; a hand that then agrees passes with one warning
per convention it needed.  A hand no convention explains fails with the first
error under our rules.

>>> [c.name for c in CONVENTIONS][:2]
['pokerkit-short-big-blind', 'pokerkit-limit-cap']
>>> CONVENTION_BY_NAME['pokerkit-limit-cap'].rule_variant
'blind_outside_cap'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .model import HandHistory, Problem, poster_folds

__all__ = ["CONVENTIONS", "CONVENTION_BY_NAME", "Convention", "candidates"]

#: How a convention is applied.
RULE = "rule variant"  # the engine plays a rule variant
STEP = "replay step"  # the replay reads a move otherwise
RESULT = "results"  # the file's results are read otherwise

POKERKIT = "PokerKit"
POKERSTARS = "PokerStars"


@dataclass(frozen=True)
class Convention:
    """One known reading of the rules by another engine or site.

    :ivar name: the warning code of a hand that needs it.
    :ivar source: the engine or site that plays it.
    :ivar changes: what it changes against our rules (one sentence).
    :ivar how: :data:`RULE`, :data:`STEP` or :data:`RESULT`.
    :ivar rule_variant: the engine's rule variant (``how == RULE``).
    :ivar codes: the codes of our first error it can explain (empty: any).
    :ivar words: a piece of that error's message it needs (empty: any).
    :ivar fits: a cheap test of the hand itself (None: any hand).
    :ivar warnings: the codes of warnings of ours it can explain better (a
        warning is explained only by a convention that names it here).
    :ivar marks: the code of the warning our rules give where it applies (its
        own warning then quotes that one, at its line).
    """

    name: str
    source: str
    changes: str
    how: str
    rule_variant: str | None = None
    codes: frozenset[str] = frozenset()
    words: tuple[str, ...] = ()
    fits: Callable[[HandHistory], bool] | None = None
    warnings: frozenset[str] = frozenset()
    marks: str | None = None

    def could_explain(self, history: HandHistory, error: Problem) -> bool:
        """Whether playing by this convention could clear ``error`` (our first one)."""
        if error.severity == "warning":
            if error.code not in self.warnings:
                return False
        elif self.codes and error.code not in self.codes:
            return False
        if self.words and not any(w in error.message for w in self.words):
            return False
        return self.fits is None or self.fits(history)


def _fixed(h: HandHistory) -> bool:
    return h.variant == "FT"


def _unfixed(h: HandHistory) -> bool:
    return h.variant in ("NT", "PT")


def _short_big_blind(h: HandHistory) -> bool:
    """Whether the big blind's seat posts all-in for less than the big blind."""
    n = len(h.players)
    b = h.blinds
    if n < 2 or len(b.blinds) != n or len(b.antes) != n:
        return False
    seat = 0 if n == 2 else 1
    nominal = b.small_bet if h.variant == "FT" else b.min_bet
    big = max(b.blinds[seat], nominal)
    stack = h.players[seat].stack
    return stack is not None and stack - b.antes[seat] < big


def _untrimmed_antes(h: HandHistory) -> bool:
    """Whether the hand has antes PHH leaves untrimmed (``ante_trimming_status``
    false, the spec's default) whose pots differ from ours: antes that are not
    all alike (a big-blind ante, a button's), dead chips, or an ante a stack
    cannot cover (uniform antes posted in full make the same pots either way)."""
    b = h.blinds
    if h.fields.get("ante_trimming_status") is True or not any(b.antes):
        return bool(any(b.dead)) and h.fields.get("ante_trimming_status") is not True
    if len(set(b.antes)) > 1 or any(b.dead):
        return True
    return any(p.stack is not None and p.stack <= b.antes[0] for p in h.players)


def _folds_all_in_poster(h: HandHistory) -> bool:
    """Whether the hand folds a player whose forced bets took their whole stack."""
    return bool(poster_folds(h))


def _straddled(h: HandHistory) -> bool:
    """Whether a player other than the blinds posts a blind (a straddle)."""
    n = len(h.players)
    return n > 2 and any(h.blinds.blinds[2:])


CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        "pokerkit-short-big-blind",
        POKERKIT,
        "a big blind posted all-in for less than the blind: the others call the "
        "largest blind posted, and raises count from it by a big blind (R6: the "
        "full big blind is called while another player can put it in)",
        RULE,
        rule_variant="posted_short_blind",
        fits=_short_big_blind,
    ),
    Convention(
        "pokerkit-limit-cap",
        POKERKIT,
        "fixed-limit preflop: the big blind and four raises (R8: the big blind is "
        "the bet, then three raises)",
        RULE,
        rule_variant="blind_outside_cap",
        codes=frozenset({"illegal"}),
        words=("capped",),
        fits=_fixed,
    ),
    Convention(
        "pokerkit-limit-short-all-in",
        POKERKIT,
        "fixed-limit: an all-in raise of less than half a bet counts toward the cap "
        "and the next raise is a bet above it (a bet of 20, all-in to 29, a raise "
        "to 49; R7: to 40); it reopens the betting for nobody",
        RULE,
        rule_variant="no_half_bet_rule",
        codes=frozenset({"illegal"}),
        words=("fixed-limit is to exactly", "capped"),
        fits=_fixed,
    ),
    Convention(
        "pokerkit-lone-check",
        POKERKIT,
        "a player who has matched the bet, everyone else all-in, is asked to act "
        "and checks (R4: no more betting, the board runs out)",
        STEP,
        codes=frozenset({"order"}),
        words=("the betting round is over", "no betting now"),
    ),
    Convention(
        "pokerkit-odd-chips",
        POKERKIT,
        "split pots: the odd chips go to other tied winners (pokerkit forms the "
        "side pots at other levels and gives a pot's remainder to one winner; R9: "
        "one at a time, clockwise from the first seat left of the button). Checked "
        "loosely: the same chips in all, each player off by fewer chips than the "
        "winners of each split pot they share",
        RESULT,
        codes=frozenset({"finishing_stacks", "winnings", "collected"}),
    ),
    Convention(
        "pokerkit-gross-winnings",
        POKERKIT,
        "winnings count every chip a player gets at the end, their own uncalled bet "
        "too (a walk: the big blind wins both blinds); we give the uncalled bet back "
        "and count as won only the pots",
        RESULT,
        codes=frozenset({"winnings"}),
        warnings=frozenset({"winnings-rake"}),
    ),
    Convention(
        "pokerkit-untrimmed-antes",
        POKERKIT,
        "untrimmed antes (PHH ante_trimming_status false): the antes, posted before "
        "the blinds, form one main pot that every player in the hand can win (R3: an "
        "ante is its poster's money, a player all-in on it wins from each opponent at "
        "most what they put in; a big-blind ante comes after the blind)",
        RULE,
        rule_variant="dead_antes",
        fits=_untrimmed_antes,
    ),
    Convention(
        "pokerkit-straddle-min-raise",
        POKERKIT,
        "a straddle is raised by a big blind (blinds 1/2, a straddle of 4, a raise to "
        "6; R3: the straddle counts as the big blind of the hand, a raise to 8)",
        RULE,
        rule_variant="straddle_raised_by_big_blind",
        codes=frozenset({"illegal"}),
        words=("minimum raise is to", "a full raise is to"),
        fits=_straddled,
    ),
    Convention(
        "pokerstars-sitting-out-fold",
        POKERSTARS,
        "a player sitting out who is all-in on a blind or the ante is folded: they give "
        "up the pots, their chips stay in them (R4: an all-in player makes no more "
        "decisions and stays in the hand for the pot they are all-in for)",
        STEP,
        fits=_folds_all_in_poster,
        warnings=frozenset({"unknown-cards"}),
        marks="site-fold",
    ),
    Convention(
        "pokerstars-short-all-in-min-raise",
        POKERSTARS,
        "no-limit: after an all-in raise of less than a full raise, the minimum "
        "raise is to the all-in plus its own increment (a big blind of 30, an "
        "all-in to 51, a raise to 72); R6: plus the last full raise, to 81",
        RULE,
        rule_variant="short_all_in_min_raise",
        codes=frozenset({"illegal"}),
        words=("minimum raise is to",),
        fits=_unfixed,
    ),
)

CONVENTION_BY_NAME = {c.name: c for c in CONVENTIONS}


def candidates(history: HandHistory, error: Problem) -> list[Convention]:
    """The conventions that could explain ``error``, our first error in ``history``."""
    return [c for c in CONVENTIONS if c.could_explain(history, error)]
