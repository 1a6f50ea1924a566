"""The JSON-lines protocol (issue 13): requests and replies, errors as data,
who is told which cards, timers, garbage in, and ``holdem engine``."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Decision, LegalActions, PlayerView, format_card
from holdem.protocol import ERROR_CODES, Engine, encode
from holdem.protocol.messages import MAX_LINE, Lines
from holdem.protocol.schema import build, schema

HELLO = {"type": "hello", "version": 1}


class Client:
    """One client of an engine: what it said and what it was told."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.id = engine.connect()
        self.inbox: list[dict[str, Any]] = []
        self.count = 0

    def send(
        self, line: str | bytes | dict[str, Any], everyone: list[Client] | None = None
    ) -> dict[str, Any]:
        """Sends a request; its reply (events go to every client's inbox)."""
        if isinstance(line, dict):
            self.count += 1
            line = json.dumps({"id": self.count, **line})
            conforms(REQUEST, json.loads(line))  # (the tests' requests are good ones)
        out = self.engine.handle(self.id, line)
        deliver(out, [self, *(everyone or [])])
        while self.engine.busy():  # (a long run is played a slice at a time)
            deliver(self.engine.tick(), [self, *(everyone or [])])
        client, first = out[0]
        assert client == self.id and ("result" in first or "error" in first)
        return first

    def ok(self, request: dict[str, Any], everyone: list[Client] | None = None) -> dict[str, Any]:
        answer = self.send(request, everyone)
        assert "result" in answer, answer
        return answer["result"]  # type: ignore[no-any-return]

    def code(self, request: str | bytes | dict[str, Any]) -> str:
        answer = self.send(request)
        assert "error" in answer, answer
        assert set(answer["error"]) == {"code", "message", "field"}
        assert answer["error"]["code"] in ERROR_CODES
        return answer["error"]["code"]  # type: ignore[no-any-return]

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [m for m in self.inbox if "event" in m and (kind is None or m["event"] == kind)]


jsonschema = pytest.importorskip("jsonschema")
SCHEMA = schema()


def shape(name: str) -> Any:
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": SCHEMA["$defs"]})


MESSAGE, REQUEST = shape("Message"), shape("Request")


def conforms(validator: Any, data: Any) -> None:
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, f"{errors[0].message} at {list(errors[0].absolute_path)}: {data}"


def deliver(out: list[tuple[int, dict[str, Any]]], clients: list[Client]) -> None:
    """Hands the engine's messages to their clients; each one as sent (JSON
    text) must fit the protocol's schema."""
    by_id = {c.id: c for c in clients}
    for client, message in out:
        conforms(MESSAGE, json.loads(encode(message)))
        if client in by_id:
            by_id[client].inbox.append(message)


def cash_table(
    client: Client,
    *,
    seed: int = 1,
    bots: tuple[str, ...] = ("easy", "calling-station"),
    **extra: Any,
) -> str:
    players = [{"seat": 0, "name": "me", "chips": 200}]
    players += [{"seat": i, "name": f"bot{i}", "bot": level} for i, level in enumerate(bots, 1)]
    result = client.ok({"type": "create_table", "game": "cash", "seats": len(players),
                        "small_blind": 1, "big_blind": 2, "seed": seed, "players": players,
                        **extra})  # fmt: skip
    return str(result["table"])


def caller(view: PlayerView, legal: LegalActions) -> Decision:
    return Decision.check() if legal.check else Decision.call()


def play_turns(client: Client, table: str, hands: int, others: list[Client] | None = None) -> None:
    """Starts ``hands`` hands and answers every turn told to ``client`` by calling."""
    client.ok({"type": "start", "table": table, "hands": hands}, others)
    answered = 0
    while True:
        turns = client.events("turn")[answered:]
        if not turns:
            break
        for turn in turns:
            answered += 1
            view = PlayerView.from_dict(turn["view"])
            assert view.legal is not None
            decision = caller(view, view.legal)
            client.ok({"type": "act", "table": table, "seat": turn["seat"],
                       "action": decision.to_dict()}, others)  # fmt: skip


# ---------------------------------------------------------------- the basics


def test_hello_comes_first_and_agrees_on_the_version() -> None:
    client = Client(Engine())
    assert client.code({"type": "state", "table": "t1"}) == "hello_first"
    assert client.code({"type": "hello", "version": 2}) == "unsupported_version"
    result = client.ok(HELLO)
    assert result["protocol"] == "holdem" and result["version"] == 1


def test_a_client_plays_a_seat_against_bots_and_the_chips_add_up() -> None:
    client = Client(Engine())
    client.ok(HELLO)
    table = cash_table(client)
    play_turns(client, table, 40)
    ended = client.events("hand_ended")
    assert len(ended) == 40
    for event in ended:
        assert sum(event["outcome"]["net"]) + event["rake"] == 0
    state = client.ok({"type": "state", "table": table})
    assert sum(seat["chips"] for seat in state["seats"]) == 600
    assert state["hands_played"] == 40 and state["hand"] is None


def test_replies_echo_the_id_and_come_before_the_events_they_cause() -> None:
    engine = Engine()
    client = Client(engine)
    client.ok(HELLO)
    table = cash_table(client)
    out = engine.handle(client.id, json.dumps({"id": "abc", "type": "start", "table": table}))
    assert out[0][1] == {"id": "abc", "result": {"table": table, "hands": 1}}
    assert out[1][1]["event"] == "hand_started"


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"type": "fly"}, "unknown_request"),
        ({"type": "act", "table": "t9", "seat": 0, "action": {"kind": "fold"}}, "unknown_table"),
        ({"type": "act", "table": "t1", "seat": 1, "action": {"kind": "fold"}}, "not_your_seat"),
        ({"type": "act", "table": "t1", "seat": 0, "action": {"kind": "fold"}}, "no_hand"),
        ({"type": "act", "table": "t1", "seat": 0}, "missing_field"),
        ({"type": "act", "table": "t1", "seat": "0", "action": {}}, "invalid_field"),
        ({"type": "act", "table": "t1", "seat": 7, "action": {"kind": "fold"}}, "unknown_seat"),
        ({"type": "state", "table": "t1", "colour": "red"}, "unknown_field"),
        ({"type": "sit", "table": "t1", "seat": 1, "name": "x", "chips": 100}, "seat_taken"),
        ({"type": "create_table", "game": "cash", "small_blind": 5, "big_blind": 2}, "bad_config"),
        ({"type": "create_table", "game": "poker"}, "invalid_field"),
        ({"type": "history", "table": "t1", "hand": 1}, "invalid_field"),
        ({"id": [1], "type": "state", "table": "t1"}, "invalid_field"),
    ],
)
def test_errors_are_data_with_a_documented_code(request_: dict[str, Any], code: str) -> None:
    client = Client(Engine())
    client.ok(HELLO)
    cash_table(client)
    before = client.ok({"type": "state", "table": "t1"})
    line = json.dumps(request_)
    assert client.code(line) == code
    assert client.ok({"type": "state", "table": "t1"}) == before  # nothing changed


def test_an_illegal_action_says_why_and_changes_nothing() -> None:
    client = Client(Engine())
    client.ok(HELLO)
    table = cash_table(client, seed=3)
    client.ok({"type": "start", "table": table})
    turn = client.events("turn")[-1]
    answer = client.send({"type": "act", "table": table, "seat": 0,
                          "action": {"kind": "raise", "to": 3}})  # fmt: skip
    assert answer["error"]["code"] == "illegal_action"
    assert "minimum raise is to 4" in answer["error"]["message"]
    view = client.ok({"type": "view", "table": table, "seat": 0})["view"]
    assert view == turn["view"]
    check = {"type": "act", "table": table, "seat": 0, "action": {"kind": "check"}}
    assert client.code(check) == "illegal_action"  # (facing the big blind: no check)


# ---------------------------------------------------------------- who sees what


def cards_in(messages: list[dict[str, Any]]) -> set[str]:
    """Every card string anywhere in the messages."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) == 2 and value[1] in "cdhs":
            found.add(value)

    for message in messages:
        walk(message)
    return found


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_seat_and_an_observer_never_see_a_card_they_may_not(seed: int) -> None:
    engine = Engine()
    player, observer = Client(engine), Client(engine)
    player.ok(HELLO)
    observer.ok(HELLO)
    table = cash_table(player, seed=seed, bots=("hard", "normal", "random"))
    observer.ok({"type": "watch", "table": table}, [player])
    play_turns(player, table, 6, [observer])
    # the hands' full histories (kept by the engine) say what every card was
    kept = engine.tables[table].kept
    assert kept and len(kept) + sum(e["hands_left"] for e in player.events("run_stopped")) == 6
    for number, hand in kept.items():
        board = {format_card(c) for c in hand.board}
        shown = {s.seat for s in hand.outcome.shown}  # type: ignore[union-attr]
        for client, me in ((player, 0), (observer, None)):
            told = [m for m in client.inbox if m.get("hand") == number]
            seen = cards_in(told)
            for seat in hand.config.seat_numbers:
                if seat == me or seat in shown:
                    continue
                hidden = {format_card(c) for c in hand.hole_cards(seat) or ()} - board
                assert not (hidden & seen), (seat, hidden & seen)
    assert observer.events("hole_cards") == []
    assert {e["seat"] for e in player.events("hole_cards")} == {0}


def test_full_information_is_asked_for_and_marked_in_every_event() -> None:
    client = Client(Engine())
    client.ok(HELLO)
    table = cash_table(client, full_information=True)
    play_turns(client, table, 3)
    events = client.events()
    assert events and all(e.get("full_information") is True for e in events)
    assert {e["seat"] for e in client.events("hole_cards")} == {0, 1, 2}


# ---------------------------------------------------------------- tournaments and timers


def test_a_tournament_of_bots_runs_to_its_end_and_tells_the_places() -> None:
    client = Client(Engine())
    client.ok(HELLO)
    players = [{"name": n, "bot": b} for n, b in (("A", "easy"), ("B", "normal"), ("C", "hard"))]
    table = client.ok({"type": "create_table", "game": "tournament", "stack": 300, "seed": 5,
                       "players": players})["table"]  # fmt: skip
    client.ok({"type": "start", "table": table, "hands": 100000})
    (finished,) = client.events("table_finished")
    places = finished["result"]["places"]
    assert sorted(p["place"] for p in places) == [1, 2, 3]
    assert client.code({"type": "start", "table": table}) == "game_over"
    assert len(client.events("player_eliminated")) == 2


def test_the_turn_timer_folds_for_a_silent_client() -> None:
    now = [0.0]
    engine = Engine(clock=lambda: now[0])
    client = Client(engine)
    client.ok(HELLO)
    table = cash_table(client, seed=2, timer={"seconds": 5})
    client.ok({"type": "start", "table": table})
    (turn,) = client.events("turn")
    assert turn["seconds"] == 5
    assert engine.next_deadline() == 5.0
    now[0] = 4.0
    deliver(engine.tick(), [client])
    assert not [e for e in client.events("action") if e["action"].get("seat") == 0 and
                e["action"]["kind"] in ("fold", "check")]  # fmt: skip
    now[0] = 5.5
    deliver(engine.tick(), [client])
    mine = [e["action"]["kind"] for e in client.events("action") if e["action"].get("seat") == 0]
    assert mine and mine[-1] in ("fold", "check")


# ---------------------------------------------------------------- garbage in


@settings(max_examples=300, deadline=None)
@given(
    line=st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200).map(str.encode),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.floats(allow_nan=False)
            | st.text(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(st.text(max_size=8), inner, max_size=4)
            ),
            max_leaves=20,
        ).map(lambda v: json.dumps(v).encode()),
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    ["act", "sit", "start", "view", "legal", "history", "create_table"]
                )
            },
            optional={
                "table": st.sampled_from(["t1", "t2", 5, None]),
                "seat": st.integers(-2, 12) | st.text(max_size=3),
                "action": st.dictionaries(
                    st.sampled_from(["kind", "to", "cards"]),
                    st.integers(-5, 10**30) | st.text(max_size=5),
                ),
                "hands": st.integers(-3, 3),
                "chips": st.integers(-5, 10**20),
                "name": st.text(max_size=5),
            },
        ).map(lambda v: json.dumps(v).encode()),
    )
)
def test_garbage_gets_a_documented_error_and_the_engine_goes_on(line: bytes) -> None:
    engine = Engine()
    client = Client(engine)
    client.ok(HELLO)
    table = cash_table(client)
    out = engine.handle(client.id, line)
    deliver(out, [client])
    first = out[0][1]
    if "error" in first:
        assert (
            first["error"]["code"] in ERROR_CODES and first["error"]["code"] != "internal_error"
        ), first
    client.ok({"type": "state", "table": table})  # still serving
    # (during a hand the seats hold what they had when it began: chips are conserved)
    assert sum(s.chips for s in engine.tables[table].table.seats.values()) == 600


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "malformed_json"),  # past any recursion limit
        (b'{"a":' * 40 + b"1" + b"}" * 40, "malformed_json"),  # deeper than the protocol's 32
        (b'{"id": 1, "type": "act", "table": "t1", "seat": 0, "action": {"kind": "ra',
         "malformed_json"),  # a line cut short
        (b'{"id": 1, "type": "start", "table": "t1", "hands": ' + b"9" * 5000 + b"}",
         "malformed_json"),  # an integer of 5,000 digits
        (b'{"id": 1, "type": "start", "table": "t1", "hands": 1e308}', "invalid_field"),
        (b'{"id": 1, "type": "start", "table": "t1", "hands": 99999999999}', "limit"),
        (b'{"id": 1, "type": "state", "table": "t1", "table": "t2"}', "unknown_table"),
        (b"\xff\xfe{}", "malformed_json"),
        (b'{"id": 1, "type": "hello", "version": 1}\x00', "malformed_json"),
    ],
)  # fmt: skip
def test_lines_made_to_break_a_reader_get_an_error_and_the_engine_goes_on(
    line: bytes, code: str
) -> None:
    engine = Engine()
    client = Client(engine)
    client.ok(HELLO)
    table = cash_table(client)
    assert client.code(line) == code
    assert client.ok({"type": "state", "table": table})["hands_played"] == 0


def test_a_line_too_long_is_one_error_and_the_next_line_is_read() -> None:
    lines = Lines(limit=MAX_LINE)
    out = lines.feed(b"x" * (MAX_LINE + 10)) + lines.feed(b"yyy\n" + b'{"a": 1}\n')
    assert out == [None, b'{"a": 1}']


def test_holdem_engine_serves_stdin_and_stdout() -> None:
    requests = [
        {"id": 1, "type": "hello", "version": 1},
        "not json at all",
        {"id": 2, "type": "create_table", "game": "tournament", "seed": 1, "stack": 200,
         "players": [{"name": "A", "bot": "easy"}, {"name": "B", "bot": "random"}]},
        {"id": 3, "type": "start", "table": "t1", "hands": 10000},
        {"id": 4, "type": "history", "table": "t1", "hand": 1},
    ]  # fmt: skip
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = subprocess.run([sys.executable, "-m", "holdem", "engine"], input=text.encode(),
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0 and done.stderr == b""
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    by_id = {m.get("id"): m for m in replies if "event" not in m}
    assert by_id[None]["error"]["code"] == "malformed_json"
    assert by_id[3]["result"] == {"table": "t1", "hands": 10000}
    assert by_id[4]["result"]["text"].startswith("variant = ")
    assert [m["event"] for m in replies if "event" in m][-1] == "table_finished"


def test_the_docs_list_every_request_and_every_error_code() -> None:
    from pathlib import Path

    from holdem.protocol import REQUESTS

    doc = Path(__file__).parent.parent / "docs" / "protocol.md"
    if not doc.exists():
        pytest.skip("docs/ is not beside the tests")
    text = doc.read_text(encoding="utf-8")
    for code, meaning in ERROR_CODES.items():
        assert f"| `{code}` | {meaning} |" in text, code
    for kind in REQUESTS:
        assert f"| `{kind}` |" in text, kind


def test_holdem_engine_on_tcp_shares_a_table_between_clients() -> None:
    import os
    import signal
    import socket

    from conftest import with_ctrl_c

    server = subprocess.Popen(
        [sys.executable, "-m", "holdem", "engine", "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=with_ctrl_c,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        line = server.stderr.readline().decode()
        assert line.startswith("holdem engine: listening on 127.0.0.1:"), line
        port = int(line.rsplit(":", 1)[1])

        def connect() -> tuple[socket.socket, Any]:
            sock = socket.create_connection(("127.0.0.1", port), timeout=20)
            return sock, sock.makefile("rb")

        def ask(sock: socket.socket, stream: Any, request: dict[str, Any]) -> list[dict[str, Any]]:
            """Sends a request; the messages up to its reply."""
            sock.sendall(json.dumps(request).encode() + b"\n")
            seen = []
            while True:
                message = json.loads(stream.readline())
                seen.append(message)
                if message.get("id") == request["id"]:
                    return seen

        a, a_in = connect()
        b, b_in = connect()
        ask(a, a_in, {"id": 1, "type": "hello", "version": 1})
        ask(b, b_in, {"id": 1, "type": "hello", "version": 1})
        players = [{"seat": 0, "name": "A", "bot": "easy"}, {"seat": 1, "name": "B", "bot": "easy"}]
        made = ask(a, a_in, {"id": 2, "type": "create_table", "small_blind": 1, "big_blind": 2,
                             "seats": 2, "seed": 3, "players": players})  # fmt: skip
        assert made[-1]["result"]["table"] == "t1"
        ask(b, b_in, {"id": 2, "type": "watch", "table": "t1"})
        ask(a, a_in, {"id": 3, "type": "start", "table": "t1", "hands": 5})
        # the watcher is told the hands, as they happen, with no hole cards
        told = ask(b, b_in, {"id": 3, "type": "state", "table": "t1"})
        while told[-1]["result"]["hands_played"] < 5:
            told += ask(b, b_in, {"id": 3, "type": "state", "table": "t1"})
        events = [m for m in told if "event" in m]
        assert {"hand_started", "hand_ended"} <= {m["event"] for m in events}
        assert not [m for m in events if m["event"] == "hole_cards"]
        a.close()
        b.close()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        _, err = server.communicate(timeout=10)
    assert server.returncode == 130 and err.decode().strip() == "holdem engine: interrupted"


def test_the_checked_in_schema_is_the_one_the_code_builds() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert schema() == json.loads(json.dumps(build())), (
        "holdem/schemas/protocol.schema.json is stale: python -m holdem.protocol.schema"
    )


def test_a_long_run_is_played_a_slice_at_a_time_and_other_clients_are_served_meanwhile() -> None:
    from holdem.protocol.tables import SLICE

    engine = Engine()
    first, second = Client(engine), Client(engine)
    first.ok(HELLO)
    second.ok(HELLO)
    players = [{"seat": s, "name": f"b{s}", "bot": "calling-station"} for s in range(2)]
    request = {"id": 1, "type": "create_table", "seats": 2, "small_blind": 1, "big_blind": 2,
               "seed": 1, "players": players}  # fmt: skip
    made = engine.handle(first.id, json.dumps(request))
    table = made[0][1]["result"]["table"]
    out = engine.handle(first.id, json.dumps({"id": 2, "type": "start", "table": table,
                                              "hands": 3 * SLICE}))  # fmt: skip
    started = [m for _, m in out if m.get("event") == "hand_started"]
    assert len(started) == SLICE and engine.busy()
    # the other client is answered between the slices
    state = engine.handle(second.id, json.dumps({"id": 1, "type": "state", "table": table}))
    assert state[0][1]["result"]["hands_played"] == SLICE
    while engine.busy():
        engine.tick()
    assert engine.tables[table].table.hands_played == 3 * SLICE


# ---------------------------------------------------------------- found by a review


def started_table(client: Client, **extra: Any) -> str:
    client.ok(HELLO)
    table = cash_table(client, seed=3, **extra)
    client.ok({"type": "start", "table": table})
    assert client.events("turn")
    return table


def test_leaving_twice_during_a_hand_is_leaving_once() -> None:
    engine = Engine()
    client = Client(engine)
    table = started_table(client)
    assert client.ok({"type": "leave", "table": table, "seat": 0})["left"] is False
    assert client.ok({"type": "leave", "table": table, "seat": 0})["left"] is False
    client.ok({"type": "act", "table": table, "seat": 0, "action": {"kind": "fold"}})
    assert [e["seat"] for e in client.events("seat_freed")] == [0]
    client.ok({"type": "start", "table": table, "hands": 3})  # the others play on
    assert client.ok({"type": "state", "table": table})["hands_played"] == 4
    deliver(engine.disconnect(client.id), [client])  # (and going away after it is no error)


def test_a_client_cannot_take_the_referee_s_timeout() -> None:
    client = Client(Engine())
    table = started_table(client)
    before = client.ok({"type": "view", "table": table, "seat": 0})
    answer = client.send({"type": "act", "table": table, "seat": 0, "action": {"kind": "timeout"}})
    assert answer["error"]["code"] == "illegal_action"
    assert "not a player's decision" in answer["error"]["message"]
    assert client.ok({"type": "view", "table": table, "seat": 0}) == before


def test_a_seat_a_bot_left_is_played_by_whoever_sits_there_next() -> None:
    engine = Engine()
    owner, newcomer = Client(engine), Client(engine)
    newcomer.ok(HELLO)
    table = started_table(owner)
    owner.ok({"type": "leave", "table": table, "seat": 1})  # the easy bot, after this hand
    owner.ok({"type": "leave", "table": table, "seat": 0})  # and the owner's own seat
    owner.ok({"type": "act", "table": table, "seat": 0, "action": {"kind": "fold"}})
    newcomer.ok({"type": "sit", "table": table, "seat": 1, "name": "new", "chips": 200})
    seats = owner.ok({"type": "state", "table": table})["seats"]
    assert next(s for s in seats if s["seat"] == 1)["bot"] is None
    newcomer.ok({"type": "watch", "table": table})
    owner.ok({"type": "start", "table": table, "hands": 4}, [newcomer])
    assert newcomer.events("turn")  # its seat is asked, not played by the old bot
    assert owner.code({"type": "leave", "table": table, "seat": 1}) == "not_your_seat"


def test_a_view_of_a_seat_not_dealt_in_is_no_hand() -> None:
    client = Client(Engine())
    table = started_table(client, seats=4)
    client.ok({"type": "sit", "table": table, "seat": 3, "name": "late", "chips": 200})
    assert client.code({"type": "view", "table": table, "seat": 3}) == "no_hand"


@pytest.mark.parametrize("seconds", [1e12, -1, 1e308])
def test_a_timer_out_of_bounds_is_refused(seconds: float) -> None:
    client = Client(Engine())
    client.ok(HELLO)
    request = {"type": "create_table", "small_blind": 1, "big_blind": 2,
               "timer": {"seconds": seconds}}  # fmt: skip
    assert client.code(json.dumps(request)) == "invalid_field"


def test_a_finished_session_takes_nobody() -> None:
    client = Client(Engine())
    client.ok(HELLO)
    table = cash_table(client, bots=("easy", "easy"), max_hands=2)
    client.ok({"type": "leave", "table": table, "seat": 0})
    client.ok({"type": "start", "table": table, "hands": 5})
    assert client.events("table_finished")
    assert client.code({"type": "sit", "table": table, "seat": 0, "name": "x",
                        "chips": 200}) == "game_over"  # fmt: skip


def test_a_served_table_s_audience_follows_every_change_of_its_owners_and_watchers() -> None:
    """The audience is kept between events: every way of changing who plays
    or watches works it out again."""
    from holdem.protocol.tables import ServedTable
    from holdem.table import CashGame

    game = CashGame(6, small_blind=1, big_blind=2)
    table = ServedTable("t1", game, creator=7, bots={}, send=lambda clients, message, line: None)

    def fresh() -> list[int]:
        return sorted({*table.watchers, *table.owners.values()})

    owners, watchers = table.owners, table.watchers
    changes = [
        lambda: owners.__setitem__(0, 11),
        lambda: owners.update({1: 12}),
        lambda: owners.setdefault(2, 13),
        lambda: owners.__ior__({3: 14}),
        lambda: owners.pop(1),
        lambda: owners.__delitem__(0),
        lambda: owners.popitem(),
        lambda: owners.clear(),
        lambda: watchers.add(21),
        lambda: watchers.update({22, 23}),
        lambda: watchers.discard(22),
        lambda: watchers.remove(23),
        lambda: watchers.__ior__({24, 25}),
        lambda: watchers.__isub__({24}),
        lambda: watchers.__iand__({25, 7}),
        lambda: watchers.__ixor__({26}),
        lambda: watchers.symmetric_difference_update({27}),
        lambda: watchers.difference_update({27}),
        lambda: watchers.intersection_update({25, 26}),
        lambda: watchers.pop(),
        lambda: watchers.clear(),
    ]
    for change in changes:
        assert table.audience() == fresh()  # (kept)
        change()
        assert table.audience() == fresh(), change


@pytest.mark.parametrize(
    "line",
    [b'{"type":"act"}', '{"a": [1, {"b": null}]}  \r', b"{}", '{"a":1} {"b":2}', "[1]", " {}",
     b"\xff{}", '{"a":', "", '"text"', '{"a":1}x'],
)  # fmt: skip
def test_a_quick_object_is_json_s_reading_of_one_object_or_none(line: bytes | str) -> None:
    from holdem.protocol.messages import quick_object

    text = line.decode(errors="replace") if isinstance(line, bytes) else line
    try:
        expected = json.loads(text)
    except ValueError:
        expected = None
    if not text.startswith("{") or not isinstance(expected, dict):
        expected = None
    assert quick_object(line) == expected
