"""What a player types at the table (``holdem play``, ``holdem join``, the full
screen): short commands read into decisions, each refusal with its reason.

>>> from holdem import LegalActions
>>> from holdem.actions import ActionKind
>>> legal = LegalActions(seat=0, fold=True, call=40, wager=ActionKind.RAISE,
...                      min_to=80, max_to=1500, all_in=1500, bet=40)
>>> read_command("r 300", legal)
Decision(kind=<ActionKind.RAISE: 'raise'>, to=300, cards=())
>>> read_command("r 50", legal)
Refused(reason='a raise goes to 80 at least (you typed 50)')
>>> read_command("k", legal)
Refused(reason='you cannot check: there is a bet of 40 (call with c, or fold with f)')
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from holdem import Decision, Hand, LegalActions, PlayerView, Structure, evaluate
from holdem.actions import ActionKind
from holdem.errors import ConfigError, HoldemError
from holdem.sampling import play_betting
from holdem.units import ONE, chips_text, to_chips, unit_text

__all__ = [
    "HELP",
    "TWICE_SAID",
    "Command",
    "Refused",
    "menu",
    "read_command",
    "read_twice",
    "show_or_muck",
]

HELP = """\
Commands (a word or its first letter):
  f, fold          fold
  k, check         check (also x)
  c, call          call (or check, when there is nothing to call)
  b N, bet N       bet to N chips in all this round (b min, b max, b pot)
  r N, raise N     raise to N chips in all this round (r min, r max, r pot)
  a, allin         go all in
  t, table         show the table again
  show             show your cards of the last hand (having folded or won it uncontested)
  twice off        say no to running it twice from the next hand (twice on: yes again)
  help             this help
  quit             leave the game after this hand (you check or fold until it ends)
Amounts are what your bet comes to this round, not what you add: facing a bet
of 100, 'r 300' puts 300 in front of you in all."""


class Refused(NamedTuple):
    """A command that is not a legal decision now, and why."""

    reason: str


#: What a typed line can be: a decision, a word of the session (``help``,
#: ``table``, ``quit``, ``show``, ``twice on``, ``twice off``) or a refusal.
Command = Decision | str | Refused

_WORDS = {
    "f": "fold",
    "fold": "fold",
    "k": "check",
    "x": "check",
    "check": "check",
    "c": "call",
    "call": "call",
    "b": "bet",
    "bet": "bet",
    "r": "raise",
    "raise": "raise",
    "a": "allin",
    "allin": "allin",
    "all-in": "allin",
    "all_in": "allin",
    "shove": "allin",
    "t": "table",
    "table": "table",
    "h": "help",
    "?": "help",
    "help": "help",
    "show": "show",
    "twice": "twice",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}


#: What the player is told once they said yes or no to running it twice (R10).
TWICE_SAID = {
    True: "You agree to run it twice from the next hand (where everyone left is all in and "
    "agrees).",
    False: "You said no to running it twice: from the next hand, the board is run once.",
}


def read_twice(line: str) -> bool | Refused:
    """``twice on`` (or ``yes``): the player agrees to run it twice (R10),
    True; ``twice off`` (``no``): they say no, False; else why not."""
    words = line.strip().lower().split()
    agree = {"on": True, "yes": True, "off": False, "no": False}.get(" ".join(words[1:]))
    if words[:1] != ["twice"] or agree is None:
        return Refused(f"Not taken: {line.strip()!r}: 'twice off' says no to running it twice "
                       "from the next hand, 'twice on' yes again.")  # fmt: skip
    return agree


def read_command(
    line: str,
    legal: LegalActions,
    pot: int = 0,
    mine: int = 0,
    view: PlayerView | None = None,
) -> Command:
    """The decision (or session word, or refusal) a typed ``line`` means with
    the menu ``legal``; ``pot`` (chips in the middle, bets included) and
    ``mine`` (the player's bet this round) size ``b pot``/``r pot``; ``view``
    (the player's view of the hand) lets a refusal name the rule behind it
    (the structure's limit, a capped or unopened betting round), and gives
    the table's chip unit: amounts are typed and told in its money (R9)."""
    unit = view.config.unit if view is not None else ONE
    words = line.strip().lower().split()
    if not words:
        return Refused("type a command (help lists them)")
    if words[:2] == ["all", "in"]:
        words = ["allin", *words[2:]]
    word = _WORDS.get(words[0])
    if word is None:
        return Refused(f"no command {words[0]!r}: type help for the list")
    rest = words[1:]
    if word in ("help", "table", "quit", "show"):
        return word
    if word == "twice":  # (run it twice, R10: from the next hand)
        agree = read_twice(line)
        return agree if isinstance(agree, Refused) else f"twice {'on' if agree else 'off'}"
    if word in ("bet", "raise"):
        return _wager(word, rest, legal, pot + legal.bet - mine, view, unit)
    if rest:
        return Refused(f"{word} takes no amount (bet and raise do: 'r 300')")
    if word == "fold":
        return Decision.fold() if legal.fold else Refused("you cannot fold now")
    if word == "check":
        if legal.check:
            return Decision.check()
        if legal.call is not None:
            return Refused(
                f"you cannot check: there is a bet of {chips_text(legal.bet, unit)} "
                "(call with c, or fold with f)"
            )
        return Refused("you cannot check now")
    if word == "call":
        if legal.call is not None:
            return Decision.call()
        if legal.check:
            return Decision.check()  # nothing to call: 'c' checks, as in most rooms
        return Refused("there is nothing to call now")
    # allin (showdowns are not typed: the player's hand is shown, or mucked when beaten)
    if legal.all_in is not None:
        return Decision.all_in()
    if legal.wager is not None and legal.min_to is not None and legal.max_to is not None:
        # (more chips than the structure lets a bet or raise reach)
        noun, key = _noun(legal.wager)
        if _fixed(legal, view):
            return Refused(
                f"you cannot go all in now: in fixed limit {noun} goes to exactly "
                f"{chips_text(legal.min_to, unit)} ({key})"
            )
        return Refused(
            f"you cannot go all in now: the pot limit lets {noun} go to "
            f"{chips_text(legal.max_to, unit)} at most ({key} max)"
        )
    why = _no_wager(view)
    then = " (call with c, or fold with f)" if legal.call is not None else ""
    return Refused(f"you cannot go all in now: {why or 'you may not bet or raise'}{then}")


def _noun(kind: ActionKind) -> tuple[str, str]:
    """How a refusal names a wager of ``kind``, and its key."""
    return ("a bet", "b") if kind is ActionKind.BET else ("a raise", "r")


def _fixed(legal: LegalActions, view: PlayerView | None) -> bool:
    """Whether the game is fixed limit (without a view: a bet or raise of one
    amount that is not all the player has)."""
    if view is not None:
        return view.config.structure is Structure.FIXED_LIMIT
    return legal.min_to == legal.max_to and legal.max_to != legal.all_in


def _no_wager(view: PlayerView | None) -> str | None:
    """Why the player to act may make no full bet or raise now, in the rules'
    words: the hand played again from the view's public log (cards of its own:
    only the betting counts).  None without a view, or when they may."""
    if view is None or view.actor is None:
        return None
    try:
        return play_betting(Hand(view.config, rng=0), view).why_no_wager(view.actor)
    except HoldemError:  # (a view this hand does not play again: no reason rather than a wrong one)
        return None


def _wager(
    word: str,
    rest: list[str],
    legal: LegalActions,
    pot_after_call: int,
    view: PlayerView | None,
    unit: Decimal = ONE,
) -> Command:
    def money(chips: int) -> str:
        return chips_text(chips, unit)

    kind = legal.wager
    if kind is None or legal.min_to is None or legal.max_to is None:
        if legal.all_in is not None and legal.call is not None and legal.all_in > legal.call:
            return Refused(f"you can only go all in for {money(legal.all_in)} (a), call or fold")
        why = _no_wager(view)
        because = f": {why}" if why else ""
        if legal.call is not None:
            return Refused(f"you cannot {word} now{because} (call with c, or fold with f)")
        return Refused(f"you cannot {word} now{because}")
    low, high = legal.min_to, legal.max_to
    noun, key = _noun(kind)
    example = money(low).replace(",", "")
    if len(rest) > 1:
        return Refused(f"one amount after {word}, e.g. '{key} {example}'")
    if not rest:
        if low == high:  # fixed limit: the one amount
            return Decision(kind, low)
        return Refused(
            f"say how much: {noun} goes to {money(low)} to {money(high)} (e.g. '{key} {example}')"
        )
    text = rest[0].replace(",", "").replace("_", "")
    if text == "min":
        to = low
    elif text in ("max", "all"):
        to = high
    elif text == "pot":
        # a pot-sized bet or raise: the call, then a raise by the pot after the call
        to = min(high, max(low, legal.bet + pot_after_call))
    elif text.isdigit() and unit is ONE:
        to = int(text)
    else:
        try:
            to = to_chips(text, unit)
        except ConfigError:
            whole = (
                "a whole number of chips"
                if unit is ONE
                else f"a whole number of {unit_text(unit)}s"
            )
            return Refused(f"{rest[0]!r} is not an amount: {whole}, min, max or pot")
    if to == legal.all_in and to > legal.bet:  # all in for less than a full raise
        return Decision.all_in()
    if (to < low or to > high) and _fixed(legal, view):
        return Refused(
            f"{noun} goes to exactly {money(low)} in fixed limit (you typed {money(to)})"
        )
    if to < low:
        return Refused(f"{noun} goes to {money(low)} at least (you typed {money(to)})")
    if to > high:
        if legal.all_in is not None and high >= legal.all_in:
            return Refused(
                f"{noun} goes to {money(high)} at most: that is all you have "
                f"(you typed {money(to)})"
            )
        return Refused(
            f"{noun} goes to {money(high)} at most: the pot limit (you typed {money(to)})"
        )
    return Decision(kind, to)


def menu(legal: LegalActions, mine: int = 0, unit: Decimal = ONE) -> str:
    """The legal decisions with their amounts and keys, on one line; ``mine``
    (the player's bet this round) makes a call's amount what it adds; the
    amounts in the money of the chip ``unit``."""

    def money(chips: int) -> str:
        return chips_text(chips, unit)

    parts = []
    if legal.fold:
        parts.append("f fold")
    if legal.check:
        parts.append("k check")
    all_in = legal.all_in
    if legal.call is not None:
        if all_in is not None and all_in <= legal.call:  # (the call is all in: one choice, c or a)
            parts.append(f"c call {money(legal.call - mine)} (all in)")
            all_in = None
        else:
            parts.append(f"c call {money(legal.call - mine)}")
    if legal.wager is not None and legal.min_to is not None and legal.max_to is not None:
        key, verb = ("b", "bet") if legal.wager is ActionKind.BET else ("r", "raise to")
        span = (
            money(legal.min_to)
            if legal.min_to == legal.max_to
            else f"{money(legal.min_to)}-{money(legal.max_to)}"
        )
        parts.append(f"{key} {verb} {span}")
    if all_in is not None:
        parts.append(f"a all in {money(all_in)}")
    return " · ".join(parts)


def show_or_muck(view: PlayerView, legal: LegalActions) -> Decision:
    """Shows, or mucks a hand a hand already shown beats (rooms' auto-muck)."""
    if not legal.muck or view.hole_cards is None or len(view.board) < 5:
        return Decision.show()
    mine = evaluate([*view.hole_cards, *view.board])
    best = max((evaluate([*cards, *view.board]) for _, cards in view.shown), default=-1)
    return Decision.muck() if best > mine else Decision.show()
