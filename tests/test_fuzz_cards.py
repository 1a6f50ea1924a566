"""Fuzz targets for cards, ranges and their commands: garbage in, only the
documented errors out, sane results otherwise, and nothing hangs.

Each target is a plain test of a few seconds.  Selected with ``-m fuzz`` the
same targets run for a long time each (120 s, or ``HOLDEM_FUZZ_SECONDS``)::

    python -m pytest -m fuzz tests/test_fuzz_cards.py tests/test_fuzz_equity.py
    HOLDEM_FUZZ_SECONDS=1800 python -m pytest -m fuzz tests/test_fuzz_equity.py

An example slower than 5 s fails (hypothesis deadline); one that runs for
:data:`HANG_SECONDS` (a hang, in Python or in C) ends the process and
writes the traceback of every thread (faulthandler) to :data:`HANG_LOG`
(``holdem-fuzz-hang.txt`` in the temporary directory).  ``run_fuzz`` is
shared with ``test_fuzz_equity.py``.
"""

from __future__ import annotations

import faulthandler
import math
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import log_fuzz_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem.cards import format_cards, parse_card, parse_cards
from holdem.cli.main import main
from holdem.errors import HoldemError, InvalidCardError, quote
from holdem.ranges import Range, RangeError, RangeSyntaxError

pytestmark = pytest.mark.fuzz

LONG_RUN_SECONDS = 120  # a target's time with -m fuzz, unless HOLDEM_FUZZ_SECONDS says
HANG_SECONDS = 60
HANG_LOG = os.path.join(tempfile.gettempdir(), "holdem-fuzz-hang.txt")
MAX_MESSAGE = 400  # no error message quotes more of the input than fits in this


def run_fuzz(config: pytest.Config, check: Any, examples: int = 300) -> None:
    """Runs ``check`` (a ``@given`` test): ``examples`` examples, or rounds of
    1,000 for the long-run time when the fuzz targets were selected with
    ``-m fuzz`` or ``HOLDEM_FUZZ_SECONDS`` is set."""
    inner = check.hypothesis.inner_test
    # pytest captures stderr and the process dies on a hang: write where it can be read
    hang_log = open(HANG_LOG, "w")  # noqa: SIM115 - open as long as the process

    count = [0]

    def guarded(*args: Any, **kwargs: Any) -> None:
        count[0] += 1
        faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=hang_log)
        try:
            inner(*args, **kwargs)
        finally:
            faulthandler.cancel_dump_traceback_later()

    check.hypothesis.inner_test = guarded
    marks = config.getoption("markexpr") or ""
    seconds = float(os.environ.get("HOLDEM_FUZZ_SECONDS", "0"))
    if not seconds and "fuzz" in marks and "not fuzz" not in marks:
        seconds = LONG_RUN_SECONDS
    fuzz_settings = settings(
        max_examples=1000 if seconds else examples,
        deadline=5000,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    run = fuzz_settings(check)
    start = time.monotonic()
    run()
    while time.monotonic() < start + seconds:
        run()
    if seconds:
        target = os.environ.get("PYTEST_CURRENT_TEST", check.__name__).split(" ")[0]
        log_fuzz_run(target, count[0], time.monotonic() - start, 0)


def expect(call: Callable[[], Any], *errors: type[BaseException]) -> Any:
    """``call()``, or None if it raised one of ``errors`` with a short message."""
    try:
        return call()
    except errors as exc:
        assert len(str(exc)) <= MAX_MESSAGE, str(exc)[:MAX_MESSAGE]
        return None


# --- inputs -----------------------------------------------------------------------------

CARD_ALPHABET = "AKQJT98765432akqjt10cdhsCDHSxX♠♥♦♣♤♡♢♧ ,;\t\n\ufe0f\udcff\udcfe"
any_text = st.text(st.characters(exclude_categories=()), max_size=60)  # surrogates too
card_text = st.text(CARD_ALPHABET, max_size=30)
huge_ints = st.sampled_from([2**64, -(2**64), 10**100, -(10**4400), 10**5000])
small_ints = st.integers(-3, 60)
scalars = st.one_of(
    small_ints, huge_ints, card_text, any_text, st.floats(), st.booleans(), st.none(), st.binary()
)
card_inputs = st.one_of(
    card_text,
    any_text,
    st.lists(scalars, max_size=10),
    st.tuples(small_ints, card_text),
    st.binary(max_size=10),
    st.binary(max_size=10).map(bytearray),
    scalars,
    st.builds(lambda text, n: text * n, card_text, st.integers(100, 3000)),  # long inputs
)


# --- targets ------------------------------------------------------------------------------


def test_fuzz_parse_cards(pytestconfig: pytest.Config) -> None:
    @given(card_inputs, st.booleans())
    def check(value: Any, duplicates: bool) -> None:
        cards = expect(
            lambda: parse_cards(value, allow_duplicates=duplicates), InvalidCardError, TypeError
        )
        if cards is not None:
            assert all(type(c) is int and 0 <= c < 52 for c in cards)
            if not duplicates:
                assert len(set(cards)) == len(cards)
                assert parse_cards(format_cards(cards)) == cards
        one = expect(lambda: parse_card(value), InvalidCardError, TypeError)
        assert one is None or 0 <= one < 52
        assert len(quote(value)) <= 70

    run_fuzz(pytestconfig, check)


RANGE_WORDS = st.sampled_from(
    ["AA", "QQ+", "22-55", "AKs", "AKo", "AK", "KTo+", "A5s-A2s", "AhKh", "random", "any", "T9s+",
     "10h10d", "AA:0.5", "40%(AKs,QQ)", "5%(", "%", ":", "(", ")", ",", " ", "-", "+", "s", "o",
     "1e-300", "nan", "inf", "0", "100", "ak", "KK-AA", "A2+", "AsAs", "XX", "\udcff", "ﬀ"]
)  # fmt: skip
range_text = st.one_of(
    st.lists(RANGE_WORDS, max_size=12).map("".join),
    st.lists(RANGE_WORDS, max_size=12).map(",".join),
    card_text,
    any_text,
)
combo_args = st.one_of(
    card_inputs,
    st.tuples(small_ints, small_ints),
    st.tuples(small_ints, small_ints, small_ints),
    st.tuples(scalars, scalars),
)
weights = st.one_of(st.floats(), huge_ints, st.fractions(), card_text, st.booleans(), st.none())


def test_fuzz_ranges(pytestconfig: pytest.Config) -> None:
    @given(
        st.one_of(range_text, st.binary(max_size=10), small_ints, st.none()),
        combo_args,
        st.dictionaries(
            st.one_of(st.tuples(small_ints, small_ints), card_text, small_ints, st.none()),
            weights,
            max_size=4,
        ),
    )
    def check(text: Any, combo: Any, mapping: dict[Any, Any]) -> None:
        r = expect(lambda: Range.parse(text), RangeSyntaxError, TypeError)
        if r is None:
            r = Range.parse("QQ+,AKs:0.5")
        else:
            assert isinstance(text, str) and len(r) > 0
            assert all(0 < w <= 1 for _, w in r.items())
            assert set(Range.parse(str(r))) == set(r)
        weight = expect(lambda: r.weight_of(combo), InvalidCardError, TypeError)
        assert weight is None or 0 <= weight <= 1
        assert (combo in r) in (True, False)
        smaller = expect(lambda: r.without(combo), InvalidCardError, TypeError)
        assert smaller is None or set(smaller) <= set(r)
        assert all(0 <= w <= 1 + 1e-9 for row in r.grid() for w in row)
        built = expect(lambda: Range(mapping), InvalidCardError, RangeError, TypeError)
        assert built is None or all(0 < w <= 1 for _, w in built.items())

    run_fuzz(pytestconfig, check)


def check_command(args: list[str]) -> None:
    """A command ends with exit 0 or 2 (bad input), never a traceback."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 2), (args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.stderr and len(result.stderr) <= MAX_MESSAGE + 200


def test_fuzz_eval_and_range_commands(pytestconfig: pytest.Config) -> None:
    words = st.one_of(card_text, any_text, RANGE_WORDS)

    @given(
        st.sampled_from(["eval", "range"]),
        st.lists(words, min_size=0, max_size=8),
        st.one_of(st.none(), card_text, any_text),
        st.booleans(),
    )
    def check(command: str, arguments: list[str], board: str | None, as_json: bool) -> None:
        args = [command, *arguments]
        if board is not None and command == "eval":
            args += ["--board", board]
        check_command(args + ["--json"] * as_json)

    run_fuzz(pytestconfig, check)


def test_fuzz_quote_input_is_short(pytestconfig: pytest.Config) -> None:
    @given(st.one_of(scalars, st.lists(scalars), st.integers(0, 100)))
    def check(value: Any) -> None:
        for limit in (1, 5, 40):
            text = quote(value, limit=limit)
            assert isinstance(text, str) and len(text) <= max(
                limit + 5, 45
            )  # an int: at most 39 digits
        if isinstance(value, float) and math.isnan(value):
            assert quote(value) == "nan"

    run_fuzz(pytestconfig, check)


def test_documented_errors_are_holdem_errors() -> None:
    for error in (InvalidCardError, RangeError, RangeSyntaxError):
        assert issubclass(error, HoldemError) and issubclass(error, ValueError)
