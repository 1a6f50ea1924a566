"""The gauntlet (issue 32): bench/gauntlet.py's reference opponents seated in
``holdem simulate`` as ``py:FILE:NAME``, each playing by the rules at 2 to 6
seats; the best response to the maniac; files that cannot be used refused
with their reason."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from holdem import simulate
from holdem.bots.preflop import STARTING_HANDS
from holdem.cli.main import main

GAUNTLET = Path(__file__).parent.parent / "bench" / "gauntlet.py"
pytestmark = pytest.mark.skipif(not GAUNTLET.exists(), reason="bench/ is not here")


def gauntlet() -> Any:
    spec = importlib.util.spec_from_file_location("gauntlet_under_test", GAUNTLET)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(gauntlet().GAUNTLET))
def test_each_opponent_plays_by_the_rules_heads_up_and_six_handed(name: str) -> None:
    for seats in (["normal", f"py:{GAUNTLET}:{name}"], ["easy", f"py:{GAUNTLET}:{name}"] * 3):
        result = simulate(seats, hands=15, seed=4, duplicate=True)
        assert result.hands == 15 * len(seats)
        assert abs(sum(s.net for s in result.seats)) < 1e-9  # (every chip where it was)
        assert result.bots[seats[1]].hands == result.hands * seats.count(seats[1])


def test_the_maniac_s_best_response_is_the_mean_of_the_better_of_fold_and_all_in() -> None:
    """With every hand at equity 0.5 an all in breaks even: the best response
    earns 0; at 0.4 (an all in loses 20 of 100 big blinds) it folds: half
    a big blind on the button, one in the big blind, -75 bb/100."""
    module = gauntlet()
    assert module.maniac_best_response(100, dict.fromkeys(STARTING_HANDS, 0.5)) == 0
    assert module.maniac_best_response(100, dict.fromkeys(STARTING_HANDS, 0.4)) == -75
    # (aces only: 6 of 1,326 hands win 2 * 100 * 0.85 - 100 = 70 in both seats)
    aces = {name: 0.85 if name == "AA" else 0.0 for name in STARTING_HANDS}
    folds = (1326 - 6) * -0.75
    assert module.maniac_best_response(100, aces) == pytest.approx(100 * (folds + 6 * 70) / 1326)


@pytest.mark.skipif(not gauntlet().EQUITY_FILE.exists(), reason="no table of equities")
def test_simulate_prints_the_best_response_to_the_maniac_heads_up() -> None:
    maniac = f"py:{GAUNTLET}:Maniac"
    result = CliRunner().invoke(
        main, ["simulate", "--seats", f"normal,{maniac}", "--hands", "10", "--duplicate"]
    )
    assert result.exit_code == 0, result.output
    figure = gauntlet().maniac_best_response(100)
    assert f"the best response to seat 2 Maniac earns {figure:+.1f} bb/100" in result.output
    six = CliRunner().invoke(main, ["simulate", "--seats", f"easy,{maniac}," * 2 + "easy,easy",
                                    "--hands", "5"])  # fmt: skip
    assert six.exit_code == 0 and "best response" not in six.output  # (heads-up only)


@pytest.mark.parametrize(
    ("seat", "said"),
    [
        ("py:missing.py:Maniac", "missing.py: No such file or directory"),
        (f"py:{GAUNTLET}:Nobody", "has no bot 'Nobody'"),
        ("py:Maniac", "py:FILE:NAME, the file and its bot's name"),
    ],
)
def test_a_file_s_bot_that_cannot_be_used_is_refused_with_why(seat: str, said: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "--seats", f"easy,{seat}", "--hands", "5"])
    assert result.exit_code != 0
    assert said in result.output and "Traceback" not in result.output
