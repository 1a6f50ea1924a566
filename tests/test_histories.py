"""Hand histories: PHH reading and writing, replay, validation, the corpus."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.cli.main import main
from holdem.errors import HistoryFormatError
from holdem.histories import (
    HandHistory,
    Problem,
    read_phh,
    read_phh_text,
    read_pokerstars,
    replay,
    states,
    validate,
    validate_file,
    validate_text,
    write_phh,
)

DATA = Path(__file__).parent / "data" / "phh"
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def hands_of(path: Path) -> list[HandHistory]:
    items = list(read_phh(path))
    assert all(isinstance(h, HandHistory) for h in items), items
    return items  # type: ignore[return-value]


@pytest.mark.parametrize("path", sorted(DATA.glob("ok_*")), ids=lambda p: p.name)
def test_valid_files_replay_cleanly(path: Path) -> None:
    report = validate_file(str(path))
    assert report.status == "OK", [str(p) for p in report.problems]
    assert report.hands >= 1


@pytest.mark.parametrize("path", sorted(DATA.glob("bad_*")), ids=lambda p: p.name)
def test_broken_files_report_the_problem_and_its_line(path: Path) -> None:
    # each broken file starts with: # expect: line N: what is reported
    m = re.match(r"# expect: line (\d+): (.*)", path.read_text(encoding="utf-8"))
    assert m, "the file must start with its expectation"
    line, message = int(m.group(1)), m.group(2)
    report = validate_file(str(path))
    assert report.status == "FAILED"
    errors = [p for p in report.problems if p.severity == "error"]
    assert len(errors) == 1, [str(p) for p in report.problems]
    assert errors[0].line == line, str(errors[0])
    assert message in errors[0].message


def test_amounts_are_exact_integers_in_the_smallest_unit() -> None:
    (hand,) = hands_of(DATA / "ok_heads_up_decimal.phh")
    assert str(hand.unit) == "0.01"
    assert [p.stack for p in hand.players] == [5000, 4210]
    # heads-up: the button (p2) posts the small blind
    assert hand.blinds.blinds == (50, 25)
    assert hand.to_text(4360) == "43.60"
    assert replay(hand).hand.outcome.stacks == (4850, 4360)  # type: ignore[union-attr]


def test_comments_user_fields_and_round_trip() -> None:
    (hand,) = hands_of(DATA / "ok_showdown.phh")
    assert hand.moves[4].comment == "a raise to 6"
    # a user field `_name` is kept as `name` (the writer puts the underscore back)
    assert hand.fields["source"] == "written by hand for the tests"
    assert [p.name for p in hand.players] == ["Ann", "Bob", "Cid"]
    for source in (
        DATA / "ok_showdown.phh",
        DATA / "ok_set.phhs",
        DATA / "ok_heads_up_decimal.phh",
    ):
        first = hands_of(source)
        out = io.StringIO()
        write_phh(first, out)
        again = list(read_phh_text(out.getvalue(), path=str(source)))
        assert [_essentials(h) for h in again] == [_essentials(h) for h in first]


def test_user_fields_that_are_tables_are_written_inline() -> None:
    """A table field written as a ``[name]`` header would start another hand of a
    set when read back: it is written inline (found by the long fuzz run)."""
    (hand,) = hands_of(DATA / "ok_showdown.phh")
    fields = {"a": {"trimming": True, "odd key": [1, {"b": "q'\""}], "empty": {}}}
    hand = dataclasses.replace(hand, fields=fields)
    for many in (False, True):
        out = io.StringIO()
        write_phh([hand, hand] if many else [hand], out)
        assert "\n[a]" not in out.getvalue()
        again = list(read_phh_text(out.getvalue()))
        assert [_essentials(h) for h in again] == [_essentials(hand)] * (1 + many)


def _essentials(h: HandHistory | Problem) -> tuple[object, ...]:
    assert isinstance(h, HandHistory), str(h)
    moves = tuple((m.kind, m.actor, m.to, m.cards, m.comment) for m in h.moves)
    return (h.variant, h.players, h.blinds, moves, h.claims.finishing_stacks,
            h.claims.winnings, h.unit, h.fields)  # fmt: skip


def test_states_iterates_the_engine_states() -> None:
    (hand,) = hands_of(DATA / "ok_showdown.phh")
    seen = list(states(hand))
    played = [m for m in hand.moves if m.kind not in ("deal_hole", "show", "muck")]
    assert len(seen) == 1 + len(played) + 1  # dealt, after each bet and street, the end
    assert seen[-1].done and seen[-1].outcome.stacks == (114, 286, 200)  # type: ignore[union-attr]
    assert not seen[0].done


VALID = (DATA / "ok_showdown.phh").read_text(encoding="utf-8")


@settings(max_examples=150)
@given(st.data())
def test_mutated_files_only_give_documented_results(data: st.DataObject) -> None:
    lines = VALID.splitlines(keepends=True)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "edit"]))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        else:
            text = lines[i]
            j = data.draw(st.integers(0, max(0, len(text) - 1)))
            ch = data.draw(st.sampled_from(list("0123456789[]',=#pdfcbrsm ?AKsh\n")))
            lines[i] = text[:j] + ch + text[j + 1 :]
    for item in read_phh_text("".join(lines) + "\n", path="fuzz.phh"):
        assert isinstance(item, (HandHistory, Problem))
        if isinstance(item, HandHistory):
            for problem in validate(item):
                assert problem.severity in ("error", "warning", "unsupported")


@given(st.text(max_size=200))
def test_random_text_only_gives_documented_results(text: str) -> None:
    try:
        for item in read_phh_text(text + "\n=", path="random.phh"):
            assert isinstance(item, (HandHistory, Problem))
    except HistoryFormatError as exc:  # a NUL character: not text
        assert "\0" in text and "NUL" in str(exc)


def test_validate_cli_exit_codes_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(main, ["validate", str(DATA / "ok_showdown.phh")])
    assert ok.exit_code == 0, ok.output
    assert "OK (1 hand)" in ok.stdout
    bad = runner.invoke(main, ["validate", str(DATA)])
    assert bad.exit_code == 1
    assert "bad_min_raise.phh:8: error: p1 bets or raises to 3" in bad.stdout
    assert re.search(
        r"16 files: 5 OK, 1 OK with warnings, 10 FAILED; 17 hands; 10 errors, 1 warning", bad.stdout
    )
    js = runner.invoke(main, ["validate", "--json", str(DATA / "bad_turn_order.phh")])
    assert js.exit_code == 1
    record = json.loads(js.stdout)
    assert record["files"][0]["status"] == "FAILED"
    assert record["files"][0]["problems"][0]["line"] == 8
    missing = runner.invoke(main, ["validate", str(tmp_path / "nope.phh")])
    assert missing.exit_code == 2
    assert "no such file or folder" in missing.stderr
    empty = runner.invoke(main, ["validate", str(tmp_path)])
    assert empty.exit_code == 2


def test_validate_strict_fails_on_warnings(tmp_path: Path) -> None:
    text = VALID.replace("'p2 sm QdQh',\n  'p1 sm',", "'p1 sm',\n  'p2 sm QdQh',")
    path = tmp_path / "order.phh"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    relaxed = runner.invoke(main, ["validate", str(path)])
    assert relaxed.exit_code == 0 and "OK with warnings" in relaxed.stdout
    assert runner.invoke(main, ["validate", "--strict", str(path)]).exit_code == 1


def test_validate_jobs_gives_the_same_report() -> None:
    runner = CliRunner()
    one = runner.invoke(main, ["validate", "--json", str(DATA)])
    two = runner.invoke(main, ["validate", "--json", "--jobs", "2", str(DATA)])
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_convert_phh_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "copy.phhs"
    result = CliRunner().invoke(main, ["convert", str(DATA / "ok_set.phhs"), "--to", "phh",
                                       "-o", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert validate_file(str(out)).status == "OK"
    assert [_essentials(h) for h in hands_of(out)] == [
        _essentials(h) for h in hands_of(DATA / "ok_set.phhs")
    ]


# --- the conformance corpus -------------------------------------------------

#: Known irregularities of the PHH corpus (../shared/corpus/README.md), by code.
KNOWN_PHH = {
    "split-chip": 8,  # Pluribus pots split into half chips
    "ante-trimming": 1,  # WSOP 2019 file: ante_trimming_status = true with a big-blind ante
    "order": 1,  # WSOP 2019 file: the button's preflop fold is missing
    "winnings-unset": 25,  # HandHQ excerpt: winnings arrays left at 0
    "winnings-rake": 4,  # HandHQ excerpt: winnings net of the rake
    "unknown-cards": 4,  # HandHQ excerpt: shows written as 'sm ????'
}


@pytest.mark.skipif(not (CORPUS / "phh").is_dir(), reason="../shared/corpus/phh is not here")
def test_phh_corpus_is_ok_except_the_known_irregularities() -> None:
    from collections import Counter

    counts: Counter[str] = Counter()
    hands = 0
    for path in sorted((CORPUS / "phh").rglob("*.phh*")):
        report = validate_file(str(path))
        hands += report.hands
        for problem in report.problems:
            counts[problem.code] += 1
            if problem.code == "order":
                assert path.name == "00-01-07.phh"
            if problem.code == "split-chip":
                assert "pluribus" in path.parts
    assert hands == 10_056
    assert dict(counts) == KNOWN_PHH


def read_toml(lines: list[str]) -> Any:
    """The C reader of PHH's TOML, as phh.py calls it (None: left to tomllib)."""
    from datetime import time

    from holdem._fastcall import read_toml as c_read_toml
    from holdem.histories.phh import MAX_DEPTH, _decimal

    try:
        return c_read_toml(lines, 1, _decimal, time.fromisoformat, MAX_DEPTH - 1)
    except ValueError:
        return None


def agrees_with_tomllib(lines: list[str]) -> bool:
    """Whether the C reader reads the lines as tomllib does; False if it left them."""
    import tomllib
    from decimal import Decimal

    from holdem.histories.phh import _action_lines

    fast = read_toml(lines)
    if fast is None:
        return False
    text = "\n".join(lines)
    try:
        expected = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        raise AssertionError(f"the C reader accepted invalid TOML: {text!r}") from None
    data, action_lines, key_lines = fast

    # the same values of the same types (1.0 is no int; NaN is NaN), but an int
    # of 19 digits or more is a Decimal: the amount checks say it is too large
    def normal(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: normal(v) for k, v in value.items()}
        if isinstance(value, list):
            return [normal(v) for v in value]
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
            return Decimal(value)
        return value

    assert repr(normal(data)) == repr(normal(expected))
    if isinstance(data.get("actions"), list):
        assert action_lines == _action_lines(lines, 1)
    assert list(key_lines) == list(data)
    for key, number in key_lines.items():
        assert lines[number - 1].lstrip().startswith(key)
    return True


def edited_hand(data: st.DataObject, alphabet: str, actions: bool = False) -> list[str]:
    """The lines of the VALID hand with up to three characters changed (to one of
    ``alphabet``); with ``actions``, quoted strings are also replaced by
    actions that read (not always legal ones) or by random pieces."""
    lines = VALID.splitlines()
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        quoted = re.findall(r"'[^']*'", lines[i])
        how = data.draw(st.sampled_from(["action", "pieces", "character"])) if actions else ""
        if quoted and how in ("action", "pieces"):
            words = data.draw(
                st.tuples(
                    st.sampled_from(["p1", "p2", "p3", "p4", "d"]),
                    st.sampled_from(["f", "cc", "cbr", "sm", "db", "dh"]),
                    st.sampled_from(["", "6", "AsKs", "Qs9s2h", "-", "????", "3c", "p1 AsKs"]),
                    st.sampled_from(["", " # note", "#"]),
                )
                if how == "action"
                else st.lists(st.sampled_from(ACTION_PIECES), min_size=0, max_size=4)
            )
            lines[i] = lines[i].replace(quoted[0], repr(" ".join(words)), 1)
            continue
        text = lines[i]
        j = data.draw(st.integers(0, max(0, len(text) - 1)))
        lines[i] = text[:j] + data.draw(st.sampled_from(alphabet)) + text[j + 1 :]
    return lines


@settings(max_examples=300)
@given(st.data())
def test_c_toml_reader_agrees_with_tomllib_on_edited_hands(data: st.DataObject) -> None:
    lines = edited_hand(data, "0123456789[]',=#\"._ -ainf\n:e+")
    agrees_with_tomllib("\n".join(lines).split("\n"))  # as a file reads them


#: Pieces of TOML, right and wrong, for hands made of random pieces.
TOKENS = (
    "'a'", '"b"', "'é'", '"x\\\\y"', "1", "-2", "+3", "0", "01", "1.5", "1.", "1e5", "1e",
    "inf", "nan", "-inf", "true", "false", "truex", "12:30:00", "25:61:00", "12:30:00.5",
    "12:30", "[", "]", ",", " ", "\t", "#c", "\u00a0", "x", "=", "k", "1.5.3",
    "123456789012345678", "1234567890123456789", "'", '"', "-", "\x01",
)  # fmt: skip


@settings(max_examples=1000)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "actions", "b", ""]),
            st.booleans(),
            st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from(["", " ", ","]))),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_c_toml_reader_agrees_with_tomllib_on_random_pieces(
    lines: list[tuple[str, bool, list[tuple[str, str]]]],
) -> None:
    text = [
        (f"{key} = " if assign else "") + "".join(a + b for a, b in body)
        for key, assign, body in lines
    ]
    agrees_with_tomllib(text)


def test_c_toml_reader_reads_the_plain_toml_of_phh_files() -> None:
    from datetime import time
    from decimal import Decimal

    lines = [
        "variant = 'NT'  # no-limit",
        "antes = [0, 0.5, 1e3]",
        "actions = [",
        "  'd dh p1 ????',  # a comment",
        '  "p1 f",',
        "]",
        "time = 09:30:00",
        "big = 1234567890123456789",
        "flag = true",
    ]
    assert agrees_with_tomllib(lines)
    data, action_lines, key_lines = read_toml(lines)
    assert data["antes"] == [0, Decimal("0.5"), Decimal("1E+3")]
    assert data["big"] == Decimal(1234567890123456789) and data["time"] == time(9, 30)
    assert action_lines == [4, 5] and key_lines["time"] == 7
    # left to tomllib: escapes, Unicode white space, a key twice, inline tables
    for left in (['n = "a\\tb"'], ["n =\u00a01"], ["n = 1", "n = 2"], ["n = {a = 1}"]):
        assert read_toml(left) is None, left


def corpus_phh_hands() -> Iterator[tuple[Path, list[str]]]:
    """Each hand of the PHH corpus: its file, and its lines (without its header)."""
    from holdem.histories.phh import _table_name

    for path in sorted((CORPUS / "phh").rglob("*.phh*")):
        hand: list[str] = []
        for line in [*path.read_text(encoding="utf-8").split("\n"), "[end]"]:
            if _table_name(line) is None:
                hand.append(line)
            elif any(x.strip() and not x.lstrip().startswith("#") for x in hand):
                yield path, hand
                hand = []


@pytest.mark.skipif(not (CORPUS / "phh").is_dir(), reason="../shared/corpus/phh is not here")
def test_c_toml_reader_reads_every_corpus_hand_as_tomllib_does() -> None:
    hands = 0
    for path, hand in corpus_phh_hands():
        assert agrees_with_tomllib(hand), (path, hand)
        hands += 1
    assert hands == 10_056


def build_both(lines: list[str]) -> bool:
    """Whether the C builder of plain PHH hands builds the hand of these lines as
    the Python reader does (the same HandHistory, field for field); False when
    it leaves the hand to Python.  A hand the Python reader refuses must be
    left to it."""
    import tomllib
    from decimal import Decimal

    from holdem.histories import phh

    fast = read_toml(lines)
    if fast is None:
        try:
            data = tomllib.loads("\n".join(lines), parse_float=Decimal)
        except (tomllib.TOMLDecodeError, ValueError):
            return False
        action_lines, key_lines = phh._action_lines(lines, 1), {}
    else:
        data, action_lines, key_lines = fast
    if phh.build_phh(dict(data), action_lines, 1, phh._PLAIN) is None:
        return False  # left to Python
    got = phh._build(dict(data), action_lines, key_lines, 1, "x.phh", None)
    try:
        want = phh._build_in_python(dict(data), action_lines, key_lines, 1, "x.phh", None)
    except Exception as exc:  # refused by Python: the C builder must have left it
        raise AssertionError(f"the C builder took a hand Python refuses ({exc}): {lines}") from exc
    assert got == want, lines
    assert [type(m) for m in got.moves] == [type(m) for m in want.moves]
    return True


#: Pieces of PHH actions, right and wrong, for edited hands.
ACTION_PIECES = (
    "p1", "p2", "p3", "p0", "p9", "p01", " ", "  ", "f", "cc", "cbr", "sm", "sd", "pb", "d",
    "db", "dh", "As", "Kd", "??", "-", "2c", "Th", "x", "#", "# note", "10", "0", "1.5",
    "99999999999999999", "1e3", "\u00e9", "\t",
)  # fmt: skip


@settings(max_examples=400)
@given(st.data())
def test_c_hand_builder_builds_edited_hands_as_python_does(data: st.DataObject) -> None:
    build_both(edited_hand(data, "0123456789[]',=#._ -pfcbrsmdh?AKsdT", actions=True))


@st.composite
def plain_hands(draw: st.DrawFn) -> list[str]:
    """The lines of a PHH hand the C builder takes: random fields and actions
    that read (legal play or not), heads-up and fixed-limit included."""
    n = draw(st.integers(2, 10))
    amounts = st.lists(st.integers(0, 10**15 - 1), min_size=n, max_size=n)
    player = st.integers(1, n).map(lambda i: f"p{i}")
    cards = st.sampled_from(["AsKs", "????", "2c7h", "Td??", "QdQh"])
    action = st.one_of(
        st.tuples(st.just("d dh"), player, cards).map(" ".join),
        st.sampled_from(["d db Qs9s2h", "d db 3c", "d db 8d4h"]),
        st.tuples(player, st.sampled_from(["f", "cc", "sm", "sm -", "sm AsKs", "sm ????"])).map(
            " ".join
        ),
        st.tuples(player, st.integers(0, 10**15 - 1)).map(lambda a: f"{a[0]} cbr {a[1]}"),
    )
    comment = st.sampled_from(["", " # a note", "#", " #  spaced  "])
    actions = draw(st.lists(st.tuples(action, comment).map("".join), max_size=30))
    fixed = draw(st.booleans())
    lines = [
        f"variant = '{'FT' if fixed else 'NT'}'",
        f"antes = {draw(amounts)}",
        f"blinds_or_straddles = {draw(amounts)}",
        *(["small_bet = 2", "big_bet = 4"] if fixed else ["min_bet = 2"]),
        f"starting_stacks = {draw(amounts)}",
        f"actions = {actions!r}",
    ]
    if draw(st.booleans()):
        lines.append(
            f"players = {draw(st.lists(st.sampled_from(['', 'Ann', 'é']), min_size=n, max_size=n))}"
        )
    if draw(st.booleans()):
        lines.append(f"seats = {list(range(1, n + 1))}")
    for key in ("finishing_stacks", "winnings"):
        if draw(st.booleans()):
            lines.append(f"{key} = {draw(amounts)}")
    if draw(st.booleans()):
        lines.append(f"hand = {draw(st.integers(0, 99))}")
    if draw(st.booleans()):
        lines.append("_tournament = true")
    return lines


@settings(max_examples=300)
@given(plain_hands())
def test_c_hand_builder_builds_random_plain_hands_as_python_does(lines: list[str]) -> None:
    build_both(lines)  # True but for a muck by the player who won uncontested


def test_c_hand_builder_leaves_unusual_hands_to_python() -> None:
    lines = VALID.splitlines()
    assert build_both(lines)  # the plain hand (a comment, a muck after a show): built in C
    assert build_both([t.replace("'Bob'", "''") for t in lines])  # a name left out
    first = lines.index("actions = [") + 1
    for edited in (
        [*lines[:first], "'# a comment alone',", *lines[first:]],
        [t.replace("'p1 cbr 10'", "'p1 cbr 10.0'") for t in lines],
        [t.replace("'p3 f'", "'p3  sd'") for t in lines],
        [t.replace("AsKs", "AsKs\u00a0") for t in lines],
        [*lines, "_all_in = [5]"],
        [*lines, "_unit = 0.01"],
        [*lines, "ante_trimming_status = true"],  # the antes are the same: plain
        [t.replace("'Bob'", "2") for t in lines],
    ):
        assert build_both(edited) == (edited[-1] == "ante_trimming_status = true"), edited


class Text(str):
    __slots__ = ()


def test_c_hand_builder_leaves_str_subclasses_to_python() -> None:
    # the Python reader refuses actions that are not exactly str, and makes
    # names str: the builder took both as they were
    from holdem.histories import phh

    data, action_lines, key_lines = read_toml(VALID.splitlines())
    actions = dict(data, actions=[Text(a) for a in data["actions"]])
    with pytest.raises(HistoryFormatError, match="actions must be an array of strings"):
        phh._build(actions, action_lines, key_lines, 1, "x.phh", None)
    names = dict(data, players=[Text(name) for name in data["players"]])
    hand = phh._build(names, action_lines, key_lines, 1, "x.phh", None)
    assert [type(p.name) for p in hand.players] == [str, str, str]


def test_c_hand_builder_leaves_a_lone_surrogate_to_python() -> None:
    # a text read with errors="surrogateescape" may hold one: the builder raised
    # UnicodeEncodeError (an internal error) where the Python reader reads the hand
    text = VALID.replace("'p3 f'", "'p3 f # \udcff'")
    assert "\udcff" in text
    (hand,) = read_phh_text(text)
    assert isinstance(hand, HandHistory), hand
    assert "\udcff" in [m.comment for m in hand.moves]
    lines = text.splitlines()
    assert not build_both(lines)  # left to Python


def test_c_hand_builder_survives_antes_whose_eq_changes_the_data() -> None:
    # with ante_trimming_status = true the builder compared the antes with ==
    # while holding the data's lists and strings borrowed: Python code of an
    # ante could free them (a crash, run in a child process)
    code = """if True:
        import gc
        from holdem.histories import phh

        class Ante:
            def __init__(self, data):
                self.data = data

            def __eq__(self, other):
                self.data.clear()
                self.data["antes"] = []
                gc.collect()
                return True

            __hash__ = object.__hash__

        for _ in range(2000):
            data = {"variant": "".join("NT"), "min_bet": 2, "blinds_or_straddles": [1, 2],
                    "starting_stacks": [10**6 + 1, 10**6 + 2], "actions": ["".join("p1 f")],
                    "ante_trimming_status": True}
            data["antes"] = [Ante(data), Ante(data)]
            assert phh.build_phh(data, [1], 1, phh._PLAIN) is None
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_c_hand_builder_survives_a_key_whose_eq_changes_the_data() -> None:
    # the == of a key that is not exactly str ran in the builder's look-ups,
    # while it held the data's lists and strings borrowed (a child process)
    code = """if True:
        import gc
        from holdem.histories import phh

        class Key(str):
            def __hash__(self):
                return hash("min_bet")

            def __eq__(self, other):
                if other == "min_bet":
                    data.update(starting_stacks=None, actions=None, variant=None)
                    gc.collect()
                    [[i] * 20 for i in range(1000)]
                    return True
                return False

        for _ in range(2000):
            data = {"variant": "".join("NT"), "antes": [0, 0], "blinds_or_straddles": [1, 2],
                    "starting_stacks": [10**6 + 1, 10**6 + 2], "actions": ["".join("p1 f")]}
            data[Key("x")] = 2
            assert phh.build_phh(data, [1], 1, phh._PLAIN) is None
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(not (CORPUS / "phh").is_dir(), reason="../shared/corpus/phh is not here")
def test_c_hand_builder_builds_corpus_hands_as_python_does() -> None:
    built = [build_both(hand) for _, hand in corpus_phh_hands()]
    assert len(built) == 10_056 and sum(built) >= 10_000  # nearly all are plain


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("min_bet = 1e5123456789012345678", "the number 1e5123456789012345678 is out of range"),
        ("time = 25:99:00", "not valid TOML"),
    ],
)
def test_numbers_and_times_out_of_range_are_errors_with_their_line(line: str, message: str) -> None:
    text = VALID.replace("min_bet = 2", "min_bet = 2\n" + line if "time" in line else line)
    report = validate_text(text, "phh")
    assert report.status == "FAILED"
    [problem] = report.problems
    assert message in problem.message
    assert problem.line == text.splitlines().index(line) + 1


#: PokerStars corpus results by (severity, code), each checked by hand (docs/histories.md).
KNOWN_POKERSTARS = {
    ("error", "cards"): 1,  # River.txt: 5d on the board and in a shown hand
    ("error", "collected"): 16,  # converted files, an HM export, AnteTable, InValidHand
    ("error", "config"): 1,  # heads-up with the button on the big blind
    ("error", "format"): 3,  # two hands cut off mid-line, a blind posted without a seat
    ("error", "returned"): 3,  # converted walks return 20 of a 10 excess
    ("error", "total_pot"): 9,
    ("error", "winnings"): 3,
    ("unsupported", "game"): 2,  # Split Hold'em; pot-limit preflop, no-limit after
    ("warning", "face-up"): 17,  # one of them in a hand run twice (RunItTwice.txt)
    ("warning", "raise-added"): 1,  # 2012: 'raises 30 to 40' from a small blind of 10
    ("warning", "raise-total"): 2,  # Hold'em Manager exports: 'raises $6 to $6'
    ("warning", "pokerstars-sitting-out-fold"): 3,  # all-in on a blind, folded by the site
    ("warning", "uncallable-raise"): 3,
    ("warning", "unknown-cards"): 1,  # one card shown
    ("warning", "winnings-rake"): 4,
}


@pytest.mark.skipif(
    not (CORPUS / "pokerstars").is_dir(), reason="../shared/corpus/pokerstars is not here"
)
def test_pokerstars_corpus_results_are_the_checked_ones() -> None:
    from collections import Counter

    from holdem.histories import find_files

    files, _ = find_files([str(CORPUS / "pokerstars")])
    counts: Counter[tuple[str, str]] = Counter()
    statuses: Counter[str] = Counter()
    hands = 0
    for path in files:
        report = validate_file(path)
        hands += report.hands
        statuses[report.status] += 1
        counts.update((p.severity, p.code) for p in report.problems)
    assert hands == 1333
    assert dict(statuses) == {"OK": 93, "OK with warnings": 13, "FAILED": 14}
    assert dict(counts) == KNOWN_POKERSTARS


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(0, 2**32), st.sampled_from(["no-limit", "fixed-limit"]))
def test_hands_played_on_the_engine_write_and_validate_in_both_formats(
    players: int, seed: int, structure: str
) -> None:
    import random

    from holdem import Hand, HandConfig
    from holdem.histories import read_pokerstars_text, record, to_pokerstars

    rng = random.Random(seed)
    stacks = tuple(rng.choice([3, 40, 200, 1000]) for _ in range(players))
    cfg = HandConfig(stacks=stacks, button=rng.randrange(players), small_blind=1, big_blind=2,
                     structure=structure, ante=rng.choice([0, 0, 1]), hand_id=seed)  # fmt: skip
    hand = Hand(cfg, rng=rng)
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        choice = rng.random()
        if choice < 0.15:
            hand.fold()
        elif choice < 0.7 or legal.wager is None:
            hand.check_or_call()
        else:
            assert legal.min_to is not None and legal.max_to is not None
            to = rng.randint(legal.min_to, legal.max_to)
            (hand.raise_to if hand.current_bet else hand.bet)(to)
    history = record(hand, names=[f"Player{i}" for i in range(players)])
    assert validate(history) == []
    text = to_pokerstars(history)
    (again,) = list(read_pokerstars_text(text, path="written.txt"))
    assert isinstance(again, HandHistory), str(again)
    assert [p for p in validate(again) if p.severity != "warning"] == []
    out = io.StringIO()
    write_phh([history], out)
    (from_phh,) = list(read_phh_text(out.getvalue(), path="written.phh"))
    assert isinstance(from_phh, HandHistory), str(from_phh)
    assert validate(from_phh) == []


def test_convert_phh_to_pokerstars_and_back(tmp_path: Path) -> None:
    runner = CliRunner()
    stars = tmp_path / "hand.txt"
    result = runner.invoke(main, ["convert", str(DATA / "ok_showdown.phh"), "--to", "pokerstars",
                                  "-o", str(stars)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert stars.read_text(encoding="utf-8").startswith("PokerStars Hand #")
    assert validate_file(str(stars)).status == "OK"
    back = tmp_path / "back.phh"
    result = runner.invoke(main, ["convert", str(stars), "--to", "phh", "-o", str(back)])
    assert result.exit_code == 0, result.output
    (hand,) = hands_of(back)
    assert [p.name for p in hand.players] == ["Ann", "Bob", "Cid"]
    assert validate_file(str(back)).status == "OK"


def test_convert_reports_what_it_leaves_out(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["convert", str(DATA / "bad_toml.phh"), "--to", "phh"])
    assert result.exit_code == 1
    assert "left out" in result.stderr and "not valid TOML" in result.stderr


def test_convert_takes_several_files_and_folders_into_one_output(tmp_path: Path) -> None:
    """``holdem convert`` of a folder and a file: the hands of every file below
    the folder (in name order, PHH and PokerStars text alike) and of the file,
    one after another in one output; the output inside the folder is not read
    again when replaced."""
    folder = tmp_path / "histories"
    (folder / "b").mkdir(parents=True)
    stars = DATA.parent / "pokerstars"
    (folder / "a.phh").write_bytes((DATA / "ok_showdown.phh").read_bytes())
    (folder / "b" / "c.txt").write_bytes((stars / "cash_two_hands.txt").read_bytes())
    (folder / "notes.txt").write_text("shopping: milk\n")  # (not a history: left alone)
    extra = DATA / "ok_set.phhs"
    out = folder / "all.phhs"
    args = ["convert", str(folder), str(extra), "--to", "phh", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    from_stars = [h for h in read_pokerstars(folder / "b" / "c.txt") if isinstance(h, HandHistory)]
    expected = [*hands_of(folder / "a.phh"), *from_stars, *hands_of(extra)]
    got = hands_of(out)
    assert len(got) == len(expected) == 1 + 2 + len(hands_of(extra))
    assert [[p.name for p in h.players] for h in got] == [
        [p.name for p in h.players] for h in expected
    ]
    assert validate_file(str(out)).status == "OK"
    again = CliRunner().invoke(main, [*args, "--force"])
    assert again.exit_code == 2 and "is the file being converted" in again.output
    assert hands_of(out) == got


def test_convert_names_a_source_it_cannot_take(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for sources, said in (
        ([str(tmp_path / "nowhere.phh")], "nowhere.phh: no such file or folder"),
        ([str(tmp_path / "empty")], "empty: no hand-history file in this folder"),
        (["-", "-"], "standard input ('-') is read once"),
        (["-"], "give --from"),
    ):
        result = CliRunner().invoke(main, ["convert", *sources, "--to", "phh"], input="")
        assert result.exit_code == 2 and said in result.output, result.output


@pytest.mark.parametrize("name", ["", ".model", ".phh", ".pokerstars", ".playback", ".files"])
def test_docstring_examples_of_the_histories_package(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"holdem.histories{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_with_results_of_a_raked_hand_agree_with_each_other() -> None:
    from holdem.histories import read_pokerstars_text, to_pokerstars, with_results

    # p1 wins the 20-chip pot; the file states 19 won: one chip of rake
    text = VALID.replace("finishing_stacks = [114, 286, 200]", "winnings = [0, 171, 0]")
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory)
    done = with_results(hand).claims
    assert done.winnings == (0, 171, 0) and done.total_pot == 172 and done.rake == 1
    assert done.collected == ((1, 171, "pot"),)
    assert done.finishing_stacks == (114, 285, 200)  # less the rake
    # PokerStars text written from it states one story: collected, summary, rake
    written = to_pokerstars(hand)
    assert "Bob collected 171 from pot" in written and "Total pot 172 | Rake 1" in written
    [back] = read_pokerstars_text(written)
    assert isinstance(back, HandHistory) and back.claims.rake == 1
    assert [p.severity for p in validate_text(written, "pokerstars").problems] == []


def test_every_name_the_histories_package_lists_imports() -> None:
    import importlib

    import holdem.histories as package

    for name in package.__all__:
        assert getattr(package, name) is not None, name
    # the package lists each module's public names (its __all__), and nothing else
    # (the model also gives HistoryFormatError, which the package leaves to holdem)
    for module, names in package._EXPORTS.items():
        public = set(importlib.import_module(f"holdem.histories.{module}").__all__)
        assert set(names) == public - {"HistoryFormatError"}, module
    assert sorted(package.__all__) == sorted(package._MODULE_OF)


def test_an_array_alone_on_its_line_is_no_table_header() -> None:
    text = VALID.replace(
        "finishing_stacks = [114, 286, 200]",
        "finishing_stacks = [114, 286, 200]\n_collected = [\n  [2, 172, 'pot'],\n]",
    )
    [hand] = read_phh_text(text)
    assert isinstance(hand, HandHistory)
    assert hand.claims.collected == ((1, 172, "pot"),)


def test_a_name_that_would_read_back_as_cards_is_escaped_by_the_pokerstars_writer() -> None:
    from holdem.histories import read_pokerstars_text, to_pokerstars

    [hand] = read_phh_text(VALID.replace("'Bob'", "'Bob [As Ks]'"))
    assert isinstance(hand, HandHistory)
    text = to_pokerstars(hand)
    assert "Bob [As Ks]" not in text  # ('Dealt to Bob [As Ks] [..]' would read the cards)
    [back] = read_pokerstars_text(text)
    assert isinstance(back, HandHistory)
    assert [p.name for p in back.players] == [p.name for p in hand.players]


def test_the_c_toml_reader_reads_most_edited_hands_itself() -> None:
    # the property tests above pass if the C reader leaves everything to
    # tomllib: here it must read most one-character edits of a hand itself
    import random

    rng = random.Random(7)
    read = 0
    for _ in range(400):
        lines = VALID.splitlines()
        i = rng.randrange(len(lines))
        j = rng.randrange(max(1, len(lines[i])))
        lines[i] = lines[i][:j] + rng.choice("0123456789 ,'") + lines[i][j + 1 :]
        read += agrees_with_tomllib(lines)
    assert read > 200, read


def test_date_fields_give_a_moment_in_utc_to_both_forms() -> None:
    import datetime

    from holdem import Hand, HandConfig
    from holdem.histories import date_fields, record, to_phh, to_pokerstars

    moment = datetime.datetime(2026, 12, 1, 20, 43, 25, 999, tzinfo=datetime.timezone(
        datetime.timedelta(hours=-5)))  # fmt: skip
    fields = date_fields(moment)
    assert fields == {"year": 2026, "month": 12, "day": 2, "time": datetime.time(1, 43, 25),
                      "time_zone": "UTC"}  # fmt: skip
    hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
    while not hand.done:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.check_or_fold())
    history = record(hand, hand_id="7", fields=fields)
    assert " - 2026/12/02 1:43:25 UTC" in to_pokerstars(history).splitlines()[0]
    assert to_phh(history)["time_zone"] == "UTC"
