"""``python -m holdem.cli``: the same as the ``holdem`` command."""

from .main import main

main(prog_name="holdem")
