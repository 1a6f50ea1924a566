"""HandConfig's checks and derived fields, over many combinations of settings.

A HandConfig may be built on more than one path (a quick one for the common
case); these tests compare what every path gives with an independent
computation of the rules (RULES.md R3), and build each bad configuration
right after a good one it differs from in one setting, so that nothing
learnt from the good one can let the bad one through.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields, replace
from decimal import Decimal
from typing import Any

import pytest
from conftest import hand_configs
from hypothesis import given
from hypothesis import strategies as st

from holdem import config as config_module
from holdem.actions import ActionKind
from holdem.config import MAX_CHIPS, HandConfig, HeadsUpCap, Post, Structure
from holdem.errors import ConfigError

Settings = dict[str, Any]
Forced = tuple[tuple[ActionKind, int, int], ...]

_FIXED = Structure.FIXED_LIMIT


class Chips(int):
    """An int subclass: accepted wherever an int is (not a bool)."""


# ------------------------------------------------------ the rules, again


def blind_seats(s: Settings) -> tuple[int | None, int, int | None]:
    """Small blind, big blind and straddle seats: the player left of the button
    and the next (heads-up the button has the small blind); without a small
    blind the first player left of the button has the big blind; the straddle
    is the player left of the big blind."""
    n, button = len(s["stacks"]), s["button"]
    left = [(button + 1 + i) % n for i in range(n)]
    if s.get("missing_small_blind") or not s["small_blind"]:
        small, big = None, left[0]
    elif n == 2:
        small, big = button, left[0]
    else:
        small, big = left[0], left[1]
    straddle = left[left.index(big) + 1] if s.get("straddle") else None
    return small, big, straddle


def forced_bets(s: Settings) -> Forced:
    """Antes from the button's left (or the big blind's ante after the blind),
    blinds, straddle, live posts, dead blinds."""
    n, button, ante = len(s["stacks"]), s["button"], s.get("ante", 0)
    small, big, straddle = blind_seats(s)
    bets: list[tuple[ActionKind, int, int]] = []
    if ante and not s.get("big_blind_ante"):
        bets += [(ActionKind.ANTE, (button + k) % n, ante) for k in range(1, n + 1)]
    if small is not None:
        bets.append((ActionKind.SMALL_BLIND, small, s["small_blind"]))
    bets.append((ActionKind.BIG_BLIND, big, s["big_blind"]))
    if ante and s.get("big_blind_ante"):
        bets.append((ActionKind.ANTE, big, ante))
    if straddle is not None:
        bets.append((ActionKind.STRADDLE, straddle, s["straddle"]))
    posts = list(s.get("posts", ()))
    bets += [(ActionKind.LIVE_POST, p.seat, p.amount) for p in posts if not p.dead]
    bets += [(ActionKind.DEAD_BLIND, p.seat, p.amount) for p in posts if p.dead]
    return tuple(bets)


def assert_as_the_rules_say(config: HandConfig, s: Settings) -> None:
    n = len(s["stacks"])
    small, big, straddle = blind_seats(s)
    assert config.stacks == tuple(s["stacks"]) and type(config.stacks) is tuple
    assert config.seat_numbers == (tuple(s.get("seats", ())) or tuple(range(n)))
    assert type(config.seat_numbers) is tuple
    assert (config.small_blind_seat, config.big_blind_seat) == (small, big)
    assert config.straddle_seat == straddle
    assert config.forced_bets == forced_bets(s) and type(config.forced_bets) is tuple
    assert all(type(bet) is tuple for bet in config.forced_bets)
    if s.get("structure") is _FIXED:
        assert config.small_bet == s["big_blind"]
        assert config.big_bet == (s.get("big_bet") or 2 * s["big_blind"])
    else:
        assert (config.small_bet, config.big_bet) == (0, 0)
    for name in ("posts", "seats", "names"):
        assert getattr(config, name) == tuple(s.get(name, ()))
        assert type(getattr(config, name)) is tuple


def derived(config: HandConfig) -> tuple[Any, ...]:
    return (
        config.seat_numbers,
        config.small_blind_seat,
        config.big_blind_seat,
        config.straddle_seat,
        config.forced_bets,
    )


# ---------------------------------------------------------------- settings


@st.composite
def good_settings(draw: st.DrawFn) -> Settings:
    """Valid keyword arguments of HandConfig; about half of them plain (blinds
    and stacks only), the others with some of every other setting."""
    n = draw(st.integers(2, 10))
    big = draw(st.sampled_from([1, 2, 2, 5, 100]))
    s: Settings = {
        "stacks": tuple(draw(st.lists(st.integers(1, 500), min_size=n, max_size=n))),
        "button": draw(st.integers(0, n - 1)),
        "small_blind": draw(st.sampled_from([big // 2, big // 2, 0, big])),
        "big_blind": big,
    }
    if draw(st.booleans()):
        return s
    structure = draw(st.sampled_from(list(Structure)))
    s["structure"] = structure
    s["ante"] = draw(st.sampled_from([0, 1, 3]))
    s["big_blind_ante"] = s["ante"] > 0 and draw(st.booleans())
    s["missing_small_blind"] = draw(st.booleans())
    s["dead_button"] = draw(st.booleans())
    if n >= 3 and structure is not _FIXED and draw(st.booleans()):
        s["straddle"] = draw(st.integers(2 * big, 4 * big))
    if structure is _FIXED:
        s["small_bet"] = draw(st.sampled_from([0, big]))
        s["big_bet"] = draw(st.sampled_from([0, big, 2 * big, 3 * big]))
    s["raise_cap"] = draw(st.integers(0, 5))
    s["heads_up_cap"] = draw(st.sampled_from(list(HeadsUpCap)))
    s["aggressor_may_muck"] = draw(st.booleans())
    s["hand_id"] = draw(st.one_of(st.none(), st.integers(0, 10**6), st.text(max_size=4)))
    if draw(st.booleans()):
        s["seats"] = tuple(sorted(draw(st.sets(st.integers(0, 99), min_size=n, max_size=n))))
    if draw(st.booleans()):
        s["names"] = tuple(draw(st.lists(st.none() | st.text(max_size=3), min_size=n, max_size=n)))
    s["posts"] = draw(good_posts(s))
    return s


@st.composite
def good_posts(draw: st.DrawFn, s: Settings) -> tuple[Post, ...]:
    """Live posts (at most the big blind, one a seat, none on a blind's seat) and dead blinds."""
    n = len(s["stacks"])
    free = sorted(set(range(n)) - set(blind_seats(s)))
    live = draw(st.lists(st.sampled_from(free), unique=True, max_size=2)) if free else []
    out = [Post(seat, draw(st.integers(1, s["big_blind"]))) for seat in live]
    for seat in draw(st.lists(st.integers(0, n - 1), max_size=2)):
        out.append(Post(seat, draw(st.integers(1, 3)), dead=True))
    return tuple(draw(st.permutations(out)))


# ------------------------------------------------------------ valid settings


@given(good_settings())
def test_valid_settings_derive_the_blinds_and_forced_bets_of_the_rules(s: Settings) -> None:
    config = HandConfig(**s)
    assert_as_the_rules_say(config, s)
    again = HandConfig(**s)
    assert again == config and hash(again) == hash(config) and repr(again) == repr(config)
    assert derived(again) == derived(config)


@given(hand_configs(max_players=10, extras=True))
def test_the_shared_configurations_derive_what_the_rules_say(config: HandConfig) -> None:
    s = {f.name: getattr(config, f.name) for f in fields(config) if f.init}
    assert_as_the_rules_say(config, s)


@given(good_settings())
def test_replace_and_the_wire_form_rebuild_the_same_configuration(s: Settings) -> None:
    config = HandConfig(**s)
    for copy in (replace(config), HandConfig.from_dict(config.to_dict())):
        assert copy == config and repr(copy) == repr(config)
        assert derived(copy) == derived(config)
    moved = replace(config, button=(config.button + 1) % config.players, posts=())
    assert_as_the_rules_say(moved, {**s, "button": moved.button, "posts": ()})


@given(good_settings(), st.data())
def test_a_restacked_configuration_is_the_one_built_anew(s: Settings, data: st.DataObject) -> None:
    """``restacked`` (the next hand of a table) gives what a new HandConfig
    with those stacks and hand id gives; other stacks (a bad count, another
    number of players) are refused, or taken, as a new configuration would."""
    config = HandConfig(**s)
    n = config.players
    stacks = tuple(data.draw(st.lists(st.integers(1, MAX_CHIPS - 1), min_size=n, max_size=n)))
    hand_id = data.draw(st.none() | st.integers(0, 10**6) | st.text(max_size=5))
    again = config.restacked(stacks, hand_id)
    built = HandConfig(**{**s, "stacks": stacks, "hand_id": hand_id})
    assert again == built and repr(again) == repr(built)
    assert derived(again) == derived(built)
    assert_as_the_rules_say(again, {**s, "stacks": stacks, "hand_id": hand_id})
    bad = data.draw(
        st.sampled_from(
            [
                (*stacks[:-1], 0),
                (*stacks[:-1], MAX_CHIPS),
                stacks[:-1],
                (*stacks, 5),
                (*stacks[:-1], True),
                (*stacks[:-1], "7"),
            ]
        )
    )
    outcomes: list[object] = []
    makers: tuple[Any, ...] = (
        lambda: config.restacked(bad, hand_id),  # type: ignore[arg-type]
        lambda: HandConfig(**{**s, "stacks": bad, "hand_id": hand_id}),
    )
    for make in makers:
        try:
            outcomes.append(make())
        except ConfigError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]  # (the same message, or another number of players taken)
    # an int subclass or a list: checked, and taken as a new configuration takes them
    other = config.restacked([Chips(c) for c in stacks], hand_id)  # type: ignore[arg-type]
    assert other == built


@given(good_settings(), st.data())
def test_other_spellings_of_a_setting_give_the_same_configuration(
    s: Settings, data: st.DataObject
) -> None:
    """Lists for tuples, enum values for members, int subclasses for ints,
    1 and 0 for True and False: before and after the plain spelling."""
    name = data.draw(st.sampled_from(sorted(SPELLINGS)))
    other = {**s, name: SPELLINGS[name](s[name] if name in s else DEFAULTS[name])}
    first = HandConfig(**other)
    plain = HandConfig(**s)
    again = HandConfig(**other)
    assert first == plain == again
    assert derived(first) == derived(plain) == derived(again)
    assert_as_the_rules_say(again, s)


DEFAULTS = {f.name: f.default for f in fields(HandConfig) if f.init and f.default is not MISSING}
SPELLINGS: dict[str, Any] = {
    "stacks": list,
    "button": Chips,
    "small_blind": Chips,
    "big_blind": Chips,
    "ante": Chips,
    "straddle": Chips,
    "raise_cap": Chips,
    "small_bet": Chips,
    "big_bet": Chips,
    "big_blind_ante": int,
    "missing_small_blind": int,
    "structure": lambda structure: structure.value.replace("_", "-"),
    "heads_up_cap": lambda cap: cap.value,
    "posts": list,
    "seats": list,
    "names": list,
}


@given(good_settings())
def test_flags_are_read_for_their_truth(s: Settings) -> None:
    """Any truth value does for big_blind_ante and missing_small_blind, even an
    unhashable one."""
    plain = HandConfig(**s)
    for name in ("big_blind_ante", "missing_small_blind"):
        flag = bool(s.get(name))
        config = HandConfig(**{**s, name: [1] if flag else []})
        assert derived(config) == derived(plain)


def neighbours(s: Settings) -> list[Settings]:
    """Valid settings that differ from ``s`` in one thing (and what it takes
    to stay valid): the button, either blind, the ante or its kind, the
    straddle, the missing small blind, the structure, the fixed-limit big bet,
    the raise cap or the number of players."""
    n, big, structure = len(s["stacks"]), s["big_blind"], s.get("structure")
    ante, straddle = s.get("ante", 0), s.get("straddle", 0)
    out: list[Settings] = [
        {"button": (s["button"] + 1) % n},
        {"small_blind": 0 if s["small_blind"] else 1},
        {"big_blind": big + 1, "straddle": 0, "small_bet": 0, "big_bet": 0},
        {"ante": ante + 1},
        {"ante": 0, "big_blind_ante": False},
        {"missing_small_blind": not s.get("missing_small_blind")},
        {"raise_cap": s.get("raise_cap", 3) + 1},
        {"stacks": (*s["stacks"], 7)} if n < 10 else {"stacks": s["stacks"][:-1], "button": 0},
    ]
    if ante:
        out.append({"big_blind_ante": not s.get("big_blind_ante")})
    if n >= 3 and structure is not _FIXED:
        out.append({"straddle": 0 if straddle else 2 * big})
    for other in Structure:
        if other is not structure:
            out.append({"structure": other, "straddle": 0, "small_bet": 0, "big_bet": 0})
    if structure is _FIXED:
        out.append({"big_bet": 0 if s.get("big_bet") else 3 * big})
    return [{**s, **change} for change in out]


@given(good_settings())
def test_neighbouring_settings_derive_their_own_fields(s: Settings) -> None:
    """Settings one change apart, built one after the other, each derive their own."""
    base = {**s, "posts": (), "seats": (), "names": ()}
    for near in neighbours(base):
        HandConfig(**base)
        assert_as_the_rules_say(HandConfig(**near), near)
        assert_as_the_rules_say(HandConfig(**base), base)


# ------------------------------------------------------------ bad settings


INTEGERS = ("button", "small_blind", "big_blind", "ante", "straddle")
INTEGERS += ("raise_cap", "small_bet", "big_bet")


@given(good_settings())
def test_a_number_of_another_type_is_refused_after_the_same_int(s: Settings) -> None:
    """1.0 for 1 and True for 1 are equal to it (and hash alike) but refused."""
    config = HandConfig(**s)
    for name in ("stacks", *INTEGERS):
        value = getattr(config, name)
        chips = value[0] if name == "stacks" else value
        others: list[Any] = [float(chips), *([bool(chips)] if chips in (0, 1) else [])]
        for other in others:
            spelled = (other, *value[1:]) if name == "stacks" else other
            HandConfig(**s)
            with pytest.raises(ConfigError) as err:
                HandConfig(**{**s, name: spelled})
            assert err.value.field == name, str(err.value)


def _bad_stack(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    stacks = list(s["stacks"])
    stacks[draw(st.integers(0, len(stacks) - 1))] = draw(
        st.sampled_from([0, -5, True, 2.5, "100", None])
    )
    return {"stacks": tuple(stacks)}, "stacks"


def _bad_player_count(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    return {"stacks": draw(st.sampled_from([(), s["stacks"][:1], (100,) * 11, 200]))}, "stacks"


def _bad_button(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    n = len(s["stacks"])
    button = draw(st.sampled_from([n, n + 3, -1, True, False, 1.0, "0", None]))
    return {"button": button}, "button"


def _bad_amount(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    name = draw(
        st.sampled_from(["small_blind", "big_blind", "ante", "straddle", "small_bet", "big_bet"])
    )
    low = 0 if name == "big_blind" else -1
    return {name: draw(st.sampled_from([low, -7, True, False, 2.0, 1.5, "2", None]))}, name


def _small_blind_above_big(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    return {"small_blind": s["big_blind"] + draw(st.integers(1, 3))}, "small_blind"


def _bad_raise_cap(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    return {"raise_cap": draw(st.sampled_from([-1, True, 2.5, None]))}, "raise_cap"


def _big_blind_ante_without_ante(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    return {"ante": 0, "big_blind_ante": draw(st.sampled_from([True, 1]))}, "big_blind_ante"


def _bad_enum(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    name = draw(st.sampled_from(["structure", "heads_up_cap"]))
    return {name: draw(st.sampled_from(["no limit", "sometimes", 3, None]))}, name


def _bad_straddle(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    """Below two big blinds, with two players, or in fixed-limit."""
    n, big = len(s["stacks"]), s["big_blind"]
    if n >= 3 and s.get("structure") is not _FIXED and big > 1 and draw(st.booleans()):
        return {"straddle": draw(st.integers(1, 2 * big - 1))}, "straddle"
    if n == 2 or draw(st.booleans()):
        two = {"stacks": s["stacks"][:2], "button": 0, "posts": (), "seats": (), "names": ()}
        return {**two, "straddle": 2 * big}, "straddle"
    return {"structure": _FIXED, "straddle": 2 * big, "small_bet": 0, "big_bet": 0}, "straddle"


def _bet_outside_fixed_limit(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    """Fixed-limit bets in another structure, or a fixed-limit small bet other
    than the big blind, or a big bet under the small bet."""
    big = s["big_blind"]
    if s.get("structure") is not _FIXED:
        name = draw(st.sampled_from(["small_bet", "big_bet"]))
        return {name: draw(st.integers(1, 10))}, name
    if big > 1 and draw(st.booleans()):
        return {"small_bet": 0, "big_bet": draw(st.integers(1, big - 1))}, "big_bet"
    return {"small_bet": draw(st.sampled_from([big + 1, 2 * big]))}, "small_bet"


def _bad_seats(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    n = len(s["stacks"])
    seats = draw(
        st.sampled_from(
            [
                tuple(range(n + 1)),
                tuple(range(n - 1)),
                tuple(range(99 - n + 2, 101)),
                tuple(reversed(range(n))),
                (0,) * n,
                (True, *range(2, n + 1)),
                (0.0, *range(1, n)),
            ]
        )
    )
    return {"seats": seats}, "seats"


def _bad_names(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    n = len(s["stacks"])
    names = draw(st.sampled_from([("a",) * (n + 1), ("a",) * (n - 1), (5,) * n, (b"x",) * n]))
    return {"names": names}, "names"


def _bad_post(s: Settings, draw: st.DrawFn) -> tuple[Settings, str]:
    """Not a Post, an unknown seat, no amount, or a live post on a blind's seat,
    a second live post of a seat or one over the big blind."""
    n, big = len(s["stacks"]), s["big_blind"]
    _, big_seat, _ = blind_seats(s)
    free = sorted(set(range(n)) - set(blind_seats(s)))
    seat = free[0] if free else big_seat
    bad: list[tuple[Any, ...]] = [
        ((seat, 1),),
        (Post(n, 1),),
        (Post(-1, 1, dead=True),),
        (Post(seat, 0),),
        (Post(seat, True),),
        (Post(seat, 1.5),),  # type: ignore[arg-type]
        (Post(big_seat, 1),),
        (Post(seat, big + 1),),
        (Post(seat, 1), Post(seat, 1)),
    ]
    return {"posts": draw(st.sampled_from(bad))}, "posts"


BAD = [
    _bad_stack,
    _bad_player_count,
    _bad_button,
    _bad_amount,
    _small_blind_above_big,
    _bad_raise_cap,
    _big_blind_ante_without_ante,
    _bad_enum,
    _bad_straddle,
    _bet_outside_fixed_limit,
    _bad_seats,
    _bad_names,
    _bad_post,
]


@given(good_settings(), st.data())
def test_a_bad_setting_is_refused_right_after_a_good_configuration(
    s: Settings, data: st.DataObject
) -> None:
    for bad in BAD:
        changes, name = bad(s, data.draw)
        HandConfig(**s)
        with pytest.raises(ConfigError) as err:
            HandConfig(**{**s, **changes})
        assert err.value.field == name, str(err.value)
        assert str(err.value).startswith(f"invalid {name}=")


# ------------------------------------------------------------- the signature


def test_the_constructor_takes_the_fields_in_order_with_their_defaults() -> None:
    params = list(inspect.signature(HandConfig).parameters.values())
    init_fields = [f for f in fields(HandConfig) if f.init]
    assert [p.name for p in params] == [f.name for f in init_fields]
    for param, f in zip(params, init_fields, strict=True):
        assert param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert param.default == (inspect.Parameter.empty if f.default is MISSING else f.default)
    config = HandConfig((100, 100), 1, 1, 2)
    assert [getattr(config, f.name) for f in fields(config)] == [
        (100, 100), 1, 1, 2, Structure.NO_LIMIT, 0, False, 0, False, False, (), 0, 0, 3,
        HeadsUpCap.TWO_LEFT, None, (), (), (), False, (), Decimal(1), (0, 1), 1, 0, None,
        ((ActionKind.SMALL_BLIND, 1, 1), (ActionKind.BIG_BLIND, 0, 2)),
    ]  # fmt: skip


# ------------------------------------------------------------ the quick path


def test_plain_configurations_like_one_checked_before_share_its_derived_fields() -> None:
    """The quick path is taken (so the tests above test it too), and only for
    plain settings."""
    first = HandConfig((200,) * 6, 5, 1, 2, ante=1)
    plain = HandConfig((90, 1, 7, 200, 3, 5), 5, 1, 2, ante=1)
    assert plain.forced_bets is first.forced_bets
    assert plain.seat_numbers is first.seat_numbers
    for other in ({"stacks": [200] * 6}, {"ante": Chips(1)}, {"posts": [], "names": []}):
        config = HandConfig(**{"stacks": (200,) * 6, "button": 5, "small_blind": 1,
                               "big_blind": 2, "ante": 1, **other})  # fmt: skip
        assert config.forced_bets == first.forced_bets
        assert config.forced_bets is not first.forced_bets


def test_the_derived_fields_kept_for_the_quick_path_stay_few() -> None:
    for big in range(1, 2 * config_module._DERIVED_MAX + 2):
        HandConfig((10**6, 10**6), 0, 1, big)
    assert 0 < len(config_module._DERIVED) <= config_module._DERIVED_MAX


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"stacks": (100, MAX_CHIPS)}, "stacks"),
        ({"big_blind": MAX_CHIPS, "stacks": (1, 1)}, "big_blind"),
        ({"ante": MAX_CHIPS}, "ante"),
        ({"straddle": MAX_CHIPS, "stacks": (5, 5, 5)}, "straddle"),
        ({"raise_cap": MAX_CHIPS}, "raise_cap"),
        ({"posts": (Post(0, MAX_CHIPS, dead=True),)}, "posts"),
    ],
)
def test_amounts_the_engine_cannot_count_are_refused(change: dict[str, Any], field: str) -> None:
    """The engine counts chips in 64-bit integers: a configuration with an amount of
    MAX_CHIPS or more is refused by name, whether or not one like it was seen before."""
    settings: dict[str, Any] = {"stacks": (100, 100), "button": 0, "small_blind": 1,
                                "big_blind": 2}  # fmt: skip
    HandConfig(**settings)  # a plain configuration like it is known
    with pytest.raises(ConfigError, match=r"below 10\*\*17") as caught:
        HandConfig(**(settings | change))
    assert caught.value.field == field


def test_the_largest_amounts_play_a_hand() -> None:
    from holdem.hand import Hand

    big = MAX_CHIPS - 1
    hand = Hand(HandConfig((big,) * 10, 0, big // 2, big - 1), rng=1)
    while not hand.done:
        hand.all_in() if hand.can_all_in() else hand.check_or_call()
    assert hand.outcome is not None
    assert sum(hand.stacks) == 10 * big
