"""``holdem simulate --plot``: each seat's bb/100 as the hands go, with its
95% band (:attr:`holdem.simulation.SeatResult.curve`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_stats import png_size, run

from holdem.simulation import simulate


def test_simulate_plots_each_seat_s_bb_per_100_and_its_band(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = simulate(["normal", "random"], hands=400, seed=2)
    for seat in result.seats:
        hands, rate, ci = seat.curve[-1]
        assert hands == 400
        assert rate == pytest.approx(seat.bb_per_100)
        assert ci == pytest.approx(seat.ci95)
        assert [p[0] for p in seat.curve] == sorted(p[0] for p in seat.curve)
    png = tmp_path / "sim.png"
    code, _, err = run("simulate", "--seats", "normal,random", "--hands", "400", "--seed", "2",
                         "--plot", str(png))  # fmt: skip
    assert code == 0, err
    assert png_size(png) == (1000, 400)
    code, _, err = run("simulate", "--seats", "normal,random", "--tournaments", "2",
                         "--plot", str(png))  # fmt: skip
    assert code == 2 and "--plot" in err and "--hands" in err


def test_simulate_s_curve_of_a_duplicate_match_ends_at_its_results() -> None:
    result = simulate(["normal", "easy", "normal"], hands=60, seed=4, duplicate=True)
    for r in (*result.seats, *result.bots.values()):
        hands, rate, ci = r.curve[-1]
        assert (hands, rate, ci) == pytest.approx((r.hands, r.bb_per_100, r.ci95))
