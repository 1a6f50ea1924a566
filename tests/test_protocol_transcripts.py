"""Transcripts of the protocol (``tests/data/protocol/*.jsonl``) replayed: each
line is a request to send (``send``, or ``send_raw`` for a line as it is) or
a message the engine must send back (``recv``), in order.  A ``comment`` says
what the transcript shows.

``HOLDEM_RECORD_TRANSCRIPTS=1 python -m pytest tests/test_protocol_transcripts.py``
writes the engine's replies into the files again, after a change of the
protocol that was meant (read the difference before committing it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from holdem.protocol import Engine, encode

TRANSCRIPTS = sorted((Path(__file__).parent / "data" / "protocol").glob("*.jsonl"))
RECORD = os.environ.get("HOLDEM_RECORD_TRANSCRIPTS") == "1"


def replay(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The transcript with the engine's messages after each request."""
    engine = Engine(clock=lambda: 0.0)
    client = engine.connect()
    out: list[dict[str, Any]] = []
    for entry in entries:
        if "recv" in entry:
            continue
        out.append(entry)
        if "send" in entry or "send_raw" in entry:
            line = entry["send_raw"] if "send_raw" in entry else json.dumps(entry["send"])
            messages = engine.handle(client, line)
            while engine.busy():  # (a long run is played a slice at a time)
                messages += engine.tick()
            for _, message in messages:
                out.append({"recv": json.loads(encode(message))})
    return out


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_a_transcript_replays_as_recorded(path: Path) -> None:
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    replayed = replay(entries)
    if RECORD:
        path.write_text("".join(json.dumps(e) + "\n" for e in replayed), encoding="utf-8")
    assert [e for e in replayed] == entries, f"{path.name}: the engine's replies changed"
    jsonschema = pytest.importorskip("jsonschema")
    from holdem.protocol.schema import schema

    defs = schema()["$defs"]
    message = jsonschema.Draft202012Validator({"$ref": "#/$defs/Message", "$defs": defs})
    request = jsonschema.Draft202012Validator({"$ref": "#/$defs/Request", "$defs": defs})
    for entry in entries:  # every message fits the schema, and every good request
        if "recv" in entry:
            errors = list(message.iter_errors(entry["recv"]))
            assert not errors, (errors[0].message, entry)
        elif "send" in entry:
            errors = list(request.iter_errors(entry["send"]))
            assert not errors, (errors[0].message, entry)


def test_the_transcripts_show_every_error_code_a_client_can_cause() -> None:
    codes = set()
    for path in TRANSCRIPTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            error = entry.get("recv", {}).get("error")
            if error:
                codes.add(error["code"])
    assert {"malformed_json", "hello_first", "unsupported_version", "unknown_request",
            "unknown_table", "not_your_seat", "no_hand", "seat_taken", "table_error",
            "invalid_field", "unknown_field", "illegal_action"} <= codes  # fmt: skip
