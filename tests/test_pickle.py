"""Every result object pickles and reads back with the same repr and tables, so a result
can be cached (joblib), returned from a worker process or saved with a notebook — the
comparison with ``groups=``/``by=`` included, whose class used to be built at run time."""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab import inference as mi

RNG = np.random.default_rng(0)
N = 80
Y = np.array([0, 1] * (N // 2))
A = np.clip(0.3 + 0.4 * Y + RNG.normal(0, 0.2, N), 0.01, 0.99)
B = np.clip(0.35 + 0.3 * Y + RNG.normal(0, 0.2, N), 0.01, 0.99)
Y3 = RNG.integers(0, 3, 90)
P = RNG.dirichlet([1, 1, 1], 90)
Q = RNG.dirichlet([2, 1, 1], 90)


def _learners() -> Any:
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    g = np.random.default_rng(1)
    X = g.normal(size=(120, 3))
    y = (X[:, 0] + g.normal(size=120) > 0).astype(int)
    return mi.compare_learners({"lr": LogisticRegression(), "nb": GaussianNB()}, X, y, cv=5)


MAKERS: dict[str, Callable[[], Any]] = {
    "binary": lambda: ml.compare_classifiers(Y, {"a": A, "b": B}, n_boot=100),
    "k classes": lambda: ml.compare_classifiers(Y3, {"p": P, "q": Q}, n_boot=100),
    "unpaired": lambda: ml.compare_unpaired(Y, A, Y, B, n_boot=100),
    "clusters": lambda: ml.compare_classifiers(Y, {"a": A, "b": B}, n_boot=100,
                                               groups=np.arange(N) // 4),
    "subgroups": lambda: ml.compare_classifiers(Y, {"a": A, "b": B}, n_boot=100,
                                                by=np.arange(N) % 2),
    "evaluate": lambda: ml.evaluate(Y, A),
    "evaluate(ci=)": lambda: ml.evaluate(Y, A, ci=0.95, n_boot=100),
    "calibration test": lambda: ml.calibration_test(Y, A, n_resamples=99),
    "net benefit": lambda: ml.compare_classifiers(Y, {"a": A, "b": B}, n_boot=100
                                                  ).net_benefit([0.2, 0.4]),
    "Demšar": lambda: mi.demsar(pd.DataFrame(RNG.random((10, 3)), columns=list("xyz")),
                                higher_is_better=True),
    "Bayesian": lambda: mi.bayes_compare(RNG.random(10), RNG.random(10), rope=0.01,
                                         method="signed-rank"),
    "power": lambda: mi.power_roc_test(0.8, 50, 50),
    "simulated power": lambda: mi.simulate_power(mi.Binormal((0.8, 0.75), 30, 30),
                                                 measure="auc", n_sim=20),
    "learners": _learners,
}

#: the tables to compare after the round trip, where an object has them
TABLES = ("values", "intervals", "tests", "by_group", "to_frame", "table")


@pytest.mark.parametrize("name", list(MAKERS))
def test_round_trip(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        obj = MAKERS[name]()
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj)
        assert repr(back) == repr(obj)
        for t in TABLES:
            if not callable(getattr(obj, t, None)):
                continue
            try:
                want = getattr(obj, t)()
            except ml.MeasurelabError:   # not for this design (e.g. by_group without by=)
                continue
            got = getattr(back, t)()
            if isinstance(want, pd.DataFrame):
                pd.testing.assert_frame_equal(got, want)
            else:
                assert repr(got) == repr(want)
