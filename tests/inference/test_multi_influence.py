"""The k-class influence interval (issue 41): its standard error against the jackknife of
scikit-learn's measures (an independent route: leave one case out, recompute), the mean
loss's against the plain standard error of the per-case losses, the registry's choice
of it from 10,000 cases, and its agreement over parts."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import f1_score, matthews_corrcoef, roc_auc_score

from measurelab.inference import compare_classifiers
from measurelab.inference.classifiers.multi_parts import compare_multi_parts
from measurelab.inference.methods import Setting, choose

pytestmark = pytest.mark.filterwarnings("ignore")


def _data(n: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.choice(3, n, p=[0.45, 0.35, 0.2])
    out = []
    for skill in (1.3, 0.9):
        z = rng.normal(0.0, 1.0, (n, 3))
        z[np.arange(n), y] += skill
        p = np.round(np.exp(z) / np.exp(z).sum(axis=1, keepdims=True), 2)
        p[:, 2] = 1.0 - p[:, 0] - p[:, 1]
        out.append(np.clip(p, 0.0, 1.0))
    return y, out[0], out[1]


def _jackknife_var(values: np.ndarray) -> float:
    n = values.size
    return float((n - 1) / n * np.sum((values - values.mean()) ** 2))


def _se(r, model: str, measure: str) -> float:
    t = r.intervals()
    return float(t[(t.model == model) & (t.measure == measure)]["se"].iloc[0])


def _pair_se(r, measure: str) -> float:
    t = r.tests()
    row = t[t.measure == measure].iloc[0]
    return float((row.hi - row.lo) / (2 * 1.959963984540054))


@pytest.mark.parametrize("measure, score", [
    ("f1", lambda y, P: f1_score(y, P.argmax(1), average="macro")),
    ("mcc", lambda y, P: matthews_corrcoef(y, P.argmax(1))),
    ("auc", lambda y, P: roc_auc_score(y, P, multi_class="ovo")),
])
def test_the_influence_se_is_the_jackknife_se(measure: str, score) -> None:
    y, A, B = _data(500)
    r = compare_classifiers(y, {"a": A, "b": B}, measures=[measure], ci_method="influence")
    keep = np.ones(y.size, dtype=bool)
    ja, jd = np.empty(y.size), np.empty(y.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(y.size):
            keep[i] = False
            ja[i] = score(y[keep], A[keep])
            jd[i] = ja[i] - score(y[keep], B[keep])
            keep[i] = True
    assert _se(r, "a", measure) == pytest.approx(math.sqrt(_jackknife_var(ja)), rel=0.03)
    assert _pair_se(r, measure) == pytest.approx(math.sqrt(_jackknife_var(jd)), rel=0.03)


def test_the_mean_losses_have_the_plain_standard_error() -> None:
    y, A, B = _data(3000, seed=3)
    w = np.random.default_rng(1).uniform(0.5, 2.0, y.size)
    r = compare_classifiers(y, {"a": A, "b": B}, measures=["brier", "mxe"],
                            ci_method="influence", sample_weight=w)
    onehot = np.eye(3)[y]
    for name, loss in (("brier", lambda P: ((P - onehot) ** 2).sum(axis=1)),
                       ("mxe", lambda P: -np.log(np.clip(P[np.arange(y.size), y],
                                                         1e-15, 1 - 1e-15)))):
        la, lb = loss(A), loss(B)
        for got, x in ((_se(r, "a", name), la), (_pair_se(r, name), la - lb)):
            m = np.average(x, weights=w)
            want = math.sqrt(np.sum(w ** 2 * (x - m) ** 2)) / w.sum()
            assert got == pytest.approx(want, rel=1e-9)


def test_the_registry_chooses_it_for_k_classes_from_10000_cases() -> None:
    big = dict(multiclass=True, n=20_000, smaller=2_000)
    assert choose(Setting("f1", **big)).name == "influence"
    assert choose(Setting("auc", **big)).name == "influence"
    assert choose(Setting("acc", **big)).name == "wilson"   # whole counts: Wilson's
    assert choose(Setting("acc", whole_counts=False, **big)).name == "influence"
    assert choose(Setting("auc", average="micro", **big)).name.startswith("bootstrap")
    assert choose(Setting("ece", **big)).name != "influence"
    assert choose(Setting("f1", multiclass=True, n=5_000, smaller=1_000)
                  ).name.startswith("bootstrap")


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_over_parts_it_is_the_one_machine_interval(average) -> None:
    y, A, B = _data(1200, seed=11)
    kw = dict(measures=["f1", "auc", "ap", "rms"], ci_method="influence", average=average,
              stratify=True)
    if average in ("weighted", "micro"):
        kw["measures"] = ["f1", "mcc", "brier"]
    whole = compare_classifiers(y, {"a": A, "b": B}, **kw)
    parts = [(y[i:i + 300], [A[i:i + 300], B[i:i + 300]], None) for i in range(0, 1200, 300)]
    r = compare_multi_parts(parts, ["a", "b"], **kw)
    assert r.values().equals(whole.values())
    for t in ("intervals", "tests"):
        a, b = getattr(whole, t)(), getattr(r, t)()
        assert a["method"].tolist() == b["method"].tolist()
        np.testing.assert_allclose(b[["lo", "hi"]], a[["lo", "hi"]], rtol=0, atol=1e-12)
