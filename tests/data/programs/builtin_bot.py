"""A built-in bot as a program (for the tests): python builtin_bot.py LEVEL SEED."""

import sys

from holdem.bots import make_bot
from holdem.protocol.player import play

play(make_bot(sys.argv[1], seed=int(sys.argv[2])))
