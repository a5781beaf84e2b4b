"""Shared fixtures: random binary data with heavy ties, weights and both label orders."""

from __future__ import annotations

import numpy as np
import pytest


def make_binary(
    rng: np.random.Generator,
    n: int,
    *,
    ties: bool = True,
    weighted: bool = False,
    labels: tuple = (0, 1),
    prevalence: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Labels from ``labels`` (second = positive), probability-like scores that carry
    signal, rounded to a coarse grid when ``ties`` (so many scores tie), optional weights."""
    p = rng.uniform(0.2, 0.8) if prevalence is None else prevalence
    y = rng.random(n) < p
    if y.all() or not y.any():
        y[0] = not y[0]
    s = 1.0 / (1.0 + np.exp(-rng.normal(1.0 * (2 * y - 1), 1.2)))  # distinct almost surely
    if ties:
        s = np.round(s * rng.integers(3, 12)) / 12
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    yl = np.where(y, labels[1], labels[0])
    return yl, s, w


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)


@pytest.fixture(scope="session")
def dask_cluster():
    """One Dask cluster for the whole session (two in-process workers of one thread each,
    TCP; the scheduler's HTTP server on a free port: with no address it takes 8787 and
    warns when another session holds it): every distributed test uses it rather than
    starting its own. A test
    that uses it is marked ``cluster`` and put in one xdist group (the root conftest.py),
    so under ``--dist loadgroup`` the session starts one cluster."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  host="127.0.0.1", protocol="tcp://",
                                  dashboard_address="127.0.0.1:0") as c:
        yield c

