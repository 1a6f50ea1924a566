# The hand engine's C core, built from csrc/hd_engine.c: the base class of holdem.hand.Hand.
from collections.abc import Sequence
from typing import Any

from .actions import Action, ActionKind, LegalActions, Phase, Street
from .pots import Outcome, Pot, ShownHand
from .views import PlayerView

def bind(
    address: int,
    kinds: tuple[ActionKind, ...],
    phases: tuple[Phase, ...],
    streets: tuple[Street, ...],
    action: type[Action],
    legal: type[LegalActions],
    view: type[PlayerView],
    slots: tuple[str, ...],
    /,
) -> None: ...
def bind_outcome(
    pot: type[Pot],
    pot_slots: tuple[str, ...],
    shown: type[ShownHand],
    shown_slots: tuple[str, ...],
    outcome: type[Outcome],
    outcome_slots: tuple[str, ...],
    /,
) -> None: ...
def bind_json(
    view: type[PlayerView],
    slots: tuple[str, ...],
    cards: tuple[str, ...],
    statuses: tuple[str, ...],
    kinds: tuple[str, ...],
    phases: tuple[str, ...],
    streets: tuple[str, ...],
    /,
) -> None: ...
def view_json(view: PlayerView, since: int, config_text: str, /) -> str | None: ...
def record_json(record: Action, /) -> str: ...
def bind_config(config: type[Any], slots: tuple[str, ...], max_chips: int, /) -> None: ...
def restack(config: Any, stacks: tuple[int, ...], hand_id: int | str | None, /) -> Any: ...
def script_cards(
    moves: tuple[Any, ...], n: int, kinds: tuple[str, ...], /
) -> tuple[list[tuple[int, int] | None], list[int | None]] | None: ...

class HandCore:
    # public
    @property
    def done(self) -> bool: ...
    @property
    def actor(self) -> int | None: ...
    @property
    def stacks(self) -> tuple[int, ...]: ...
    @property
    def log(self) -> tuple[Action, ...]: ...
    def fold(self, seat: int | None = None) -> Action: ...
    def check(self, seat: int | None = None) -> Action: ...
    def call(self, seat: int | None = None) -> Action: ...
    def check_or_call(self, seat: int | None = None) -> Action: ...
    def bet(self, to: int, seat: int | None = None) -> Action: ...
    def raise_to(self, to: int, seat: int | None = None) -> Action: ...
    def all_in(self, seat: int | None = None) -> Action: ...
    def timeout(self, seat: int | None = None) -> Action: ...
    def legal_actions(self) -> LegalActions | None: ...
    def view(self, seat: int | None) -> PlayerView: ...
    # for holdem.hand.Hand: positions (0..n-1), copies of the state
    _phase: Phase
    _street: Street
    _actor: int
    _bet: int
    _full: int
    _post_i: int
    _sd_i: int
    _aggressor: int
    _n: int
    _dealt: bool
    _face_up: bool
    _auto: bool
    _fixed: bool
    _stacks: list[int]
    _bets: list[int]
    _contrib: list[int]
    _faced: list[int]
    _returned: list[int]
    _status: list[int]
    _shown: list[bool]
    _vals: list[int]
    _hole: list[tuple[int, int] | None]
    _sd_order: tuple[int, ...]
    _stub: list[int | None]
    _board: list[int]
    _burns: list[int | None]
    _log: list[Action]
    _awards: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]
    def _setup(
        self,
        nos: tuple[int, ...],
        stacks: tuple[int, ...],
        auto: bool,
        structure: int,
        button: int,
        first: int,
        bb_seat: int,
        straddle_seat: int,
        big_blind: int,
        straddle: int,
        small_bet: int,
        big_bet: int,
        raise_cap: int,
        cap_policy: int,
        forced: tuple[tuple[ActionKind, int, int], ...],
        hole: list[tuple[int, int] | None] | None,
        stub: Sequence[int | None],
        rules: int,
        aggressor_mucks: bool,
        /,
    ) -> None: ...
    def _run(self) -> None: ...
    def _step(self) -> Action | None: ...
    def _show(self, p: int, /) -> Action: ...
    def _muck(self, p: int, /) -> Action: ...
    def _forfeit(self, p: int, /) -> Action: ...
    def _set_second_run(self, twice: int, stub: list[int | None], /) -> None: ...
    def _set_hole(self, p: int, a: int, b: int, /) -> None: ...
    def _default_showdown(self, p: int, /) -> ActionKind | None: ...
    def _range(self, p: int, /) -> tuple[int, int, int]: ...
    def _snap(self) -> bytes: ...
    def _load(self, snap: bytes, /) -> None: ...
    def _copy_to(self, other: HandCore, /) -> None: ...
    def _deal_in(self) -> None: ...
    def _play_script(
        self, moves: tuple[Any, ...], start: int, kinds: tuple[str, ...], showdown: list[Any], /
    ) -> int: ...
    def _finish_script(self, showdown: list[Any], kinds: tuple[str, ...], /) -> None: ...
    def _make_outcome(self) -> Outcome: ...
