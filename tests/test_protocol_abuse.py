"""``holdem engine`` under abuse (issue 28): SIGTERM stops it as Ctrl-C does;
on TCP a client that does not read is closed past a bound, a client's
tables close and its runs stop when it leaves."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(os.name == "nt", reason="signals and process groups are POSIX")

HELLO = {"id": 1, "type": "hello", "version": 1}


def engine(*args: str) -> subprocess.Popen[bytes]:
    """``holdem engine ARGS`` in a session of its own, its stdin a pipe."""
    return subprocess.Popen([sys.executable, "-m", "holdem", "engine", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip


def port_of(server: subprocess.Popen[bytes]) -> int:
    assert server.stderr is not None
    line = server.stderr.readline().decode()
    assert line.startswith("holdem engine: listening on 127.0.0.1:"), line
    return int(line.rsplit(":", 1)[1])


def stopped(server: subprocess.Popen[bytes], seconds: float = 10) -> tuple[int, str]:
    """The status and the stderr of a server that must stop within ``seconds``."""
    try:
        _, err = server.communicate(timeout=seconds)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    return server.returncode, err.decode()


class Connection:
    """A client of ``holdem engine --listen``: requests, and what it is told."""

    def __init__(self, port: int, receive_buffer: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:  # (before connecting: the window is set then)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(20)
        self.sock.connect(("127.0.0.1", port))
        self.stream = self.sock.makefile("rb")

    def send(self, request: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(request).encode() + b"\n")

    def ask(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        """Sends a request; the messages up to its reply."""
        self.send(request)
        seen = []
        while True:
            line = self.stream.readline()
            assert line, "the engine closed the connection"
            seen.append(json.loads(line))
            if "event" not in seen[-1] and seen[-1].get("id") == request["id"]:
                return seen

    def close(self) -> None:
        self.stream.close()
        self.sock.close()


# ---------------------------------------------------------------- SIGTERM


def test_sigterm_stops_the_engine_on_stdin_as_ctrl_c_does() -> None:
    server = engine()
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(HELLO).encode() + b"\n")
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["result"]["protocol"] == "holdem"
    server.send_signal(signal.SIGTERM)
    code, err = stopped(server)
    assert code == 143 and err.strip().splitlines() == ["holdem engine: terminated"]


def test_sigterm_stops_the_engine_on_tcp_and_closes_its_clients() -> None:
    server = engine("--listen", "127.0.0.1:0")
    client = Connection(port_of(server))
    client.ask(HELLO)
    server.send_signal(signal.SIGTERM)
    code, err = stopped(server)
    assert code == 143 and err.strip().splitlines() == ["holdem engine: terminated"]
    assert client.stream.readline() == b""  # (closed)
    client.close()
