"""The ``--cluster`` option of the commands whose work a Dask cluster can take
(``simulate``, ``validate``, ``stats``, ``equity``: docs/cluster.md), and
``--ship`` of those that read files."""

from __future__ import annotations

from typing import Any

import click

from holdem.cluster import CONNECT_SECONDS, MAX_LOCAL, check_address
from holdem.errors import ConfigError


def _address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return check_address(value)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def cluster_option(command: Any) -> Any:
    """``--cluster ADDRESS``: a Dask scheduler's address, or ``local:N``."""
    return click.option(
        "--cluster", metavar="ADDRESS", default=None, callback=_address,
        help="Run on a Dask cluster instead: tcp://HOST:8786 (a running scheduler, reached "
        f"within {CONNECT_SECONDS:g} seconds) or local:N (N worker processes here, 1 to "
        f"{MAX_LOCAL}); the same result. Needs pip install 'holdem-toolkit[cluster]'.",
    )(command)  # fmt: skip


def check_cluster(cluster: str | None, option: str, value: int) -> None:
    """A usage error for ``--cluster`` with ``option`` (``--jobs``, ``--threads``)
    other than 1: the cluster's workers take their place."""
    if cluster is not None and value != 1:
        raise click.UsageError(f"--cluster takes the place of {option}: give one of them")


def ship_option(command: Any) -> Any:
    """``--ship``: with ``--cluster``, the files' bytes sent to the workers."""
    return click.option(
        "--ship", is_flag=True,
        help="With --cluster: send the files' bytes to the workers (default: they read the "
        "files at the same paths, on a file system they share).",
    )(command)  # fmt: skip


def check_ship(ship: bool, cluster: str | None) -> None:
    """A usage error for ``--ship`` without ``--cluster``."""
    if ship and cluster is None:
        raise click.UsageError("--ship sends the files to a cluster's workers: give --cluster")
