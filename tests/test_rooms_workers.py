"""A room server's tables shared out between workers (``holdem serve
--workers N``), in process: two rooms, workers 0 and 1 of 2, each on its
own connection to one store, as two processes have.  Tables and connections
are numbered by the rule; a connection that names the other worker's table
(by id, code or token) is handed on to it; ``list_tables`` sees both; a
connection that plays here is told ``other_worker``; the limits count
every worker; and the channels hand a socket and its unread input on."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import FAST, Player

from holdem.errors import ProtocolError
from holdem.protocol.messages import Lines
from holdem.rooms import Limits, Room, Store
from holdem.rooms.codes import Tally
from holdem.rooms.handover import INLINE, Channels, Moved, channels_for, supported


class Client(Player):
    """A connection to a server of several rooms (its workers): when the room
    it is at hands it on, it goes on at the other, its line with it, as the
    network loop does (:class:`holdem.rooms.server.RoomServer`)."""

    def __init__(self, rooms: list[Room], at: int, address: str = "127.0.0.1") -> None:
        self.rooms = rooms
        self.at = at
        self.moves = 0
        super().__init__(rooms[at], address)
        self.id = self.conn  # (the number hello said)

    def send(self, line: str) -> list[dict[str, Any]]:
        moved = False
        while True:
            out = self.room.handle(self.conn, line, moved=moved)
            worker = self.room.moving_to(self.conn)
            if worker is None:
                return self._route(out)
            assert not moved, "handed on twice for one line"
            assert all(conn != self.conn for conn, _ in out)  # (the line is not answered)
            gone = self.room.release(self.conn)
            assert gone is not None
            left = gone.rate.left(self.room.clock())
            self.room = self.rooms[worker]
            self.room.adopt(self.conn, gone.address, hello=gone.hello, rate=left)
            self.at, moved = worker, True
            self.moves += 1

    def error(self, kind: str, **fields: Any) -> str:
        reply = self.ask(kind, **fields)
        assert "error" in reply, reply
        return reply["error"]["code"]  # type: ignore[no-any-return]


def _workers(path: Path, n: int = 2, limits: Limits | None = None) -> list[Room]:
    tally = Tally(n)
    return [Room(Store(path), seed=k, worker=k, workers=n, tally=tally, limits=limits)
            for k in range(n)]  # fmt: skip


def _cash(client: Client, name: str, **fields: Any) -> dict[str, Any]:
    return client.result("create_table", name=name, game="cash", pace=0, pause=0, **fields)


def test_tables_and_connections_are_numbered_by_worker_and_new_tables_go_to_the_fewest(
    tmp_path: Path,
) -> None:
    rooms = _workers(tmp_path / "room.sqlite")
    ann, ben, cy, dan = Client(rooms, 0), Client(rooms, 1), Client(rooms, 0), Client(rooms, 0)
    assert (ann.id, ben.id, cy.id, dan.id) == (1, 2, 3, 5)  # worker k: k+1, k+1+N, ...
    assert _cash(ann, "Ann")["table"] == "t1"  # (as few tables as any: made here)
    assert _cash(ben, "Ben")["table"] == "t2"
    assert _cash(cy, "Cy")["table"] == "t3"
    assert cy.moves == 0
    made = _cash(dan, "Dan")  # worker 0 has two, worker 1 one: it goes there
    assert made["table"] == "t4" and dan.at == 1 and dan.moves == 1
    assert set(rooms[0].tables) == {"t1", "t3"} and set(rooms[1].tables) == {"t2", "t4"}
    # a connection that plays here makes its next table here, whatever the counts
    assert _cash(cy, "Cy")["table"] == "t5" and cy.moves == 0
    assert rooms[0].owner("t5") == 0 and rooms[0].owner("t6") == 1 and rooms[0].owner("x") is None
    # the client's number stays its own at the other worker
    assert dan.result("hello", version=1)["client"] == 5


def test_a_connection_goes_to_the_worker_of_the_table_its_line_names(tmp_path: Path) -> None:
    rooms = _workers(tmp_path / "room.sqlite")
    ann, ben = Client(rooms, 0), Client(rooms, 1)
    first = _cash(ann, "Ann", public=True)
    second = _cash(ben, "Ben")
    assert (first["table"], second["table"]) == ("t1", "t2")
    by_code = Client(rooms, 0)
    assert by_code.result("join", code=second["code"].lower(), name="Cy")["table"] == "t2"
    assert by_code.at == 1 and by_code.moves == 1
    by_id = Client(rooms, 1)
    assert by_id.result("watch", table="t1")["table"] == "t1" and by_id.at == 0
    by_token = Client(rooms, 0)
    resumed = by_token.result("resume", token=second["token"])
    assert resumed["table"] == "t2" and resumed["seat"] == 0 and by_token.at == 1
    old = Client(rooms, 0)  # (the token replaced: its worker says so)
    assert old.error("resume", token=second["token"]) == "token_expired" and old.at == 1
    # what no worker knows is answered where the connection is
    lost = Client(rooms, 0)
    assert lost.error("join", code="ZZZZ-ZZZZ", name="Eve") == "unknown_code"
    assert lost.error("resume", token="nothing") == "unknown_token"
    assert lost.error("state", table="t7") == "unknown_table"  # (worker 0's, if it were)
    assert lost.moves == 0
    # another worker's table that does not exist: there it is unknown
    assert lost.error("state", table="t8") == "unknown_table" and lost.at == 1


def test_every_worker_lists_every_public_table(tmp_path: Path) -> None:
    rooms = _workers(tmp_path / "room.sqlite")
    makers = [Client(rooms, k % 2) for k in range(4)]
    for k, maker in enumerate(makers):
        _cash(maker, f"P{k}", public=k != 2, small_blind=k + 1, big_blind=2 * k + 2)
    Client(rooms, 1).result("join", table="t1", name="Friend")
    for at in (0, 1):
        listed = Client(rooms, at).result("list_tables")["tables"]
        assert [t["table"] for t in listed] == ["t1", "t2", "t4"]  # (t3 private)
        assert [t["players"] for t in listed] == [2, 1, 1]
        # (who is away: known where the table is played, not at the other worker)
        away = 0 if rooms[at].owner("t4") == at else None
        assert listed[2] == {"table": "t4", "game": "cash", "status": "waiting", "players": 1,
                             "max_seats": 6, "blinds": {"small_blind": 4, "big_blind": 8},
                             "structure": "no_limit", "hands_played": 0,
                             "joinable": True, "away": away, "unit": "1",
                             "run_it_twice": False}  # fmt: skip
    tournament = Client(rooms, 0)
    made = tournament.result("create_table", name="T", public=True, **FAST)
    tournament.result("add_bots", table=made["table"], level="easy")
    tournament.result("start", table=made["table"])
    other = 1 - rooms[0].owner(made["table"])  # type: ignore[operator]
    listed = Client(rooms, other).result("list_tables")["tables"]
    begun = next(t for t in listed if t["table"] == made["table"])
    assert begun["status"] == "playing" and begun["joinable"] is False
    # (a tournament's stack; its blinds now are known where it is played, not here)
    assert begun["stack"] == FAST["stack"] and begun["blinds"] is None
    here = Client(rooms, 1 - other).result("list_tables")["tables"]
    assert next(t for t in here if t["table"] == made["table"])["blinds"] == {
        "small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": False}  # fmt: skip


def test_a_connection_that_plays_here_is_told_other_worker(tmp_path: Path) -> None:
    rooms = _workers(tmp_path / "room.sqlite")
    ann, ben = Client(rooms, 0), Client(rooms, 1)
    first = _cash(ann, "Ann")
    second = _cash(ben, "Ben", public=True)
    assert ann.error("join", code=second["code"], name="Ann") == "other_worker"
    assert ann.error("watch", table=second["table"]) == "other_worker"
    assert ann.error("resume", token=second["token"]) == "other_worker"
    reply = ann.ask("state", table=second["table"])
    assert "open a new connection" in reply["error"]["message"]
    # a private table's id is no more known here than it was
    assert ben.error("watch", table=first["table"]) == "unknown_table"
    assert ann.moves == ben.moves == 0
    # a watcher holds its connection too; a new connection goes where it must
    watcher = Client(rooms, 1)
    watcher.result("watch", table=second["table"])
    assert watcher.error("join", code=first["code"], name="W") == "other_worker"
    assert Client(rooms, 1).result("join", code=first["code"], name="W")["table"] == "t1"


def test_a_new_number_of_workers_shares_the_tables_out_again(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    rooms = _workers(path)
    for k in range(4):
        _cash(Client(rooms, k % 2), f"P{k}")
    for room in rooms:
        room.commit()
    alone = Room(Store(path), seed=1)
    assert set(alone.tables) == {"t1", "t2", "t3", "t4"}
    assert _cash(Client([alone], 0), "Solo")["table"] == "t5"
    third = Room(Store(path), seed=1, worker=2, workers=3)
    assert set(third.tables) == {"t3"}  # ((n - 1) % 3 == 2)
    assert _cash(Client([third], 0), "Next")["table"] == "t6"  # (its first above t5)


def test_the_server_s_limits_count_every_worker_s_connections_and_tables(
    tmp_path: Path,
) -> None:
    rooms = _workers(tmp_path / "room.sqlite", limits=Limits(connections=3, tables=2))
    ann, ben, cy = Client(rooms, 0), Client(rooms, 0), Client(rooms, 1)
    for room in rooms:  # three in all: both workers refuse a fourth
        with pytest.raises(ProtocolError, match="takes 3 connections"):
            room.connect("10.0.0.9")
    rooms[0].disconnect(ben.conn)
    dan = Client(rooms, 1)
    _cash(ann, "Ann")
    _cash(cy, "Cy")
    assert dan.error("create_table", name="Dan") == "limit"  # (one table at each worker)
    assert dan.at == 1


def test_a_guesser_held_back_is_not_handed_on_with_the_right_code(tmp_path: Path) -> None:
    rooms = _workers(tmp_path / "room.sqlite", limits=Limits(guesses=2))
    ben = Client(rooms, 1)
    made = _cash(ben, "Ben")
    mallory = Client(rooms, 0, address="10.0.0.66")
    assert [mallory.error("join", code=c, name="M") for c in ("AAAA-AAAA", "BBBB-BBBB")] == [
        "unknown_code",
        "unknown_code",
    ]
    assert mallory.error("join", code=made["code"], name="M") == "rate_limited"
    assert mallory.error("resume", token=made["token"]) == "rate_limited"
    assert mallory.moves == 0


def test_a_connection_handed_on_goes_on_with_its_rate(tmp_path: Path) -> None:
    now = [0.0]
    rooms = [Room(Store(tmp_path / "room.sqlite"), seed=k, worker=k, workers=2,
                  clock=lambda: now[0], limits=Limits(lines_per_second=10, burst=20))
             for k in range(2)]  # fmt: skip
    _cash(Client(rooms, 0), "Ann", public=True)
    _cash(Client(rooms, 1), "Ben", public=True)
    hopper = Client(rooms, 0)  # (hello: one line of its 20)
    replies = [hopper.ask("state", table=f"t{2 - k % 2}") for k in range(30)]
    assert hopper.moves == 19  # (each line it was allowed moved it: its rate went with it)
    assert ["error" in r for r in replies] == [False] * 19 + [True] * 11
    assert {r["error"]["code"] for r in replies[19:]} == {"rate_limited"}
    now[0] = 0.5  # (five more lines allowed)
    assert sum("result" in hopper.ask("state", table=f"t{2 - k % 2}") for k in range(10)) == 5


def test_a_connection_handed_on_is_refused_past_its_address_s_limit_there(
    tmp_path: Path,
) -> None:
    rooms = _workers(tmp_path / "room.sqlite", limits=Limits(connections_per_address=2))
    _cash(Client(rooms, 0), "Ann", public=True)
    ben = Client(rooms, 1, address="10.0.0.7")
    made = _cash(ben, "Ben", public=True)
    assert made["table"] == "t2" and ben.moves == 0
    Client(rooms, 1, address="10.0.0.7")  # (two from the address at worker 1)
    hopper = Client(rooms, 0, address="10.0.0.7")  # (one at worker 0: room for it there)
    with pytest.raises(ProtocolError, match="at most 2 connections from one address"):
        hopper.ask("state", table="t2")  # (it cannot go to worker 1)
    assert rooms[1].address(hopper.conn) is None
    with pytest.raises(ProtocolError, match="at most 2 connections from one address"):
        rooms[1].connect("10.0.0.7")


def test_workers_numbers_are_checked() -> None:
    with pytest.raises(ValueError, match="a worker is 0 to workers - 1"):
        Room(worker=2, workers=2)


# ---------------------------------------------------------------- the channels


def test_a_reader_s_line_begun_goes_on_in_another_reader() -> None:
    first = Lines(limit=10)
    assert first.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    second = Lines(limit=10)
    second.restore(*first.take_rest())
    assert first.take_rest() == (b"", False)
    assert second.feed(b":2}\n") == [b'{"b":2}']
    assert first.feed(b"x" * 20) == [None]  # (too long: the rest of it is skipped)
    third = Lines(limit=10)
    third.restore(*first.take_rest())
    assert third.feed(b"yyy\n{}\n") == [b"{}"]


needs_channels = pytest.mark.skipif(supported() is not None, reason="no Unix packet sockets")


@needs_channels
@pytest.mark.parametrize("size", [100, 3 * INLINE])
def test_a_connection_and_its_unread_input_go_to_another_worker(size: int) -> None:
    (inbox, outbox), = channels_for(1)  # fmt: skip
    own = socket.socket()  # (the sender's own inbox: not read here)
    sender, receiver = Channels(own, {0: outbox}), Channels(inbox, {})
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()
    lines: list[bytes | None] = [b'{"type":"join"}', None, b"x" * size, b""]
    moved = Moved(conn=7, address="10.0.0.1", hello=True, rate=12.5, lines=lines,
                  part=b'{"ty', skipping=False)  # fmt: skip
    assert receiver.receive() == []
    assert sender.send(0, served.fileno(), moved)
    served.close()  # (the connection lives on in the message)
    ((sock, got),) = receiver.receive()
    assert got == moved
    client.sendall(b'pe":"hello"}\n')
    assert sock.recv(100) == b'pe":"hello"}\n'
    sock.sendall(b"ok\n")
    assert client.recv(100) == b"ok\n"
    for s in (sock, client, listener, inbox, outbox, own):
        s.close()


@needs_channels
def test_a_full_inbox_says_so_and_takes_the_connection_later() -> None:
    (inbox, outbox), = channels_for(1)  # fmt: skip
    own = socket.socket()  # (the sender's own inbox: not read here)
    sender = Channels(own, {0: outbox})
    a, b = socket.socketpair()
    moved = Moved(conn=1, address="x", hello=True, rate=1.0, lines=[b"y" * 20000])
    sent = 0
    while sender.send(0, a.fileno(), moved):
        sent += 1
        assert sent < 10_000
    received = Channels(inbox, {}).receive()
    assert len(received) == sent > 0 and sender.send(0, a.fileno(), moved)
    for sock, _ in received:
        sock.close()
    for s in (a, b, inbox, outbox, own):
        s.close()


def test_workers_are_refused_where_the_system_cannot_pass_sockets(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delattr(socket, "SCM_RIGHTS", raising=False)
    assert supported() is not None
    if sys.platform == "win32":
        return
    from click.testing import CliRunner

    from holdem.cli.main import main

    result = CliRunner().invoke(main, ["serve", "--workers", "2", "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert "--workers" in result.output and "Traceback" not in result.output
