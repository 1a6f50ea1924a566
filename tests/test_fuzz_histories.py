"""Fuzz targets for the hand-history side: readers, replay, writers, ``convert``, ``validate``.

Each target is an ordinary hypothesis test enforcing the error contract of one entry point
(its docstring says which clauses).  In short: readers yield ``HandHistory`` or ``Problem``
records and raise nothing but ``HistoryFormatError`` (or ``OSError`` for a path that cannot
be opened); replay never raises; writers write or raise ``HistoryFormatError``, and what
they write reads back to the same hand, still clean if it was; the commands exit 0/1/2
(130 on ^C) with one-line errors, no traceback, and never harm an input or output file.

Inputs
    Mutations of real files: the test data under ``tests/data`` and a fixed sample of the
    conformance corpus (``../shared/corpus``, read in place and skipped when absent), changed
    by hypothesis-drawn edits (lines, characters, bytes, numbers, cards, encodings, very long
    lines, deep nesting, control characters, file names); fully random text and bytes; and
    hands played with random legal actions on the engine and recorded with
    ``holdem.histories.record``.

Isolation
    On POSIX every example runs in a forked child with a time limit (``HOLDEM_FUZZ_TIMEOUT``
    seconds, default 5) and a memory limit, so a hang, a memory blow-up or a crash in C is a
    reported failure, not a stuck run (a hang is reported with the Python stack where it
    hung).  Each failure is raised in the parent as an exception class named after its cause
    (the exception type and the library line it came from, or the contract clause broken),
    so hypothesis shrinks and reports distinct bugs separately.

Default run
    ``pytest tests/test_fuzz_histories.py``: a modest number of examples per target (about a
    minute in all on two cores).

Long run
    ``HOLDEM_FUZZ_SECONDS=300 pytest -m fuzz`` (add ``-k phh_reader`` etc. for one target):
    each target runs for that many seconds, in batches of examples, and instead of stopping
    at the first failure it collects every distinct failure with the smallest input seen for
    it, then fails listing them.  ``HOLDEM_FUZZ_FINDINGS=DIR`` also saves each one as
    ``DIR/<target>--<cause>.bin`` (the input file) and ``.txt`` (the recipe and traceback).

The few library calls sit in the adapters right below (a ``str`` is a path; text in memory
goes through ``read_phh_text`` / ``read_pokerstars_text``), so an API change is a change in
one place.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import log_fuzz_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem.errors import HistoryFormatError
from holdem.histories import (
    BET_RAISE,
    DEAL_BOARD,
    DEAL_HOLE,
    SHOW,
    HandHistory,
    Problem,
    read_hands,
    read_phh,
    read_phh_text,
    read_pokerstars,
    read_pokerstars_text,
    record,
    replay,
    to_phh,
    to_pokerstars,
    validate,
    with_results,
    write_phh,
    write_pokerstars,
)

pytestmark = pytest.mark.fuzz

FORMATS = ("phh", "pokerstars")

# --- adapters: the library calls the targets make ------------------------------------


def read_text(fmt: str, text: str) -> list[HandHistory | Problem]:
    """Everything a reader yields for text in memory."""
    reader: Any = read_phh_text if fmt == "phh" else read_pokerstars_text
    return list(reader(text, path=f"<fuzz.{fmt}>"))


def read_bytes(fmt: str, data: bytes) -> list[HandHistory | Problem]:
    """Everything a reader yields for the bytes of a file in memory."""
    reader: Any = read_phh if fmt == "phh" else read_pokerstars
    return list(reader(data, path=f"<fuzz.{fmt}>"))


def read_path(fmt: str, path: Path) -> list[HandHistory | Problem]:
    """Everything a reader yields for a file, through the call ``holdem validate`` makes."""
    return list(read_hands(str(path), fmt))


def write_text(fmt: str, hands: list[HandHistory]) -> str:
    """The hands written in a format (raises HistoryFormatError for one it cannot write)."""
    out = io.StringIO()
    if fmt == "phh":
        write_phh(hands, out)
    else:
        write_pokerstars(hands, out)
    return out.getvalue()


def write_one(fmt: str, hand: HandHistory) -> object:
    """The one-hand writer of a format (``to_phh`` gives a dict, ``to_pokerstars`` text)."""
    return to_phh(hand) if fmt == "phh" else to_pokerstars(hand)


def cli_main() -> Any:
    from holdem.cli.main import main

    return main


# --- settings -----------------------------------------------------------------------

FUZZ_SECONDS = float(os.environ.get("HOLDEM_FUZZ_SECONDS", "0") or 0)
TIMEOUT = float(os.environ.get("HOLDEM_FUZZ_TIMEOUT", "5"))
FINDINGS = os.environ.get("HOLDEM_FUZZ_FINDINGS")
MAX_MESSAGE = 1000  # characters a Problem message may have, however long the input line
SEVERITIES = {"error", "warning", "unsupported"}

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"
CORPUS = TESTS.parents[1] / "shared" / "corpus"


def fuzz_target(examples: int) -> Callable[[Callable[..., None]], Callable[[], None]]:
    """Turns a ``@given`` test into a target: ``examples`` examples by default, or a long run.

    A long run (``HOLDEM_FUZZ_SECONDS``) calls the test in batches until the time is up,
    collecting failures (see :func:`run_case`) instead of stopping at the first.
    """

    def wrap(test: Callable[..., None]) -> Callable[[], None]:
        common: dict[str, Any] = {
            "deadline": None,  # the per-example limit is the child's TIMEOUT
            "suppress_health_check": list(HealthCheck),
            "print_blob": True,
        }
        if not FUZZ_SECONDS:
            return settings(max_examples=examples, **common)(test)  # type: ignore[no-any-return]
        batch = settings(max_examples=max(200, examples), database=None, **common)(test)
        name = test.__name__

        inner = batch.hypothesis.inner_test  # type: ignore[attr-defined]
        count = [0]

        def counted(*args: Any, **kwargs: Any) -> None:
            count[0] += 1
            inner(*args, **kwargs)

        batch.hypothesis.inner_test = counted  # type: ignore[attr-defined]

        def long_run() -> None:
            _COLLECTED[name] = {}
            _CURRENT[0] = name
            start = time.monotonic()
            try:
                while time.monotonic() < start + FUZZ_SECONDS:
                    batch()
            finally:
                _CURRENT[0] = None
            found = _COLLECTED[name]
            log_fuzz_run(name, count[0], time.monotonic() - start, len(found))
            if found:
                pytest.fail(
                    f"{len(found)} distinct failure(s):\n\n"
                    + "\n\n".join(f"[{key}] {f.case!r}\n{f.text}" for key, f in found.items()),
                    pytrace=False,
                )

        long_run.__name__ = name
        long_run.__doc__ = test.__doc__
        return long_run

    return wrap


# --- running one example in a child process ------------------------------------------


class Violation(AssertionError):
    """A broken clause of the contract; ``code`` names the clause (the failure's cause)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code


def check(condition: object, code: str, detail: object = "") -> None:
    if not condition:
        raise Violation(code, str(detail)[:2000])


class FuzzFailure(AssertionError):
    """Base of the per-cause failure classes raised in the parent."""


_FAILURE_TYPES: dict[str, type[FuzzFailure]] = {}


@dataclass
class Failure:
    key: str  # the cause: "ValueError@phh.py:123", "hang@pokerstars.py:88", "long-message"
    text: str  # message and the last frames
    case: object = None


_COLLECTED: dict[str, dict[str, Failure]] = {}
_CURRENT: list[str | None] = [None]


def _where(frames: list[traceback.FrameSummary]) -> str:
    """``file.py:line`` of the last frame in holdem (or the last frame at all)."""
    ours = [f for f in frames if re.search(r"[/\\](holdem|cli)[/\\]", f.filename)]
    frame = (ours or frames or [None])[-1]
    return f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"


def _describe(exc: BaseException) -> dict[str, str]:
    frames = traceback.extract_tb(exc.__traceback__)
    key = exc.code if isinstance(exc, Violation) else f"{type(exc).__name__}@{_where(frames)}"
    tb = "".join(traceback.format_list(frames[-6:]))
    return {"key": key, "text": f"{type(exc).__name__}: {str(exc)[:1500]}\n{tb}"}


def _memory_limit() -> None:
    try:
        import resource

        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        limit = pages * os.sysconf("SC_PAGE_SIZE") + (3 << 30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        pass


def _hang_key(dump: str) -> str:
    # faulthandler prints the most recent call first: 'File "...", line N in f'
    for m in re.finditer(r'File "([^"]+)", line (\d+)', dump):
        if re.search(r"[/\\](holdem|cli)[/\\]", m.group(1)):
            return f"hang@{Path(m.group(1)).name}:{m.group(2)}"
    return "hang"


def isolated(fn: Callable[[], None], timeout: float = TIMEOUT) -> Failure | None:
    """Runs ``fn`` in a forked child; its failure (exception, hang, crash) or None."""
    if not hasattr(os, "fork"):  # pragma: no cover - Windows: in process, time checked after
        start = time.monotonic()
        try:
            fn()
        except Exception as exc:
            return Failure(**_describe(exc))
        if time.monotonic() - start > timeout:
            return Failure("slow", f"took {time.monotonic() - start:.1f} s")
        return None
    import faulthandler

    dump = tempfile.TemporaryFile()  # noqa: SIM115 - shared with the child, closed below
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report and leave without running any cleanup of the parent
        try:
            os.close(r)
            _memory_limit()
            faulthandler.dump_traceback_later(timeout, exit=True, file=dump)
            try:
                fn()
                payload = b""
            except BaseException as exc:
                payload = json.dumps(_describe(exc)).encode()
            os.write(w, payload[:60000])
        finally:
            os._exit(0)
    os.close(w)
    chunks = []
    end = time.monotonic() + timeout + 10
    killed = False
    while True:
        left = end - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            killed = True
            break
        ready, _, _ = select.select([r], [], [], left)
        if ready:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    dump.seek(0)
    hung = dump.read().decode("utf-8", "replace")
    dump.close()
    if hung or killed:
        return Failure(_hang_key(hung), f"no result within {timeout} s\n{hung[:3000]}")
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        return Failure(f"crash-{sig}", f"the child died of {sig}")
    if chunks:
        return Failure(**json.loads(b"".join(chunks)))
    return None


def run_case(case: object, fn: Callable[[], None], *, reader_hangs: bool = True) -> None:
    """Runs one example in isolation; raises its failure, or collects it on a long run.

    ``reader_hangs=False``: a hang while reading the input is not this target's failure
    (the reader targets report it).
    """
    failure = isolated(fn)
    if failure is None:
        return
    if not reader_hangs and failure.key.startswith("hang") and " in read_path" in failure.text:
        return
    failure.case = case
    target = _CURRENT[0]
    if target is not None:
        found = _COLLECTED[target]
        old = found.get(failure.key)
        if old is None or _size(case) < _size(old.case):
            found[failure.key] = failure
            _save(target, failure)
        return
    cls = _FAILURE_TYPES.get(failure.key)
    if cls is None:
        name = re.sub(r"\W", "_", failure.key)
        cls = _FAILURE_TYPES[failure.key] = type(name, (FuzzFailure,), {})
    raise cls(f"[{failure.key}] {failure.text}")


def _size(case: object) -> int:
    return len(getattr(case, "data", b"")) or len(repr(case))


def _save(target: str, failure: Failure) -> None:
    if not FINDINGS:
        return
    folder = Path(FINDINGS)
    folder.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^\w@-]", "_", failure.key)
    stem = f"{target.removeprefix('test_')}--{slug}"
    data = getattr(failure.case, "data", None)
    if isinstance(data, bytes):
        (folder / f"{stem}.bin").write_bytes(data)
    (folder / f"{stem}.txt").write_text(
        f"{failure.case!r}\n\n[{failure.key}]\n{failure.text}\n", encoding="utf-8"
    )


# --- inputs: seeds -------------------------------------------------------------------


@cache
def seeds(fmt: str) -> tuple[tuple[str, str], ...]:
    """(name, text) of the files mutations start from: test data, then a corpus sample."""
    if fmt == "phh":
        mine = sorted((DATA / "phh").glob("*.phh*"))
        corpus = sorted((CORPUS / "phh").rglob("*.phh*")) if CORPUS.is_dir() else []
        corpus = [p for p in corpus if p.stat().st_size < 16_000]
        sample = corpus[:: max(1, len(corpus) // 40)]
    else:
        mine = sorted((DATA / "pokerstars").rglob("*.txt"))
        corpus = sorted((CORPUS / "pokerstars").rglob("*.txt")) if CORPUS.is_dir() else []
        corpus = [p for p in corpus if p.stat().st_size < 40_000]
        sample = corpus[:: max(1, len(corpus) // 36)]
    out = []
    for path in mine + sample:
        data = path.read_bytes()
        name = str(path.relative_to(CORPUS if CORPUS in path.parents else TESTS))
        out.append((name, data.decode("utf-8", "replace")))
    return tuple(out)


#: Lines worth inserting, per format (fields, headers, actions at their edges).
LINES = {
    "phh": [
        "variant = 'NT'",
        "variant = 'FT'",
        "variant = 'NS'",
        "variant = 1",
        "antes = [0, 0]",
        "antes = [1, 1, 1]",
        "blinds_or_straddles = [1, 2, 0]",
        "blinds_or_straddles = [2, 1]",
        "blinds_or_straddles = [1, 2, 4, 8]",
        "min_bet = 0",
        "min_bet = -2",
        "small_bet = 2",
        "big_bet = 1",
        "starting_stacks = [inf, 1e999999999, nan]",
        "starting_stacks = [0, 0, 0]",
        "starting_stacks = [1.0000001, 2, 3]",
        "finishing_stacks = [nan, 1e999999999, 0]",
        "winnings = [-1, 0, 0]",
        "actions = []",
        "actions = ['p1 cbr 1e999999999']",
        "actions = ['d dh p1 AsAs', 'd db AsKsQs', 'p1 sm AsAs']",
        "'d db AsAsAs',",
        "'d db ??????',",
        "'p1 sm -',",
        "'p2 sm ????',",
        "'p9 f',",
        "'p0 cc',",
        "'p1 cbr -5',",
        "'p1 cbr 0',",
        "'p1 cbr 1e-9',",
        "'p1 sd AsKs',",
        "'p1 pb 5',",
        "'#',",
        "players = ['a', 'a', 'a']",
        "players = ['a\\nb', '', 'c']",
        "seats = [1, 1, 1]",
        "seats = [0, -1, 99999999999999999999]",
        "hand = 1",
        "hand = 'x'",
        "hand = 1.5",
        "hand = true",
        "ante_trimming_status = true",
        "x = {a = 1}",
        "x = 1979-05-27T07:32:00Z",
        "x = 07:32:00",
        "x = [[1], ['a']]",
        "x = '''a\nb'''",
        "'a b' = 1",
        "[1]",
        "[2]",
        "['hand x']",
        "[[x]]",
        "[a.b]",
        "[",
        "]",
        "#",
        "_note = 'x'",
        "table = 'x'",
        "stakes = ['a', 'b']",
        "stakes = [1]",
        "bounties = 5",
        "bounties = [[1]]",
        "not_dealt = [[1, 'x', 'y', 'z']]",
        "not_dealt = 1",
        "cap = 'x'",
        "button_seat = 'x'",
        "max_seats = -1",
        "currency_symbol = 1",
        "site = 'PokerStars'",
        "sitting_out_seats = 3",
        "hand_kind = 'Game'",
        "tournament_id = 'x'",
        "level = []",
        "date = 1",
        "game = 1",
        "zoom = true",
        "home_game = true",
        "club = '}'",
        "event = 'WSOP'",
    ],
    "pokerstars": [
        "PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 0:00:00 ET",
        "PokerStars Hand #2: Hold'em Limit (10/20) - 2020/01/01 0:00:00 ET",
        "PokerStars Hand #3: Hold'em Pot Limit ($1/$2) - 2020/01/01",
        "PokerStars Hand #4: Tournament #9, $1+$0 USD Hold'em No Limit - Level I (10/20) - 2020",
        "PokerStars Zoom Hand #5: Hold'em No Limit (0/0) - 2020/01/01",
        "PokerStars Hand #6: Omaha Pot Limit ($1/$2) - 2020/01/01",
        "Table 'T' 2-max Seat #1 is the button",
        "Table 'T' 9-max Seat #99 is the button",
        "Seat 1: a ($1 in chips)",
        "Seat 2: b (0 in chips)",
        "Seat 3: c ($1e5 in chips)",
        "Seat 1: a (1 in chips) is sitting out",
        "Seat 4: d: e (5 in chips, $1 bounty)",
        "a: posts small blind $0",
        "a: posts big blind $1",
        "a: posts the ante 1",
        "a: posts small & big blinds $3",
        "*** HOLE CARDS ***",
        "*** FLOP *** [As As As]",
        "*** FLOP *** [2c 3c]",
        "*** TURN *** [2c 3c 4c] [5c]",
        "*** RIVER *** [2c 3c 4c 5c] [6c]",
        "*** FIRST FLOP *** [2c 3c 4c]",
        "*** SHOW DOWN ***",
        "*** SUMMARY ***",
        "*** NOTHING ***",
        "Dealt to a [As Kd]",
        "Dealt to a [As Kd Qh]",
        "a: calls $0",
        "a: calls 0 and is all-in",
        "a: raises $0 to $0",
        "a: bets $99999999999999999999999999999999",
        "a: bets 1,00",
        "a: bets 1,2,3",
        "a: checks",
        "a: folds [As Kd]",
        "a: shows [As]",
        "a: shows [XX XX]",
        "a: shows [As Kd Qh Jc]",
        "a: mucks hand",
        "a: doesn't show hand",
        "Uncalled bet ($1) returned to a",
        "a collected $1 from side pot-99",
        "a collected $0 from pot",
        "Total pot $1 Main pot $1. Side pot-1 $0. | Rake $0",
        "Total pot $0 | Rake $5",
        "Seat 1: a (button) showed [As Kd] and won ($1) with a pair",
        "Seat 1: a mucked [As Kd]",
        "Seat 9: z collected ($1)",
        "Board [As Kd]",
        'a said, "x"',
        "Hand was run twice",
        "#comment",
        "*********** # 1 **************",
        "",
    ],
}

#: What a number becomes.
NUMBERS = [
    "0",
    "-1",
    "-0",
    "1e999999999",
    "9e999999",
    "1e-999999999",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "1" + "0" * 300,
    "0." + "3" * 40,
    "1,000,000",
    "1,00",
    "1.5e3",
    "\u0661\u0662",  # Arabic-Indic digits
    "\u00b2",  # superscript two: isdigit() but not int()
    "1_000",
    "0x10",
    "+5",
    "1e-7",
    "00012",
    "18446744073709551617",
    "5.",
    ".5",
    "99999999999999999999999999999.99",
    "4294967296",
]
CARDS = ["As", "1s", "Ax", "10h", "as", "AS", "??", "XX", "A\u2660", "2c", "Kd", "", "AsAs", "X"]
CHARS = [
    *"\0\t\r\x0b\x0c\x1c\x1e\x7f\x85\u2028\ufeff[]{}'\"=#,.:;$\u20ac() \\-_\n",
    "\U0001f0a1",
    "\u00e9",
    "\u0661",
    "\u00b2",
]
#: Long lines: a start, a unit repeated, an end.
LONG_PARTS = {
    "phh": (
        ["", "[", " [", "\t", "actions = [", "x = '", "'p1 ", "starting_stacks = [", "# "],
        [" ", "a", "9", "[", "1, ", "'p1 f', ", "\t", "]", "#"],
        ["", "]", "'", "',", "]\n"],
    ),
    "pokerstars": (
        [
            "",
            "PokerStars Hand #1: Hold'em No Limit ",
            "Seat 1: ",
            "a: bets $",
            "a: ",
            "Total pot ",
            "*** FLOP *** ",
            'a said, "',
            "Seat 1: a showed [As Kd] and won ($1)",
        ],
        [" ", "a", "9", "[", " with x", "($5 in chips", ", ", " (", "*", " - "],
        ["", ")", "]", " in chips)", " | Rake $0", " ET"],
    ),
}
LONG_COUNTS = [300, 3_000, 30_000, 300_000, 3_000_000]
#: Long lines for the targets after the readers: the readers' own slowness is theirs to report.
SHORT_COUNTS = [100, 300]
BAD_BYTES = [b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80", b"\r", b"\xef\xbb\xbf", b"\x80\x81"]
ENCODINGS = ["utf-8"] * 8 + ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252"]
FILE_NAMES = {
    "phh": ["hand.phh"] * 6 + ["set.phhs", "x=1.phh", "a b.phh", "\u00fcn\u00ef.phh", "H.PHH"],
    "pokerstars": ["hands.txt"] * 6 + ["x=1.txt", "a b.txt", "\u00fcn\u00ef.txt", "H.TXT"],
}


#: Edits of a seed file (repeats make an edit likelier).
EDITS = [
    "delete",
    "duplicate",
    "swap",
    "insert",
    "replace",
    "char",
    "char",
    "number",
    "number",
    "card",
    "card",
    "long",
    "nest",
    "truncate",
    "join",
    "concat",
]


@dataclass(frozen=True)
class Case:
    """One input file: its format, bytes, file name, and how it was made (for reports)."""

    fmt: str
    data: bytes
    name: str
    recipe: str

    def __repr__(self) -> str:
        shown = f", data={self.data!r}" if len(self.data) <= 600 else ""
        return f"Case({self.fmt}, {self.name!r}, {len(self.data)} bytes, {self.recipe}{shown})"

    def text(self) -> str | None:
        """The input as UTF-8 text (a BOM dropped), or None if it is not."""
        try:
            return self.data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None


def _short(text: str) -> str:
    if len(text) <= 60:
        return repr(text)
    return f"{text[:20]!r}+...({len(text)} chars)"


@st.composite
def mutated(draw: st.DrawFn, fmt: str, long: bool = True) -> Case:
    """A seed file of the format with a few hypothesis-drawn edits (lines up to MBs if
    ``long``)."""
    name, seed = draw(st.sampled_from(seeds(fmt)))
    lines = seed.splitlines(keepends=True) or [""]
    recipe = [name]
    for _ in range(draw(st.integers(0, 5 if long else 3))):
        op = draw(st.sampled_from(EDITS))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if not lines:
            lines = [""]
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in ("insert", "replace"):
            new = draw(st.sampled_from(LINES[fmt])) + "\n"
            if op == "insert":
                lines.insert(i, new)
            else:
                lines[i] = new
            op = f"{op} {new.rstrip()!r}"
        elif op == "char":
            text = lines[i]
            j = draw(st.integers(0, len(text)))
            ch = draw(st.sampled_from(CHARS) | st.characters())
            how = draw(st.sampled_from(["set", "ins", "del"]))
            if how == "del":
                lines[i] = text[:j] + text[j + 1 :]
            else:
                lines[i] = text[:j] + ch + text[j + (how == "set") :]
            op = f"char {how} {ch!r}"
        elif op == "number":
            spots = list(re.finditer(r"\d+(?:[.,]\d+)*", lines[i]))
            if spots:
                m = draw(st.sampled_from(spots))
                new = draw(st.sampled_from(NUMBERS))
                lines[i] = lines[i][: m.start()] + new + lines[i][m.end() :]
                op = f"number {m.group()}->{_short(new)}"
        elif op == "card":
            spots = list(re.finditer(r"[2-9TJQKA][cdhs]", lines[i]))
            if spots:
                m = draw(st.sampled_from(spots))
                everywhere = re.findall(r"[2-9TJQKA][cdhs]", seed) or ["As"]
                new = draw(st.sampled_from(CARDS + everywhere[:20]))
                lines[i] = lines[i][: m.start()] + new + lines[i][m.end() :]
                op = f"card {m.group()}->{new!r}"
        elif op == "long":
            starts, units, ends = LONG_PARTS[fmt]
            start = draw(st.sampled_from(starts))
            unit = draw(st.sampled_from(units))
            count = draw(st.sampled_from(LONG_COUNTS if long else SHORT_COUNTS))
            count = count // len(unit) or 1
            end = draw(st.sampled_from(ends))
            new = start + unit * count + end + "\n"
            if draw(st.booleans()):
                lines.insert(i, new)
            else:
                lines[i] = new
            op = f"long {start!r}+{unit!r}*{count}+{end!r}"
        elif op == "nest":
            depth = draw(st.sampled_from([50, 1000, 3000] if long else [50, 300]))
            key = draw(st.sampled_from(["x", "actions", "antes", "starting_stacks"]))
            if fmt == "phh":
                new = f"{key} = " + "[" * depth + "]" * depth + "\n"
            else:
                new = "*** FLOP *** " + "[" * depth + "As" + "]" * depth + "\n"
            lines.insert(i, new)
            op = f"nest {key} {depth}"
        elif op == "truncate":
            text = "".join(lines)
            j = draw(st.integers(0, len(text)))
            lines = text[:j].splitlines(keepends=True)
            op = f"truncate at {j}"
        elif op == "join" and i + 1 < len(lines):
            lines[i] = lines[i].rstrip("\r\n") + lines.pop(i + 1)
        elif op == "concat":
            other, more = draw(st.sampled_from(seeds(fmt)))
            lines.extend(["\n", *more.splitlines(keepends=True)])
            op = f"concat {other}"
        recipe.append(op if op != "char" else "char")
    text = "".join(lines)
    encoding = draw(st.sampled_from(ENCODINGS if long else ["utf-8"] * 6 + ["utf-8-sig", "cp1252"]))
    data = text.encode(encoding, errors="replace" if encoding == "cp1252" else "surrogatepass")
    if encoding != "utf-8":
        recipe.append(encoding)
    for _ in range(draw(st.integers(0, 2)) if long and draw(st.integers(0, 3)) == 0 else 0):
        j = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            bad = draw(st.sampled_from(BAD_BYTES))
            data = data[:j] + bad + data[j:]
            recipe.append(f"bytes {bad!r} at {j}")
        else:
            data = data[:j]
            recipe.append(f"bytes cut at {j}")
    file_name = draw(st.sampled_from(FILE_NAMES[fmt]))
    return Case(fmt, data, file_name, " | ".join(recipe))


@st.composite
def random_case(draw: st.DrawFn, fmt: str) -> Case:
    """Random bytes, random text, or an empty/blank file."""
    kind = draw(st.sampled_from(["bytes", "text", "text", "empty"]))
    if kind == "bytes":
        data = draw(st.binary(max_size=3000))
    elif kind == "text":
        data = draw(st.text(max_size=1500)).encode("utf-8", "surrogatepass")
    else:
        data = draw(st.sampled_from([b"", b"\n", b"\xef\xbb\xbf", b"   \n\t\n", b"\r\r\r", b"\0"]))
    return Case(fmt, data, draw(st.sampled_from(FILE_NAMES[fmt])), kind)


def inputs(fmt: str, long: bool = True) -> st.SearchStrategy[Case]:
    """Input files of a format: mostly mutated real files, some random ones."""
    edited = mutated(fmt, long)
    return st.one_of(edited, edited, edited, random_case(fmt))


def any_inputs(long: bool = False) -> st.SearchStrategy[Case]:
    """Input files of either format (by default without the readers' MB-long lines)."""
    return st.sampled_from(FORMATS).flatmap(lambda fmt: inputs(fmt, long))


# --- inputs: hands played on the engine ----------------------------------------------

NAMES = ["Ann", "Bob", "Cid", "a b", "x: y", "[c]", "#1", "Seat 1", "\u00e9l\u00e8ve", "d (e)"]


@dataclass(frozen=True)
class Played:
    """A hand to play on the engine: its setup, names and the seed of its random actions."""

    players: int
    stacks: tuple[int, ...]
    structure: str
    blinds: tuple[int, int]
    ante: int
    bb_ante: bool
    straddle: int
    missing_small: bool
    post: tuple[int, int, bool] | None
    unit: str
    names: tuple[str, ...] | None
    hand_id: str | None
    seed: int
    muck: float

    def history(self) -> HandHistory | None:
        """The recorded hand (None when the drawn setup is not a legal configuration)."""
        from holdem import Hand, HandConfig
        from holdem.config import Post
        from holdem.errors import ConfigError
        from holdem.hand import Phase

        sb, bb = self.blinds
        posts = ()
        if self.post is not None:
            seat, amount, dead = self.post
            posts = (Post(seat % self.players, amount, dead),)
        try:
            cfg = HandConfig(
                stacks=self.stacks,
                button=self.seed % self.players,
                small_blind=sb,
                big_blind=bb,
                structure=self.structure,
                ante=self.ante,
                big_blind_ante=self.bb_ante,
                straddle=self.straddle,
                missing_small_blind=self.missing_small,
                posts=posts,
                hand_id=self.seed,
            )
        except ConfigError:
            return None
        rng = random.Random(self.seed)
        hand = Hand(cfg, rng=rng, auto=False)
        while not hand.done:
            if hand.phase is Phase.BETTING:
                legal = hand.legal_actions()
                assert legal is not None
                roll = rng.random()
                if roll < 0.12:
                    hand.fold()
                elif roll < 0.2 and legal.all_in is not None:
                    hand.all_in()
                elif roll < 0.65 or legal.wager is None:
                    hand.check_or_call()
                else:
                    assert legal.min_to is not None and legal.max_to is not None
                    to = rng.choice(
                        [legal.min_to, legal.max_to, rng.randint(legal.min_to, legal.max_to)]
                    )
                    (hand.raise_to if hand.current_bet else hand.bet)(to)
            elif hand.phase is Phase.SHOWDOWN:
                legal = hand.legal_actions()
                if legal is not None and legal.muck and rng.random() < self.muck:
                    hand.muck()
                else:
                    hand.show()
            else:
                hand.step()
        names = None
        if self.names is not None:
            names = [self.names[i % len(self.names)] for i in range(self.players)]
        return record(hand, names=names, hand_id=self.hand_id, unit=Decimal(self.unit))


@st.composite
def played(draw: st.DrawFn) -> Played:
    n = draw(st.integers(2, 10))
    structure = draw(st.sampled_from(["no-limit", "no-limit", "fixed-limit", "pot-limit"]))
    bb = draw(st.sampled_from([2, 10, 100, 5]))
    sb = draw(st.sampled_from([bb // 2, bb // 2, 1, 0, bb]))
    stack = st.sampled_from([1, 3, bb, 40, 200, 1000, 10**6, 10**16])
    names = draw(
        st.none()
        | st.just(tuple(NAMES[:n]))
        | st.lists(st.sampled_from(NAMES), min_size=n, max_size=n).map(tuple)
        | st.lists(st.text(min_size=1, max_size=8), min_size=n, max_size=n).map(tuple)
    )
    return Played(
        players=n,
        stacks=tuple(draw(st.lists(stack, min_size=n, max_size=n))),
        structure=structure,
        blinds=(sb, bb),
        ante=draw(st.sampled_from([0, 0, 0, 1, bb])),
        bb_ante=draw(st.booleans()) and draw(st.booleans()),
        straddle=draw(st.sampled_from([0, 0, 0, 2 * bb])) if n > 2 else 0,
        missing_small=draw(st.booleans()) and draw(st.booleans()) and n > 2,
        post=draw(
            st.none() | st.tuples(st.integers(0, 9), st.sampled_from([bb, sb]), st.booleans())
        ),
        unit=draw(st.sampled_from(["1", "1", "0.01", "0.1"])),
        names=names,
        hand_id=draw(st.sampled_from([None, None, "17", "007", "abc", "\u00b2", "1 2"])),
        seed=draw(st.integers(0, 2**32)),
        muck=draw(st.sampled_from([0.0, 0.5, 1.0])),
    )


# --- checks shared by the targets -----------------------------------------------------


def check_items(items: list[Any], where: str) -> list[HandHistory]:
    """What a reader yields: records of the two kinds, short messages. Returns the hands."""
    hands = []
    for item in items:
        check(isinstance(item, (HandHistory, Problem)), "reader-yields-other", type(item))
        if isinstance(item, Problem):
            check_problem(item, where)
        else:
            hands.append(item)
            check_hand(item)
    return hands


def check_problem(problem: Problem, where: str) -> None:
    check(isinstance(problem, Problem), f"{where}-not-a-problem", type(problem))
    check(problem.severity in SEVERITIES, f"{where}-severity", problem.severity)
    check(
        len(problem.message) < MAX_MESSAGE,
        f"{where}-long-message",
        f"{len(problem.message)} characters: {problem.message[:200]!r}...",
    )
    check(isinstance(problem.line, int) and problem.line >= 0, f"{where}-bad-line", problem.line)


def check_hand(hand: HandHistory) -> None:
    """What replay and the writers may rely on in a record a reader returned."""
    n = len(hand.players)
    for move in hand.moves:
        check(move.actor is None or 0 <= move.actor < n, "reader-actor-out-of-range", repr(move))
        check(move.to is None or isinstance(move.to, int), "reader-amount-type", repr(move))
    for player in hand.players:
        check(
            player.stack is None or (isinstance(player.stack, int) and player.stack >= 0),
            "reader-stack",
            repr(player),
        )


def read_allowed(read: Callable[[], list[Any] | None]) -> list[Any] | None:
    """Runs a read; the documented HistoryFormatError (short) gives None, anything else raises."""
    try:
        return read()
    except HistoryFormatError as exc:
        check(len(exc.reason) < MAX_MESSAGE, "reader-long-error", exc.reason[:200])
        return None


def signature(items: list[Any]) -> list[tuple[object, ...]]:
    """What two ways of reading the same input must agree on (not the path in messages)."""
    return [
        ("hand", i.hand_id, i.line, len(i.moves))
        if isinstance(i, HandHistory)
        else ("problem", i.line, i.severity, i.code)
        for i in items
    ]


def input_file(case: Case, folder: Path) -> Path:
    path = folder / case.name
    path.write_bytes(case.data)
    return path


@dataclass
class TempDir:
    """A temporary folder for one example (made in the parent: the child may be killed)."""

    path: Path

    @classmethod
    def make(cls) -> TempDir:
        return cls(Path(tempfile.mkdtemp(prefix="holdem-fuzz-")))

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        import shutil

        shutil.rmtree(self.path, ignore_errors=True)


def hands_of(case: Case | Played, folder: Path, limit: int = 12) -> list[HandHistory]:
    """The hands an input gives (read from its file, or played); reader failures are skipped
    here (the reader targets report them)."""
    if isinstance(case, Played):
        history = case.history()
        if history is None:
            return []
        problems = [p for p in validate(history) if p.severity != "warning"]
        check(not problems, "record-not-clean", [str(p) for p in problems])
        return [history]
    try:
        items = read_path(case.fmt, input_file(case, folder))
    except Exception:
        return []
    return [h for h in items if isinstance(h, HandHistory)][:limit]


def is_clean(hand: HandHistory) -> bool:
    return all(p.severity == "warning" for p in replay(hand).problems)


def money(hand: HandHistory, chips: int | None) -> Decimal | None:
    return None if chips is None else (Decimal(chips) * hand.unit).normalize()


def moneys(hand: HandHistory, values: tuple[int | None, ...] | None) -> object:
    return None if values is None else tuple(money(hand, v) for v in values)


# --- the targets: readers ------------------------------------------------------------


def _reader_checks(case: Case) -> None:
    with TempDir.make() as folder:
        path = input_file(case, folder)

        def work() -> None:
            by_path = read_allowed(lambda: read_path(case.fmt, path))
            if by_path is not None:
                check_items(by_path, "reader")
            by_bytes = read_allowed(lambda: read_bytes(case.fmt, case.data))
            if by_bytes is not None:
                check_items(by_bytes, "reader")
            if by_path is not None and by_bytes is not None:
                check(
                    signature(by_path) == signature(by_bytes),
                    "reader-path-and-bytes-differ",
                    f"path {signature(by_path)[:4]} bytes {signature(by_bytes)[:4]}",
                )
            text = case.text()
            if text is None:
                return
            by_text = read_allowed(lambda: read_text(case.fmt, text))
            if by_text is not None:
                check_items(by_text, "reader")
            if by_path is not None and by_text is not None:
                check(
                    signature(by_path) == signature(by_text),
                    "reader-path-and-text-differ",
                    f"path {signature(by_path)[:4]} text {signature(by_text)[:4]}",
                )

        run_case(case, work)


@fuzz_target(examples=150)
@given(inputs("phh"))
def test_phh_reader(case: Case) -> None:
    """``read_phh`` (via ``read_hands``, on text and on a file): HandHistory or Problem only,
    HistoryFormatError the one exception, messages under 1,000 characters, fast; a file and
    its text read the same."""
    _reader_checks(case)


@fuzz_target(examples=150)
@given(inputs("pokerstars"))
def test_pokerstars_reader(case: Case) -> None:
    """``read_pokerstars`` (a file, the text, the bytes): the same contract as the PHH reader."""
    _reader_checks(case)


# --- replay --------------------------------------------------------------------------


@fuzz_target(examples=100)
@given(any_inputs())
def test_replay(case: Case) -> None:
    """``replay``, ``validate`` and ``with_results`` on every hand a reader returns: problems
    (short messages), never an exception."""
    with TempDir.make() as folder:

        def work() -> None:
            for hand in hands_of(case, folder, limit=30):
                result = replay(hand)
                for problem in result.problems:
                    check_problem(problem, "replay")
                for problem in validate(hand):
                    check_problem(problem, "validate")
                with_results(hand)

        run_case(case, work, reader_hangs=False)


# --- writers -------------------------------------------------------------------------


def phh_essentials(hand: HandHistory) -> dict[str, object]:
    """What a PHH write and read back keeps: players, stacks, forced bets, moves, claims."""
    b = hand.blinds
    n = len(hand.players)
    return {
        "variant": hand.variant,
        "players": [
            (p.name or f"p{i + 1}", money(hand, p.stack)) for i, p in enumerate(hand.players)
        ],
        "seats": [p.seat for p in hand.players]
        if all(p.seat is not None for p in hand.players)
        else None,
        "blinds": (moneys(hand, b.antes), moneys(hand, b.blinds)),
        "bets": tuple(money(hand, x) for x in (b.min_bet, b.small_bet, b.big_bet)),
        "moves": [(m.kind, m.actor, money(hand, m.to), m.cards) for m in hand.moves],
        "claims": (moneys(hand, hand.claims.finishing_stacks), moneys(hand, hand.claims.winnings)),
        "n": n,
    }


def _phh_writer_checks(hand: HandHistory) -> None:
    try:
        write_one("phh", hand)
    except HistoryFormatError:
        # then write_phh says so too, with the same error
        try:
            write_text("phh", [hand])
        except HistoryFormatError:
            return
        raise Violation("phh-writer-inconsistent", "to_phh refuses, write_phh writes") from None
    text = write_text("phh", [hand])
    items = read_text("phh", text)
    check(
        len(items) == 1 and isinstance(items[0], HandHistory),
        "phh-roundtrip-unreadable",
        f"{[str(i) for i in items][:3]}\n{text[:1500]}",
    )
    again = items[0]
    assert isinstance(again, HandHistory)
    before, after = phh_essentials(hand), phh_essentials(again)
    for part in before:
        check(
            before[part] == after[part],
            f"phh-roundtrip-{part}",
            f"{before[part]!r:.700}\n  !=\n{after[part]!r:.700}",
        )
    if is_clean(hand):
        check(
            is_clean(again),
            "phh-roundtrip-not-clean",
            [str(p) for p in replay(again).problems][:3],
        )


@fuzz_target(examples=100)
@given(st.one_of(any_inputs(), played()))
def test_phh_writer(case: Case | Played) -> None:
    """``to_phh`` / ``write_phh`` on every hand a reader returns, and on hands played on the
    engine: write, or raise HistoryFormatError; what is written reads back as one hand with
    the same players, stacks, blinds, moves and claims; clean stays clean."""
    with TempDir.make() as folder:

        def work() -> None:
            for hand in hands_of(case, folder):
                _phh_writer_checks(hand)

        run_case(case, work, reader_hangs=False)


def _as_posted(hand: HandHistory) -> list[list[int]]:
    """The forced bets as PokerStars text states them: what each stack could put in
    (antes first, then blinds, dead blinds, live posts); other formats state them as set."""
    b = hand.blinds
    n = len(hand.players)
    rows = [list(x) + [0] * (n - len(x)) for x in (b.antes, b.blinds, b.dead, b.posts)]
    for i, player in enumerate(hand.players):
        left = player.stack
        for row in rows:
            if left is not None:
                row[i] = min(row[i], left)
                left -= row[i]
    return rows


def stars_essentials(hand: HandHistory, source: HandHistory | None = None) -> dict[str, object]:
    """What PokerStars text carries of a hand (``source``: the hand before writing, for the
    names it makes up)."""
    antes, blinds, dead, posts = _as_posted(hand)
    holes: dict[int, set[int]] = {}
    for m in hand.moves:
        if m.kind in (DEAL_HOLE, SHOW) and m.actor is not None:
            holes.setdefault(m.actor, set()).update(c for c in m.cards if c is not None)
    plays = [
        (
            m.kind,
            m.actor,
            money(hand, m.to) if m.kind == BET_RAISE else None,
            m.cards if m.kind == DEAL_BOARD else (),
        )
        for m in hand.moves
        if m.kind not in (DEAL_HOLE, SHOW, "muck")
    ]
    return {
        "variant": hand.variant,
        "names": [p.name or f"Player{i + 1}" for i, p in enumerate(hand.players)],
        "stacks": [money(hand, p.stack) for p in hand.players],
        "blinds": (moneys(hand, antes), moneys(hand, blinds)),
        "posts": (
            sum(money(hand, x) or 0 for x in dead),
            sum(money(hand, x) or 0 for x in posts),
        ),
        "moves": plays,
        "showdown": [
            (m.kind, m.actor)
            for m in hand.moves
            if m.kind in (SHOW, "muck") and m.actor is not None
        ],
        "hole_cards": {k: v for k, v in holes.items() if v},
    }


def stars_claims(hand: HandHistory) -> dict[str, object]:
    c = hand.claims
    return {
        "collected": None
        if c.collected is None
        else sorted((i, money(hand, x), pot) for i, x, pot in c.collected),
        "returned": None if c.returned is None else [(i, money(hand, x)) for i, x in c.returned],
        "total_pot": money(hand, c.total_pot),
        "rake": money(hand, c.rake),
        "winnings": moneys(hand, c.winnings),
    }


def _stars_writer_checks(hand: HandHistory) -> None:
    for how, source in (("plain", hand), ("with_results", with_results(hand))):
        try:
            text = write_one("pokerstars", source)
        except HistoryFormatError:
            continue
        assert isinstance(text, str)
        items = read_text("pokerstars", text)
        check(
            len(items) == 1 and isinstance(items[0], HandHistory),
            "pokerstars-roundtrip-unreadable",
            f"{how}: {[str(i) for i in items][:3]}\n{text[:1500]}",
        )
        again = items[0]
        assert isinstance(again, HandHistory)
        before, after = stars_essentials(source), stars_essentials(again)
        for part in before:
            check(
                before[part] == after[part],
                f"pokerstars-roundtrip-{part}",
                f"{how}: {before[part]!r:.700}\n  !=\n{after[part]!r:.700}\n---\n{text[:1500]}",
            )
        if "site" in hand.fields and how == "plain":
            # (a result the source does not state, cut short, is written as the rules give it)
            before_c, after_c = stars_claims(source), stars_claims(again)
            given = stars_claims(with_results(source))
            for part in before_c:
                if before_c[part] is None:
                    before_c[part] = given[part]
                check(
                    before_c[part] == after_c[part],
                    f"pokerstars-roundtrip-claims-{part}",
                    f"{before_c[part]!r:.500} != {after_c[part]!r:.500}\n---\n{text[:1500]}",
                )
        if is_clean(source):
            check(
                is_clean(again),
                "pokerstars-roundtrip-not-clean",
                f"{how}: {[str(p) for p in replay(again).problems][:3]}\n---\n{text[:1500]}",
            )


def test_pokerstars_writer_fills_in_the_results_of_a_hand_cut_short() -> None:
    """A PokerStars hand cut off after its last action (another hand's header
    in the middle of it) states no results: written again, it says what the
    rules give (who collected what), and the fuzz check asks that, not the
    nothing the source said (it once failed on this case)."""
    cut = (
        "PokerStars Hand #78782145143:  Hold'em No Limit (\u00a30.10/\u00a30.25 GBP) - "
        "2012/04/13 2:45:55 ET\rTable 'Crocus' 6-max Seat #6 is the button\r"
        "Seat 2: a0Kribu (\u00a325.35 in chips) \rSeat 6: JOZSEF1981 (\u00a354.98 in chips) \r"
        "JOZSEF1981: posts small blind \u00a30.10\ra0Kribu: posts big blind \u00a30.25\r"
        "*** HOLE CARDS ***\rJOZSEF1981: raises \u00a30.41 to \u00a30.66\ra0Kribu: folds \r"
        "PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 0:00:00 ET\n"
        "Uncalled bet (\u00a30.41) returned to JOZSEF1981\r"
    )
    hand = read_bytes("pokerstars", cut.encode())[0]
    assert isinstance(hand, HandHistory) and hand.claims.collected is None
    _stars_writer_checks(hand)
    again = read_text("pokerstars", write_one("pokerstars", hand))[0]
    assert isinstance(again, HandHistory)
    assert stars_claims(again)["collected"] == [(1, Decimal("0.5"), "pot")]


@fuzz_target(examples=100)
@given(st.one_of(any_inputs(), played()))
def test_pokerstars_writer(case: Case | Played) -> None:
    """``to_pokerstars`` / ``write_pokerstars`` (with and without ``with_results``) on every
    hand a reader returns and on hands played on the engine: write or raise
    HistoryFormatError; the text reads back as one hand with the same names, stacks, forced
    bets, moves, shown cards (and claims, for PokerStars hands); clean stays clean."""
    with TempDir.make() as folder:

        def work() -> None:
            for hand in hands_of(case, folder):
                _stars_writer_checks(hand)

        run_case(case, work, reader_hangs=False)


# --- the commands --------------------------------------------------------------------

SENTINEL = b"an existing output file: must survive a failed conversion\n"


def check_stderr(stderr: str, command: str, exit_code: int) -> None:
    check("Traceback" not in stderr, f"{command}-traceback", stderr[-1500:])
    usage = exit_code == 2 and "Usage:" in stderr
    for line in stderr.splitlines():
        ok = line.startswith(f"holdem {command}: ") or (
            usage and (not line.strip() or line.startswith(("Usage:", "Try ", "Error:")))
        )
        check(ok, f"{command}-stderr-not-one-line-errors", repr(line[:300]))


@dataclass(frozen=True)
class ConvertCase:
    source: Case
    target: str
    output: str  # "stdout", "new", "existing" or "input"
    give_from: bool
    options: tuple[str, ...] = ()  # --force, --keep-invalid
    stdin: bool = False  # the source is standard input ("-", with --from)

    @property
    def data(self) -> bytes:
        return self.source.data


@fuzz_target(examples=60)
@given(
    st.builds(
        ConvertCase,
        any_inputs(),
        st.sampled_from(FORMATS),
        st.sampled_from(["stdout", "new", "existing", "existing", "input"]),
        st.booleans(),
        st.lists(st.sampled_from(["--force", "--keep-invalid"]), unique=True).map(tuple),
        st.booleans(),
    )
)
def test_convert_command(case: ConvertCase) -> None:
    """``holdem convert`` (CliRunner; a file or standard input, ``--force``,
    ``--keep-invalid``): exit 0/1/2/130, one-line errors, no traceback; the input file is never
    changed; an existing output is untouched when the conversion fails; ``-o`` on the input
    does not destroy it; what is written reads back."""
    with TempDir.make() as folder:
        source = input_file(case.source, folder)
        stdin = case.stdin and case.output != "input"
        args = ["convert", "-" if stdin else str(source), "--to", case.target, *case.options]
        if case.give_from or stdin:
            args += ["--from", case.source.fmt]
        out = None
        if case.output == "new":
            out = folder / f"out.{'phhs' if case.target == 'phh' else 'txt'}"
        elif case.output == "existing":
            out = folder / f"existing.{'phhs' if case.target == 'phh' else 'txt'}"
            out.write_bytes(SENTINEL)
        elif case.output == "input":
            out = source
        if out is not None:
            args += ["-o", str(out)]

        def work() -> None:
            result = CliRunner(catch_exceptions=False).invoke(
                cli_main(), args, input=case.source.data if stdin else None
            )
            code = result.exit_code
            check(code in (0, 1, 2, 130), "convert-exit-code", f"{code}\n{result.stderr[-800:]}")
            check_stderr(result.stderr, "convert", code)
            if case.output == "input":
                written = source.read_bytes()
                if code != 0:
                    check(written == case.source.data, "convert-o-input-changed-on-failure", code)
                else:
                    hands = read_allowed(lambda: read_path(case.target, source)) or []
                    check(
                        any(isinstance(h, HandHistory) for h in hands)
                        or (
                            b"PokerStars" not in case.source.data
                            and b"variant" not in case.source.data
                        ),
                        "convert-o-input-destroyed",
                        f"{len(case.source.data)} bytes became {len(written)}",
                    )
                return
            check(source.read_bytes() == case.source.data, "convert-changed-input")
            if case.output == "existing" and out is not None:
                now = out.read_bytes()
                failed = code not in (0, 1) or (code == 1 and not now.strip())
                check(
                    not failed or now == SENTINEL,
                    "convert-harms-output-on-failure",
                    f"exit {code}, the output now has {len(now)} bytes",
                )
            if out is None:
                written_text = result.stdout
            elif out.exists():
                written_text = out.read_text(encoding="utf-8", errors="replace")
            else:
                written_text = ""
            if code == 0 and case.output == "existing" and "--force" in case.options:
                check(
                    written_text.encode() != SENTINEL,
                    "convert-force-success-keeps-old-output",
                    "exit 0 and the old output is still there",
                )
            if code == 0 and written_text.strip() and written_text.encode() != SENTINEL:
                again = read_text(case.target, written_text)
                bad = [str(p) for p in again if isinstance(p, Problem)]
                check(not bad, "convert-writes-unreadable", bad[:3])

        run_case(case, work)


@dataclass(frozen=True)
class ValidateCase:
    files: tuple[Case, ...]
    options: tuple[str, ...]
    folder: bool

    @property
    def data(self) -> bytes:
        return b"\n".join(c.data for c in self.files)


@fuzz_target(examples=60)
@given(
    st.builds(
        ValidateCase,
        st.lists(any_inputs(), min_size=1, max_size=3).map(tuple),
        st.lists(
            st.sampled_from(
                ["--json", "--strict", "--quiet", "--format=phh", "--format=pokerstars"]
            ),
            max_size=2,
            unique=True,
        ).map(tuple),
        st.booleans(),
    )
)
def test_validate_command(case: ValidateCase) -> None:
    """``holdem validate`` (CliRunner) on files and folders: exit 0/1/2, one-line errors, no
    traceback, valid JSON with ``--json``, never hangs."""
    with TempDir.make() as folder:
        paths = []
        for k, file in enumerate(case.files):
            sub = folder / str(k)
            sub.mkdir()
            paths.append(input_file(file, sub))
        args = ["validate", *case.options, *([str(folder)] if case.folder else map(str, paths))]

        def work() -> None:
            result = CliRunner(catch_exceptions=False).invoke(cli_main(), args)
            code = result.exit_code
            check(code in (0, 1, 2), "validate-exit-code", f"{code}\n{result.stderr[-800:]}")
            check_stderr(result.stderr, "validate", code)
            check("Traceback" not in result.stdout, "validate-traceback", result.stdout[-800:])
            if "--json" in case.options and code != 2:
                json.loads(result.stdout)
            for file, path in zip(case.files, paths, strict=True):
                check(path.read_bytes() == file.data, "validate-changed-input")

        run_case(case, work)


# --- a few real runs of the command ----------------------------------------------------


def _run(args: list[str], timeout: float = 30) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [sys.executable, "-m", "holdem.cli", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"holdem {' '.join(args)} did not finish in {timeout} s")


def _seed_bytes(fmt: str, name_part: str) -> bytes:
    for name, text in seeds(fmt):
        if name_part in name:
            return text.encode("utf-8")
    raise LookupError(name_part)


SUBPROCESS_CASES = {
    "binary-phh": ("hand.phh", b"\xff\xfe\x00variant = 'NT'\n\x80\n", ["--to", "pokerstars"]),
    "utf16-pokerstars": ("hands.txt", "utf-16", ["--to", "phh"]),
    "equals-in-name": ("x=1.phh", "ok_showdown", ["--to", "pokerstars"]),
    "ok-to-pokerstars": ("hand.phh", "ok_showdown", ["--to", "pokerstars"]),
    "ok-set-to-phh": ("set.phhs", "ok_set", ["--to", "phh"]),
}


@pytest.mark.parametrize("name", sorted(SUBPROCESS_CASES))
@pytest.mark.parametrize("output", ["existing", "input"])
def test_convert_subprocess(tmp_path: Path, name: str, output: str) -> None:
    """``python -m holdem.cli convert`` for real: the same contract as the CliRunner target."""
    file_name, content, options = SUBPROCESS_CASES[name]
    if content == "utf-16":
        data = _seed_bytes("pokerstars", "cash_two_hands").decode().encode("utf-16")
    elif isinstance(content, str):
        data = _seed_bytes("phh", content)
    else:
        data = content
    source = tmp_path / file_name
    source.write_bytes(data)
    out = source if output == "input" else tmp_path / "existing.out"
    if output == "existing":
        out.write_bytes(SENTINEL)
    run = _run(["convert", str(source), *options, "-o", str(out)])
    assert run.returncode in (0, 1, 2, 130), run.stderr
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert all(line.startswith("holdem convert: ") for line in run.stderr.splitlines()), run.stderr
    if output == "input":
        if run.returncode:
            assert source.read_bytes() == data, "a failed conversion changed its input"
        else:
            assert source.read_bytes().strip(), "convert -o INPUT emptied the input"
    else:
        assert source.read_bytes() == data
        if run.returncode not in (0, 1):
            assert out.read_bytes() == SENTINEL, "a failed conversion changed the output file"


@pytest.mark.parametrize("fmt", FORMATS)
def test_validate_subprocess_endless_line(fmt: str) -> None:
    """``holdem validate --format F /dev/zero``: an endless line is refused, not read forever."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    run = _run(["validate", f"--format={fmt}", "/dev/zero"], timeout=15)
    assert run.returncode == 2, (run.returncode, run.stdout[-500:], run.stderr[-500:])
    assert "Traceback" not in run.stderr


def test_validate_subprocess_mutated_folder(tmp_path: Path) -> None:
    """``python -m holdem.cli validate`` on a folder of broken files, with 2 jobs and JSON."""
    rng = random.Random(7)
    for fmt in FORMATS:
        for k, (_, text) in enumerate(seeds(fmt)[:12]):
            lines = text.splitlines(keepends=True)
            for _ in range(3):
                if lines:
                    i = rng.randrange(len(lines))
                    lines[i] = rng.choice(LINES[fmt]) + "\n"
            ext = "phh" if fmt == "phh" else "txt"
            (tmp_path / f"{fmt}{k}.{ext}").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "binary.phh").write_bytes(bytes(range(256)))
    run = _run(["validate", "--json", "--jobs", "2", str(tmp_path)], timeout=120)
    assert run.returncode in (0, 1, 2), run.stderr
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    json.loads(run.stdout)


def test_validate_subprocess_folder_with_a_pipe(tmp_path: Path) -> None:
    """A named pipe in a folder is not a hand history to wait for: ``validate DIR`` ends."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes")
    (tmp_path / "hand.phh").write_bytes(_seed_bytes("phh", "ok_showdown"))
    os.mkfifo(tmp_path / "pipe.txt")
    os.mkfifo(tmp_path / "pipe.phh")
    run = _run(["validate", str(tmp_path)], timeout=15)
    assert run.returncode in (0, 1, 2), run.stderr
    assert "Traceback" not in run.stderr, run.stderr[-2000:]


def test_convert_subprocess_output_in_a_missing_folder(tmp_path: Path) -> None:
    """``-o`` into a folder that does not exist: a one-line error, no traceback."""
    source = tmp_path / "hand.phh"
    source.write_bytes(_seed_bytes("phh", "ok_showdown"))
    run = _run(["convert", str(source), "--to", "phh", "-o", str(tmp_path / "no" / "x.phhs")])
    assert run.returncode in (1, 2), run.stderr
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert all(line.startswith("holdem convert: ") for line in run.stderr.splitlines()), run.stderr
