"""Preflop strength of the 169 starting hands, for the bots.

:func:`strength` is a starting hand's equity against one random hand,
heads-up to the river: 0.85 for aces, 0.32 for three-deuce offsuit.  The
table :data:`EQUITY` was computed with :func:`holdem.equity` (Monte Carlo,
400,000 deals a hand, seed 1; standard error under 0.0008), by running
this module: ``python -m holdem.bots.preflop`` prints it again.  A test
recomputes a sample of it.

>>> from holdem import parse_cards
>>> starting_hand(parse_cards("Ks As")), starting_hand(parse_cards("7c 2d"))
('AKs', '72o')
>>> round(strength(parse_cards("Ah Ad")), 2)
0.85
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANKS, Card
from ..equities import equity

__all__ = ["EQUITY", "STARTING_HANDS", "compute", "starting_hand", "strength"]


def starting_hand(hole: Sequence[Card]) -> str:
    """The name of a starting hand: ``"AA"``, ``"AKs"`` (suited), ``"AKo"``."""
    a, b = hole
    high, low = (a, b) if a // 4 >= b // 4 else (b, a)
    ranks = RANKS[high // 4] + RANKS[low // 4]
    if high // 4 == low // 4:
        return ranks
    return ranks + ("s" if high % 4 == low % 4 else "o")


def strength(hole: Sequence[Card]) -> float:
    """A starting hand's equity against one random hand (see :data:`EQUITY`)."""
    return EQUITY[starting_hand(hole)]


def _names() -> tuple[str, ...]:
    out = []
    for i in range(12, -1, -1):
        for j in range(i, -1, -1):
            if i == j:
                out.append(RANKS[i] * 2)
            else:
                out.extend((RANKS[i] + RANKS[j] + "s", RANKS[i] + RANKS[j] + "o"))
    return tuple(out)


#: The 169 starting hands, from AA down.
STARTING_HANDS = _names()


def _example(name: str) -> str:
    """Two cards of a starting hand (spades and hearts)."""
    if len(name) == 2:
        return f"{name[0]}s{name[1]}h"
    return f"{name[0]}s{name[1]}{'s' if name[2] == 's' else 'h'}"


def compute(names: Sequence[str] = STARTING_HANDS, trials: int = 400_000) -> dict[str, float]:
    """Each starting hand's equity against one random hand (Monte Carlo, seed 1)."""
    return {
        name: round(equity([_example(name), "random"], trials=trials, seed=1).players[0].equity, 4)
        for name in names
    }


#: Equity against one random hand of each starting hand (see the module's notes).
EQUITY: dict[str, float] = {
    "AA": 0.8517,
    "AKs": 0.6703,
    "AKo": 0.6534,
    "AQs": 0.6636,
    "AQo": 0.6439,
    "AJs": 0.6539,
    "AJo": 0.6358,
    "ATs": 0.6455,
    "ATo": 0.6268,
    "A9s": 0.6276,
    "A9o": 0.6089,
    "A8s": 0.6199,
    "A8o": 0.5988,
    "A7s": 0.6102,
    "A7o": 0.5873,
    "A6s": 0.5985,
    "A6o": 0.5769,
    "A5s": 0.5985,
    "A5o": 0.5772,
    "A4s": 0.5911,
    "A4o": 0.5685,
    "A3s": 0.5831,
    "A3o": 0.559,
    "A2s": 0.5738,
    "A2o": 0.5502,
    "KK": 0.8247,
    "KQs": 0.6334,
    "KQo": 0.6134,
    "KJs": 0.625,
    "KJo": 0.6052,
    "KTs": 0.6176,
    "KTo": 0.5965,
    "K9s": 0.6002,
    "K9o": 0.579,
    "K8s": 0.5832,
    "K8o": 0.5599,
    "K7s": 0.5744,
    "K7o": 0.5516,
    "K6s": 0.5657,
    "K6o": 0.5423,
    "K5s": 0.5581,
    "K5o": 0.5331,
    "K4s": 0.5503,
    "K4o": 0.5232,
    "K3s": 0.5425,
    "K3o": 0.5151,
    "K2s": 0.5315,
    "K2o": 0.5052,
    "QQ": 0.7989,
    "QJs": 0.6024,
    "QJo": 0.5819,
    "QTs": 0.5947,
    "QTo": 0.5723,
    "Q9s": 0.5774,
    "Q9o": 0.5538,
    "Q8s": 0.5594,
    "Q8o": 0.5362,
    "Q7s": 0.5427,
    "Q7o": 0.518,
    "Q6s": 0.5371,
    "Q6o": 0.5121,
    "Q5s": 0.5279,
    "Q5o": 0.5011,
    "Q4s": 0.5193,
    "Q4o": 0.4919,
    "Q3s": 0.5105,
    "Q3o": 0.4818,
    "Q2s": 0.501,
    "Q2o": 0.4739,
    "JJ": 0.7747,
    "JTs": 0.5748,
    "JTo": 0.5523,
    "J9s": 0.5556,
    "J9o": 0.5324,
    "J8s": 0.5411,
    "J8o": 0.5144,
    "J7s": 0.5235,
    "J7o": 0.497,
    "J6s": 0.5052,
    "J6o": 0.4796,
    "J5s": 0.4992,
    "J5o": 0.4713,
    "J4s": 0.492,
    "J4o": 0.4626,
    "J3s": 0.4823,
    "J3o": 0.4522,
    "J2s": 0.473,
    "J2o": 0.4434,
    "TT": 0.7502,
    "T9s": 0.5386,
    "T9o": 0.5156,
    "T8s": 0.5233,
    "T8o": 0.4968,
    "T7s": 0.5053,
    "T7o": 0.4795,
    "T6s": 0.4875,
    "T6o": 0.4599,
    "T5s": 0.4722,
    "T5o": 0.4428,
    "T4s": 0.4651,
    "T4o": 0.436,
    "T3s": 0.457,
    "T3o": 0.4255,
    "T2s": 0.4479,
    "T2o": 0.4169,
    "99": 0.7209,
    "98s": 0.5071,
    "98o": 0.4804,
    "97s": 0.4898,
    "97o": 0.4627,
    "96s": 0.4729,
    "96o": 0.4448,
    "95s": 0.4567,
    "95o": 0.4269,
    "94s": 0.4385,
    "94o": 0.4071,
    "93s": 0.4329,
    "93o": 0.3992,
    "92s": 0.4236,
    "92o": 0.3905,
    "88": 0.6923,
    "87s": 0.4791,
    "87o": 0.4502,
    "86s": 0.4622,
    "86o": 0.4316,
    "85s": 0.4452,
    "85o": 0.4143,
    "84s": 0.4267,
    "84o": 0.3955,
    "83s": 0.408,
    "83o": 0.374,
    "82s": 0.4017,
    "82o": 0.3673,
    "77": 0.6612,
    "76s": 0.4534,
    "76o": 0.4238,
    "75s": 0.436,
    "75o": 0.4036,
    "74s": 0.4194,
    "74o": 0.3854,
    "73s": 0.4001,
    "73o": 0.3653,
    "72s": 0.3812,
    "72o": 0.3462,
    "66": 0.6329,
    "65s": 0.4308,
    "65o": 0.4004,
    "64s": 0.4137,
    "64o": 0.3796,
    "63s": 0.3945,
    "63o": 0.3604,
    "62s": 0.3764,
    "62o": 0.3403,
    "55": 0.6027,
    "54s": 0.4151,
    "54o": 0.3826,
    "53s": 0.3968,
    "53o": 0.3625,
    "52s": 0.3795,
    "52o": 0.3425,
    "44": 0.5703,
    "43s": 0.3864,
    "43o": 0.3506,
    "42s": 0.3688,
    "42o": 0.3317,
    "33": 0.5365,
    "32s": 0.3596,
    "32o": 0.3225,
    "22": 0.5016,
}


if __name__ == "__main__":  # print the table again
    for name, value in compute().items():
        print(f"{name} {value:.4f}")
