"""The lobby of a room server's public tables, as a player reads it
(``holdem join --list``), and how a client names a table: by its join code
or, a public one, by its id (``t3``)."""

from __future__ import annotations

import re
from typing import Any

from holdem.units import chips_text

from .telling import ante_name, table_unit

__all__ = ["listing", "table_fields"]

_TABLE_ID = re.compile(r"[tT][1-9][0-9]{0,8}")
_STRUCTURES = {"no_limit": "no limit", "pot_limit": "pot limit", "fixed_limit": "fixed limit"}


def table_fields(code: str) -> dict[str, str]:
    """The fields of a request that name the table ``code`` stands for: a
    public table's id (``t3``: ``table``), else a join code (``code``)."""
    text = code.strip()
    if _TABLE_ID.fullmatch(text):
        return {"table": text.lower()}
    return {"code": text}


def _stakes(table: dict[str, Any]) -> str:
    """A listed table's blinds (a tournament's now, and its stack), in its
    money (R9: its ``unit``)."""
    blinds = table.get("blinds")
    unit = table_unit(table)
    text = "-"
    if isinstance(blinds, dict):
        text = f"{chips_text(blinds['small_blind'], unit)}/{chips_text(blinds['big_blind'], unit)}"
        if blinds.get("ante"):
            ante = ante_name(bool(blinds.get("big_blind_ante")))
            text += f" {ante} {chips_text(blinds['ante'], unit)}"
    if table.get("stack") is not None:
        text += f", {chips_text(table['stack'], unit)} stack"
    return text


def _structure(table: dict[str, Any]) -> str:
    """A listed table's betting: ``no limit``, ``pot limit``, ``fixed limit``."""
    structure = table.get("structure") or ""
    return _STRUCTURES.get(structure, structure or "-")


def listing(tables: list[dict[str, Any]], address: str) -> list[str]:
    """The public tables (``list_tables``'s) as lines: id, game, stakes,
    structure, seats taken of seats, hands played, whether one may join, and
    how many of its players are away (out of the deal), when some are, and
    whether it runs it twice."""
    if not tables:
        return [f"No public table on {address} now: holdem join --create --public "
                f"--server {address} makes one."]  # fmt: skip
    stakes = [_stakes(t) for t in tables]
    wide = max(22, *map(len, stakes))  # (the stakes' column fits the longest: an ante, a stack)
    head = f"  {'table':<6} {'game':<10} {'stakes':<{wide}} {'structure':<12} {'seats':>5} " \
        f"{'hands':>6}  joinable"  # fmt: skip
    lines = [f"Public tables on {address}:", head]
    for t, stake in zip(tables, stakes, strict=True):
        game = "freezeout" if t["game"] == "tournament" else "cash"
        seats = f"{t['players']}/{t['max_seats']}"
        hands = "-" if t.get("hands_played") is None else f"{t['hands_played']:,}"
        joinable = "yes" if t["joinable"] else f"no ({t['status']})"
        if t["joinable"] and t["players"] >= t["max_seats"]:
            joinable = "no (full)"
        if t.get("away"):
            joinable += f", {t['away']} away"
        if t.get("run_it_twice"):  # (R10: the end of the line, past the columns)
            joinable += ", runs it twice"
        lines.append(f"  {t['table']:<6} {game:<10} {stake:<{wide}} {_structure(t):<12} "
                     f"{seats:>5} {hands:>6}  {joinable}")  # fmt: skip
    lines.append(f"Join one by its id: holdem join {tables[0]['table']} --server {address}")
    return lines
