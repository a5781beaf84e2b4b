"""One training trajectory, many stopping rules: the readings of Huang & Ling's rule.

Training a network never depends on the rule that will stop it (:mod:`measurelab.lab.learn.mlp`),
so one run can be recorded once — f on the monitoring data and the test measures every
``every`` epochs — and then *any* reading of the stopping rule, with any look-ahead N that
is a multiple of ``every``, is applied afterwards by :func:`stop_index`. With the same seed
and ``monitor_on`` the recorded run is the very run of
:func:`~measurelab.lab.learn.mlp.train_monitored` (same initial weights, same shuffles), so a
reading's stopping epoch here equals that function's.

A reading is ``(rule, signed)`` of :func:`measurelab.lab.learn.stopping.improved`:
lexicographic, the display number AUC + acc/100, or ε-tolerant lexicographic, each with
a signed or an absolute difference.

Examples
--------
>>> stop_index([0.5, 0.6, 0.62, 0.7, 0.9], step=1)     # 0.62 − 0.6 > ε, 0.7 − 0.62 > ε ...
(4, True)
>>> stop_index([0.5, 0.6, 0.605, 0.7], step=1)         # stops at the 3rd check: keeps 0.6
(1, False)
>>> stop_index([0.5, 0.6, 0.605, 0.7], step=2)         # N twice as long: 0.5 → 0.605
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.lab.learn.stopping import ImprovementStop
from measurelab.validation import check_int, make_rng


def stop_index(values: Sequence[Any], *, step: int = 1, epsilon: float = 0.01,
               rule: str = "lexicographic", signed: bool = True) -> tuple[int, bool]:
    """Apply the look-ahead rule to values recorded at equally spaced checks.

    ``values[i]`` is f after ``i`` recording intervals; the rule looks every ``step``
    intervals (N = step × every). Returns (index of the kept weights, whether the rule
    was still going on at the last look, i.e. stopped by the end of the record).

    Examples
    --------
    >>> from measurelab.measures.twolevel import TwoLevelValue as T
    >>> v = [T(0.5, 0.5), T(1.0, 0.80), T(1.0, 0.85), T(1.0, 0.851)]
    >>> stop_index(v, rule="lexicographic"), stop_index(v, rule="display")
    ((2, False), (1, False))
    """
    step = check_int(step, "step", minimum=1)
    if not values:
        raise MeasurelabError("values is empty; expected f at the start of training")
    r = ImprovementStop(epsilon, rule, signed)
    r.start(values[0])
    for i in range(step, len(values), step):
        if not r.update(values[i]):
            return r.best_round * step, False
    return r.best_round * step, True


@dataclass
class Trajectory:
    """Measures recorded every ``every`` epochs: on the monitoring data (``monitor``)
    and on the test data (``test``), each a dict measure → list (index = check)."""

    every: int
    epochs: list[int] = field(default_factory=list)
    monitor: dict[str, list[float]] = field(default_factory=dict)
    test: dict[str, list[float]] = field(default_factory=dict)


def record_trajectory(
    X: np.ndarray,
    y: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    *,
    n_classes: int,
    every: int = 25,
    max_epochs: int = 3000,
    monitor_on: str = "train",
    validation_fraction: float = 0.25,
    hidden: int | str = "a",
    learning_rate: float = 0.3,
    momentum: float = 0.2,
    batch_size: int = 10,
    average: str = "macro",
    random_state: int = 0,
    done: Callable[[Trajectory], bool] | None = None,
) -> Trajectory:
    """Train one network as :func:`~measurelab.lab.learn.mlp.train_monitored` does and record
    AUC and acc on the monitoring and the test data every ``every`` epochs, until
    ``done(trajectory)`` is True or ``max_epochs`` is reached.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((60, 2)); y = (X[:, 0] > X[:, 1]).astype(int)
    >>> t = record_trajectory(X, y, X, y, n_classes=2, every=20, max_epochs=100)
    >>> t.epochs, len(t.monitor["auc"]) == len(t.test["acc"]) == 6
    ([0, 20, 40, 60, 80, 100], True)
    """
    from measurelab.lab.learn.mlp import (
        MLP,
        _stratified_holdout,
        _targets,
        hidden_units,
        measure_monitor,
        scores_from_outputs,
    )

    if every < 1:
        raise MeasurelabError(f"every must be >= 1, got {every!r}")
    if monitor_on not in ("train", "validation"):
        raise MeasurelabError(
            f"monitor_on={monitor_on!r} is not valid; expected 'train' or 'validation'"
        )
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    k = int(n_classes)
    f = {m: measure_monitor(m, n_classes=k, average=average) for m in ("auc", "acc")}
    rng = make_rng(random_state)
    if monitor_on == "validation":
        tr, va = _stratified_holdout(y, validation_fraction, rng)
        Xf, yf, Xm, ym = X[tr], y[tr], X[va], y[va]
    else:
        Xf, yf, Xm, ym = X, y, X, y
    n_out = 1 if k == 2 else k
    net = MLP(X.shape[1], hidden_units(hidden, X.shape[1], n_out), n_out,
              learning_rate=learning_rate, momentum=momentum, batch_size=batch_size,
              random_state=rng)
    T = _targets(yf, k)
    traj = Trajectory(every=every, monitor={"auc": [], "acc": []},
                      test={"auc": [], "acc": []})

    def record() -> None:
        traj.epochs.append(net.epochs)
        sm = scores_from_outputs(net.forward(Xm))
        st = scores_from_outputs(net.forward(np.asarray(X_test, dtype=np.float64)))
        for m in ("auc", "acc"):
            traj.monitor[m].append(float(f[m](ym, sm)))
            traj.test[m].append(float(f[m](np.asarray(y_test), st)))

    record()
    while net.epochs + every <= max_epochs and not (done is not None and done(traj)):
        net.train_epochs(Xf, T, every)
        record()
    return traj
