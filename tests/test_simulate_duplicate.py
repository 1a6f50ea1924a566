"""``holdem simulate --duplicate``: the results' first line says what its
count of hands (tournaments) is made of (issue 29, bug 8)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from holdem.cli.main import main


def test_simulate_duplicate_says_what_its_hand_count_is_made_of() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "--seats", "easy,random,easy", "--hands", "20", "--duplicate",
               "--seed", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "60 hands (20 deals, each played once for each of the 3 seatings of the bots), seed 1"
    )
    cups = CliRunner().invoke(
        main, ["simulate", "--seats", "easy,random", "--tournaments", "2", "--duplicate",
               "--seed", "1"],
    )  # fmt: skip
    assert cups.exit_code == 0, cups.output
    assert re.fullmatch(r"4 tournaments \(2 deals of cards, each played once for each of the 2 "
                        r"seatings of the bots; \d+ hands\), seed 1",
                        cups.output.splitlines()[0])  # fmt: skip
