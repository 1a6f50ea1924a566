"""What ``holdem serve --web`` serves, and the links it gives
(:mod:`~holdem.rooms.web` serves them: it needs aiohttp, this does not)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Site", "link_base"]


@dataclass(frozen=True, slots=True)
class Site:
    """Where and what ``--web`` serves: ``host:port`` (port 0: any free one),
    the page's folder (``index.html`` for every route, the rest under
    ``/static/``), the link's beginning (``url``: None, from the address),
    and the origins whose pages may open a WebSocket besides the server's
    own."""

    host: str
    port: int
    page: Path
    url: str | None = None
    origins: tuple[str, ...] = ()


def link_base(site: Site, port: int) -> str:
    """The beginning of the tables' links: ``site.url``, else
    ``http://HOST:PORT`` (an address of every interface: this machine's name)."""
    if site.url:
        return site.url.rstrip("/")
    host = site.host
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    return f"http://{host}:{port}"
