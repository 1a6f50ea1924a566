"""Tournament blind schedules (issue 11, item 3; RULES.md R11): the default
schedule's levels, the rise rule, levels by hands and by minutes, the text
form and the wire form."""

from __future__ import annotations

import doctest
import json
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_wire import check  # validates data against $defs/<shape> of the schema

from holdem.config import MAX_CHIPS, HandConfig
from holdem.errors import ConfigError, WireError
from holdem.table import schedule as schedule_module
from holdem.table.schedule import Level, Schedule, clean_amounts, rise
from holdem.wire import schema

CLEAN = frozenset(clean_amounts(MAX_CHIPS))


def test_docstring_examples() -> None:
    result = doctest.testmod(schedule_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_r11_default_schedule_first_levels() -> None:
    """R11: 10/20, then about 25% up every 10 hands, in clean amounts."""
    levels = Schedule.default().first(21)
    assert [(level.small_blind, level.big_blind) for level in levels] == [
        (10, 20), (12, 24), (15, 30), (20, 40), (25, 50), (30, 60), (40, 80),
        (50, 100), (60, 120), (80, 160), (100, 200), (120, 240), (150, 300),
        (200, 400), (250, 500), (300, 600), (400, 800), (500, 1000), (600, 1200),
        (800, 1600), (1000, 2000),
    ]  # fmt: skip
    assert all(level.hands == 10 and level.ante == 0 for level in levels)
    assert not any(level.big_blind_ante for level in levels)


def test_r11_default_levels_change_every_10_hands() -> None:
    schedule = Schedule.default()
    assert [schedule.level_at(hands, 0.0)[0] for hands in (0, 9, 10, 19, 20, 95, 1000)] == [
        0, 0, 1, 1, 2, 9, 100,
    ]  # fmt: skip
    assert schedule.level_at(1000, 0.0)[1] == schedule.level(100)
    # a default schedule is by hands: the clock does not move it
    assert schedule.level_at(0, 10**6)[0] == 0


def test_r11_the_default_big_blind_is_always_twice_the_small_blind() -> None:
    """R11: the big blind exactly twice the small blind at every level (8 of
    the first 40 levels were not: 12/25, 80/150 ...), up to the last level
    the engine takes."""
    levels = Schedule.default().first(200)
    assert [level for level in levels if level.big_blind != 2 * level.small_blind] == []
    assert levels[-1] == Level(4 * 10**16, 8 * 10**16, hands=10) == Schedule.default().level(10**9)


def test_r11_default_blinds_are_clean_and_rise_about_25_percent() -> None:
    """R11's rounding: every small blind is a clean amount (Renard's R''10
    series in whole chips, docs/tables.md), the big blind twice it; each level
    20% to 33% above the last, ten levels exactly ten times as much."""
    levels = Schedule.default().first(170)
    for before, after in pairwise(levels):
        assert after.small_blind >= before.small_blind
        if after.small_blind < 4 * 10**16:  # the top level, below MAX_CHIPS
            assert 1.19 < after.small_blind / before.small_blind < 1.34  # about 25%
    for level in levels:
        assert level.small_blind in CLEAN and level.big_blind == 2 * level.small_blind
    assert all(levels[i + 10].big_blind == 10 * levels[i].big_blind for i in range(140))


@given(st.integers(1, 8 * 10**16 - 1))
def test_r11_default_big_blind_passes_any_stack_within_bounded_levels(stack: int) -> None:
    """A default game always ends: the big blind outgrows any stack the engine
    takes, within ten levels per digit of the stack."""
    bound = 10 * len(str(stack))
    schedule = Schedule.default()
    assert schedule.level(bound).big_blind > stack
    # every level is one the engine plays
    level = schedule.level(bound)
    HandConfig(
        stacks=(stack, stack), button=0, small_blind=level.small_blind, big_blind=level.big_blind
    )


def test_the_levels_stop_at_the_largest_clean_amount_the_engine_takes() -> None:
    top = Schedule.default().level(10**9)
    assert 2 * top.small_blind == top.big_blind == 8 * 10**16 < MAX_CHIPS
    assert Schedule.default().level_at(10**12, 0.0)[1] == top
    assert rise(9 * 10**16) == 9 * 10**16  # never down


@given(st.integers(0, 10**12), st.integers(0, 40))  # below the top amount
def test_rise_is_clean_monotone_and_counts_steps(amount: int, steps: int) -> None:
    raised = rise(amount, steps)
    if amount == 0 or steps == 0:
        assert raised == amount
        return
    assert raised > amount and raised in CLEAN
    assert rise(amount, steps + 1) > raised
    assert rise(raised, 1) == rise(amount, steps + 1)
    assert rise(amount + 1, steps) >= raised  # a larger amount never rises below


def test_a_custom_schedule_keeps_rising_after_its_last_level() -> None:
    schedule = Schedule.parse("25/50, 50/100/10, 75/150/150bba")
    assert [str(level) for level in schedule.first(6)] == [
        "25/50@10h", "50/100/10@10h", "75/150/150bba@10h",
        "80/160/160bba@10h", "100/200/200bba@10h", "120/240/240bba@10h",
    ]  # fmt: skip
    # a level of another ratio raises each blind on its own, the ante too
    assert [str(level) for level in Schedule.parse("10/25/5").first(3)] == [
        "10/25/5@10h", "12/30/6@10h", "15/40/8@10h",
    ]  # fmt: skip
    assert schedule.level_at(30, 0.0)[0] == 3 and schedule.level_at(45, 0.0)[0] == 4


def test_a_schedule_may_stay_at_its_last_level() -> None:
    schedule = Schedule([Level(10, 20, hands=5), Level(20, 40, hands=5)], after_last="stay")
    assert schedule.level(7) == schedule.levels[-1]
    assert schedule.level_at(10**6, 0.0) == (1, schedule.levels[-1])
    assert str(schedule) == "@5h, 10/20, 20/40, stay"


def test_levels_by_minutes_follow_an_injected_clock() -> None:
    schedule = Schedule(
        [Level(10, 20, minutes=15), Level(15, 30, minutes=15), Level(25, 50, 5, minutes=20)]
    )
    assert schedule.by_minutes
    seen = [schedule.level_at(hands, seconds)[0] for hands, seconds in [
        (0, 0.0), (500, 0.0), (3, 899.999), (3, 900.0), (9, 1799.0), (9, 1800.0),
        (20, 2999.0), (20, 3000.0), (20, 4199.0), (20, 4200.0),
    ]]  # fmt: skip
    assert seen == [0, 0, 0, 1, 1, 2, 2, 3, 3, 4]
    assert str(schedule.level_at(20, 3000.0)[1]) == "30/60/6@20m"
    with pytest.raises(ConfigError, match="seconds"):
        schedule.level_at(0, -1.0)
    with pytest.raises(ConfigError, match="hands_played"):
        schedule.level_at(-1, 0.0)


def test_a_mix_of_levels_by_hands_and_by_minutes_is_refused() -> None:
    with pytest.raises(ConfigError, match="level 1 is by hands, level 2 by minutes") as caught:
        Schedule([Level(10, 20, hands=10), Level(20, 40, minutes=10)])
    assert caught.value.field == "levels"
    with pytest.raises(ConfigError, match="level 2 has no length"):
        Schedule([Level(10, 20, hands=10), Level(20, 40)])
    with pytest.raises(ConfigError, match="at least one level"):
        Schedule([])
    with pytest.raises(ConfigError, match="after_last"):
        Schedule([Level(10, 20, hands=10)], after_last="fall")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"small_blind": 0, "big_blind": 20}, "small_blind", "at least 1"),
        ({"small_blind": 30, "big_blind": 20}, "small_blind", "at most the big blind"),
        ({"small_blind": True, "big_blind": 20}, "small_blind", "integer"),
        ({"small_blind": 10, "big_blind": 10**17}, "big_blind", "10\\*\\*17"),
        ({"small_blind": 10, "big_blind": 20, "ante": -1}, "ante", "at least 0"),
        ({"small_blind": 10, "big_blind": 20, "hands": 0}, "hands", "at least 1"),
        ({"small_blind": 10, "big_blind": 20, "minutes": 0.0}, "minutes", "above 0"),
        ({"small_blind": 10, "big_blind": 20, "minutes": float("nan")}, "minutes", "above 0"),
        ({"small_blind": 10, "big_blind": 20, "hands": 5, "minutes": 5}, "minutes", "not both"),
        ({"small_blind": 10, "big_blind": 20, "big_blind_ante": 1}, "big_blind_ante", "True"),
    ],
)
def test_a_bad_level_is_refused_naming_the_field(
    kwargs: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        Level(**kwargs)
    assert caught.value.field == field


def test_the_text_form() -> None:
    schedule = Schedule.parse(" 10/20 ,15/30,25/50/5 ")
    assert schedule.levels == (
        Level(10, 20, hands=10), Level(15, 30, hands=10), Level(25, 50, 5, hands=10),
    )  # fmt: skip
    assert Schedule.parse("@15m, 10/20, 20/40@20M, 40/80/40BBA").levels == (
        Level(10, 20, minutes=15), Level(20, 40, minutes=20),
        Level(40, 80, 40, big_blind_ante=True, minutes=15),
    )  # fmt: skip
    assert Schedule.parse("10/20@7.5m, stay").levels[0].minutes == 7.5
    assert Schedule.parse("10/20, 20/40 @ 12h, rise").levels[1].hands == 12
    assert Schedule.parse("10/20, stay").after_last == "stay"
    assert Schedule.parse("10/25").level(0) == Level(10, 25, hands=10)  # R3: 10/25 works
    assert Level.parse("2/5/1") == Level(2, 5, 1)
    assert str(Level(2, 5)) == "2/5" and str(Level(1, 2, 0, True, minutes=0.25)) == "1/2/0bba@0.25m"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("10/20,", "item 2 is empty"),
        ("10/20,,20/40", "item 2 is empty"),
        ("10", "level 1 '10': write a level as small/big blind"),
        ("10/20, 20/40/5/5", "level 2 '20/40/5/5': write a level as"),
        ("10/20, x/40", "level 2 'x/40': the small blind 'x' is not a whole number of chips"),
        ("10/20, 20/4O", "level 2 '20/4O': the big blind '4O' is not a whole number"),
        ("10/20, 20/40/5bb", "level 2 '20/40/5bb': the ante '5bb' is not a whole number"),
        ("10/20, 20/10", "level 2 '20/10': small_blind=20: must be at most the big blind"),
        ("0/20", "level 1 '0/20': small_blind=0: must be an integer of at least 1"),
        ("10/20@10", "level 1 '10/20@10': the length '10' is not a number of hands"),
        ("10/20@1.5h", "the length '1.5h' is not a number of hands \\('10h'\\) or of minutes"),
        ("10/20@0m", "level 1 '10/20@0m': the length '0m' must be more than 0"),
        ("@0h, 10/20", "item 1: the length '0h' must be more than 0"),
        ("@10h, @15m, 10/20", "two lengths for every level \\('@15m' is the second\\)"),
        ("10/20@10h, 20/40@15m", "level 1 is by hands, level 2 by minutes"),
        ("@15m, 10/20, 20/40@10h", "level 1 is by minutes, level 2 by hands"),
        ("stay, 10/20", "'stay' .* must be the last item, not item 1"),
        ("stay", "has no levels"),
        ("@10h", "has no levels"),
    ],
)
def test_text_errors_name_the_level_and_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        Schedule.parse(text)
    assert caught.value.field == "schedule"
    assert str(caught.value).startswith("invalid schedule: ")


def test_a_text_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(ConfigError, match="must be text"):
        Schedule.parse(None)  # type: ignore[arg-type]


minutes = st.one_of(
    st.integers(1, 600).map(float),
    st.floats(0.01, 10**6, allow_nan=False, allow_infinity=False),
)


@st.composite
def schedules(draw: st.DrawFn) -> Schedule:
    by_minutes = draw(st.booleans())
    same_length = draw(st.booleans())
    length = draw(minutes) if by_minutes else draw(st.integers(1, 500))
    levels = []
    for _ in range(draw(st.integers(1, 8))):
        big = draw(st.integers(1, 10**12))
        small = draw(st.integers(1, big))
        ante = draw(st.sampled_from([0, 0, 1, small, big]))
        bba = draw(st.booleans())
        if not same_length:
            length = draw(minutes) if by_minutes else draw(st.integers(1, 500))
        if by_minutes:
            levels.append(Level(small, big, ante, bba, minutes=length))
        else:
            levels.append(Level(small, big, ante, bba, hands=int(length)))
    return Schedule(levels, draw(st.sampled_from(["rise", "stay"])))


SCHEMA = schema()


@given(schedules())
def test_text_and_wire_forms_round_trip(schedule: Schedule) -> None:
    assert Schedule.parse(schedule.format()) == schedule
    assert Schedule.parse(schedule.format().upper()) == schedule
    data = json.loads(json.dumps(schedule.to_dict()))
    assert Schedule.from_dict(data) == schedule
    check("Schedule", data)
    for level in schedule.levels:
        assert Level.from_dict(level.to_dict()) == level
        check("Level", level.to_dict())
        assert Level.parse(str(level)) == level


@given(schedules(), st.integers(0, 10**5), st.floats(0, 10**8))
def test_level_at_agrees_with_walking_the_levels(
    schedule: Schedule, hands: int, seconds: float
) -> None:
    index, level = schedule.level_at(hands, seconds)
    assert level == schedule.level(index)
    count = seconds if schedule.by_minutes else hands
    lengths = [schedule.level(i).length or 0 for i in range(min(index, len(schedule.levels)) + 2)]
    assert 0 not in lengths
    # past the given levels every level is as long as the last one
    assert lengths[len(schedule.levels) :] == [schedule.levels[-1].length] * (
        len(lengths) - len(schedule.levels)
    )
    given = min(index, len(schedule.levels))
    start = sum(lengths[:given], 0.0) + (index - given) * lengths[-1]
    if index < len(schedule.levels) - 1 or schedule.after_last == "rise":
        length = level.length
        assert length is not None
        slack = 1e-9 * (start + length)
        assert start - slack <= count < start + length + slack


def test_the_schema_refuses_what_the_readers_refuse() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    bad_levels = [
        {"small_blind": 10, "big_blind": 20, "hands": 10, "minutes": 5},
        {"small_blind": 10, "big_blind": 20, "hands": 0},
        {"small_blind": 10, "big_blind": 20, "minutes": "5"},
        {"small_blind": 10, "big_blind": 20, "speed": 1},
        {"small_blind": 10},
    ]
    validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/Level", **SCHEMA})
    for data in bad_levels:
        assert not validator.is_valid(data), data
        with pytest.raises((WireError, ConfigError)):
            Level.from_dict(data)
    no_length = {"levels": [{"small_blind": 10, "big_blind": 20}]}
    wrong_after = {"levels": [{"small_blind": 10, "big_blind": 20, "hands": 1}], "after_last": "x"}
    validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/Schedule", **SCHEMA})
    for data in (no_length, wrong_after, {"levels": []}, {"levels": {}}):
        assert not validator.is_valid(data), data
        with pytest.raises((WireError, ConfigError)):
            Schedule.from_dict(data)


def test_wire_errors_name_the_field() -> None:
    with pytest.raises(WireError, match=r"schedule\.levels\[1\]\.minutes: expected a number"):
        Schedule.from_dict(
            {"levels": [{"small_blind": 1, "big_blind": 2, "minutes": 1}, {"small_blind": 1,
             "big_blind": 2, "minutes": True}]}
        )  # fmt: skip
    with pytest.raises(WireError, match=r"schedule\.after_last: 'fall' is not one of rise, stay"):
        Schedule.from_dict({"levels": [{"small_blind": 1, "big_blind": 2, "hands": 1}],
                            "after_last": "fall"})  # fmt: skip
    with pytest.raises(WireError, match=r"level\.speed: unknown field"):
        Level.from_dict({"small_blind": 1, "big_blind": 2, "speed": 3})


@settings(max_examples=200)
@given(
    st.lists(st.integers(1, 30), min_size=1, max_size=5),
    st.booleans(),
    st.sampled_from(["rise", "stay"]),
)
def test_end_of_a_level_is_where_level_at_moves_on(
    lengths: list[int], minutes: bool, after: str
) -> None:
    levels = [
        Level(10 * (i + 1), 20 * (i + 1), **({"minutes": n} if minutes else {"hands": n}))
        for i, n in enumerate(lengths)
    ]
    schedule = Schedule(levels, after_last=after)  # type: ignore[arg-type]
    for index in range(len(lengths) + 3):
        end = schedule.end_of(index)
        if end == float("inf"):
            assert after == "stay" and index >= len(lengths) - 1
            break
        at = (lambda count: schedule.level_at(0, count)) if minutes else (
            lambda count: schedule.level_at(int(count), 0.0))  # fmt: skip
        assert at(end)[0] == index + 1 and at(end - 1)[0] == index
