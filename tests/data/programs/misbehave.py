"""A program that misbehaves on purpose (for the tests): python misbehave.py HOW.

hang: never answers; late: answers each turn after 0.4 s; crash: exits at its
first turn; garbage: answers a line that is not JSON; illegal: raises to 1;
close: closes its output; exit: exits at once, before any turn; noisy: writes
to stderr, then calls; record: copies every line it reads to stderr, and
calls; deaf: never reads its input (nor answers).
"""

import json
import os
import sys
import time

how = sys.argv[1]
if how == "exit":
    sys.exit(0)
if how == "deaf":
    time.sleep(60)
for line in sys.stdin:
    if how == "record":  # every line it reads, to its log
        sys.stderr.write(line)
        sys.stderr.flush()
    turn = json.loads(line)
    if turn.get("event") != "turn":
        continue
    legal = turn["view"]["legal"]
    answer = {"id": turn["id"], "action": {"kind": "check" if legal["check"] else "call"}}
    if how == "hang":
        time.sleep(60)
    elif how == "late":
        time.sleep(0.4)
    elif how == "crash":
        sys.exit(3)
    elif how == "garbage":
        print("I fold, I think", flush=True)
        continue
    elif how == "illegal":
        answer["action"] = {"kind": "raise", "to": 1}
    elif how == "close":
        os.close(1)  # (sys.stdout.close() would leave the descriptor open)
        time.sleep(60)
    elif how == "noisy":
        print("thinking about", turn["id"], file=sys.stderr, flush=True)
    print(json.dumps(answer), flush=True)
