"""Tables across hands: seating, the button and the blinds, tournaments, cash
games, the turn timer, and the events of it all (RULES.md R3, R11-R13); a
table or a game between hands as JSON data (``snapshot()``, ``from_snapshot``).

See ``docs/tables.md``.
"""

from .cash import CashGame, CashResult
from .events import (
    ActionTaken,
    CardsShown,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    LevelUp,
    PlayerEliminated,
    SatIn,
    SatOut,
    SeatFreed,
    SeatTaken,
    event_from_dict,
)
from .schedule import Level, Schedule
from .seating import BUTTON_POLICIES, Plan, Positions, Seat, plan_hand
from .standings import Elimination, Placing, Standings, TournamentResult, eliminators
from .table import Decide, HandResult, Ledger, Rake, Table
from .timer import TimerRules, TurnTimer
from .tournament import Tournament

__all__ = [
    "BUTTON_POLICIES",
    "ActionTaken",
    "CardsShown",
    "CashGame",
    "CashResult",
    "ChipsAdded",
    "Decide",
    "Elimination",
    "Event",
    "HandEnded",
    "HandResult",
    "HandStarted",
    "Ledger",
    "Level",
    "LevelUp",
    "Placing",
    "Plan",
    "PlayerEliminated",
    "Positions",
    "Rake",
    "SatIn",
    "SatOut",
    "Schedule",
    "Seat",
    "SeatFreed",
    "SeatTaken",
    "Standings",
    "Table",
    "TimerRules",
    "Tournament",
    "TournamentResult",
    "TurnTimer",
    "eliminators",
    "event_from_dict",
    "plan_hand",
]
