"""``python -m holdem``: the ``holdem`` command.

An entry point like the installed script, so it may reach up to the command
line layer; nothing else in the library imports ``holdem.cli``.
"""

from holdem.cli.main import main  # type: ignore[import-not-found]  # mypy sees cli/ apart

main(prog_name="holdem")
