"""The ``holdem`` command line (installed as :mod:`holdem.cli`)."""
