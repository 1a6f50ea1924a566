#!/bin/sh
# A bot in plain shell: checks when it can, else calls. It reads one JSON line
# a turn from the engine and answers one line; it needs nothing but sh and
# grep. Try it: holdem play --seats 3 --bots "cmd:sh examples/caller_bot.sh",easy
while IFS= read -r line; do
  case "$line" in
    *'"event":"turn"'*)
      id=$(printf '%s\n' "$line" | grep -o '"id":[0-9]*' | head -n 1 | cut -d: -f2)
      if printf '%s\n' "$line" | grep -q '"check":true'; then kind=check; else kind=call; fi
      printf '{"id":%s,"action":{"kind":"%s"}}\n' "$id" "$kind"
      ;;
  esac
done
