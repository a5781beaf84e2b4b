"""Reaching a Dask scheduler: one place for every layer that runs work on a cluster
(:mod:`measurelab.io.distributed` evaluates Parquet parts there,
:func:`measurelab.inference.learners.compare.compare_learners` fits learners there).

Examples
--------
>>> CONNECT_TIMEOUT
5.0
"""

from __future__ import annotations

from typing import Any

from measurelab.exceptions import MeasurelabError

#: seconds to wait for a Dask scheduler before giving up with one line
CONNECT_TIMEOUT = 5.0


def _brief(exc: BaseException, limit: int = 80) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, or a
    :class:`MeasurelabError` within ``timeout`` seconds if it cannot be reached.

    Examples
    --------
    >>> connect("tcp://127.0.0.1:1", timeout=0.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: cannot reach the Dask scheduler at ...
    """
    from distributed import Client

    from measurelab._util.validation import check_real

    if not isinstance(address, str) or not address.strip():
        raise MeasurelabError(f"address must be a scheduler address such as "
                              f"tcp://host:8786, got {str(address)[:60]!r}")
    timeout = check_real(timeout, "timeout", low=0, low_open=True)
    try:
        return Client(address, timeout=timeout)
    except Exception as exc:  # any failure to connect is the user's address
        raise MeasurelabError(
            f"cannot reach the Dask scheduler at {str(address)[:60]!r} within {timeout:g} s "
            f"({_brief(exc)}); expected a running scheduler such as tcp://host:8786"
        ) from None
