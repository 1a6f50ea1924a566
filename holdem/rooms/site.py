"""What ``holdem serve --web`` serves, and the links it gives
(:mod:`~holdem.rooms.web` serves them: it needs aiohttp, this does not)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Site", "client_address", "link_base"]


@dataclass(frozen=True, slots=True)
class Site:
    """Where and what ``--web`` serves: ``host:port`` (port 0: any free one),
    the page's folder (``index.html`` for every route, the rest under
    ``/static/``), the link's beginning (``url``: None, from the address),
    and the origins whose pages may open a WebSocket besides the server's
    own; ``proxies``: the networks of the reverse proxies in front of it,
    whose ``X-Forwarded-For`` says who a connection is from
    (:func:`client_address`)."""

    host: str
    port: int
    page: Path
    url: str | None = None
    origins: tuple[str, ...] = ()
    proxies: tuple[str, ...] = ()


def client_address(peer: str, forwarded: str | None, proxies: tuple[str, ...]) -> str:
    """Whom a connection from ``peer`` is from, for the limits a room keeps
    by address: ``peer`` itself unless it is one of ``proxies`` (networks,
    ``10.0.0.0/8``, or addresses); then the last address of ``X-Forwarded-For``
    (``forwarded``) that is not a proxy's (each proxy appends who it heard
    from: the addresses before the first hop it did not add can be anybody's
    invention).  A proxy that forwards no valid address stands for the
    connection itself.

    >>> client_address("10.0.0.2", "203.0.113.7, 10.0.0.1", ("10.0.0.0/8",))
    '203.0.113.7'
    >>> client_address("198.51.100.4", "203.0.113.7", ("10.0.0.0/8",))
    '198.51.100.4'
    """
    networks = [ipaddress.ip_network(p, strict=False) for p in proxies]
    if not networks or not _within(_ip(peer), networks):
        return peer
    for hop in reversed((forwarded or "").split(",")):
        ip = _ip(hop.strip())
        if ip is None:
            return peer  # (not an address: what the chain says before it is not to be trusted)
        if not _within(ip, networks):
            return str(ip)
    return peer


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address of an ``X-Forwarded-For`` hop or a peer: ``203.0.113.7``,
    with a port (``203.0.113.7:4711``, ``[2001:db8::1]:4711``) or without; an
    IPv4 address mapped into IPv6 as itself; None for anything else."""
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _within(
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None,
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network],
) -> bool:
    return ip is not None and any(ip in n for n in networks)


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
