"""Unpaired comparisons (two test sets) and the one-story rule of every comparison row:
``lo > 0 or hi < 0`` exactly when ``p < 1 − ci``."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference.delong import delong_unpaired
from measurelab.inference.evidence import plain_method
from measurelab.inference.withholding import withholding
from measurelab.stats.scoretable import ScoreTable


def _data(g, n, shift):
    y = g.random(n) < 0.35
    s = 1 / (1 + np.exp(-(shift * y + g.normal(size=n) - 0.6)))
    return y.astype(int), np.round(s, 3)


@pytest.fixture
def two_sets():
    g = np.random.default_rng(8)
    return (*_data(g, 260, 1.8), *_data(g, 200, 1.1))


def test_unpaired_auc_row_is_delong_unpaired(two_sets):
    ya, sa, yb, sb = two_sets
    r = ml.compare_unpaired(ya, sa, yb, sb, measures=["auc", "f1", "acc"], n_boot=300,
                            names=("new", "old"))
    t = r.tests().set_index("measure")
    ref = delong_unpaired(ScoreTable.from_arrays(ya == 1, sa),
                          ScoreTable.from_arrays(yb == 1, sb))
    for k in ("diff", "lo", "hi", "se", "z", "df", "p"):
        assert t.loc["auc", k] == pytest.approx(ref[k], rel=1e-12)
    assert list(t.columns[:2]) == ["a", "b"] and t["a"].tolist() == ["new"] * 3
    assert t.loc["f1", "method"] == "dirichlet-posterior" and math.isnan(t.loc["f1", "df"])
    # the values are each model's value on its own test set
    assert t.loc["f1", "diff"] == pytest.approx(ml.metrics.f1(ya, sa) - ml.metrics.f1(yb, sb),
                                                abs=1e-15)
    assert set(r.to_dict()) == {"models", "pairs"}


def test_unpaired_bootstrap_difference_has_the_variance_of_independent_sets(two_sets):
    """The replicated difference of independent bootstraps: its spread is the root sum
    of the two single-set spreads (checked through the intervals' widths)."""
    ya, sa, yb, sb = two_sets
    kw = dict(measures=["brier"], n_boot=2000, ci_method="bootstrap-percentile")
    r = ml.compare_unpaired(ya, sa, yb, sb, **kw)
    wa = np.diff(ml.compare_classifiers(ya, {"a": sa}, **kw).intervals()[["lo", "hi"]]
                 .to_numpy()[0])[0]
    wb = np.diff(ml.compare_classifiers(yb, {"b": sb}, **kw).intervals()[["lo", "hi"]]
                 .to_numpy()[0])[0]
    t = r.tests().iloc[0]
    assert (t.hi - t.lo) == pytest.approx(math.hypot(wa, wb), rel=0.1)


def test_unpaired_bad_input(two_sets):
    ya, sa, yb, sb = two_sets
    with pytest.raises(ml.MeasurelabError, match="names must be two different names"):
        ml.compare_unpaired(ya, sa, yb, sb, names=("m", "m"))
    with pytest.raises(ml.MeasurelabError, match="too few replicates"):
        ml.compare_unpaired(ya, sa, yb, sb, n_boot=10)


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_every_row_tells_one_story(level):
    """In every row (bootstrap, DeLong, posterior, McNemar's score test with Tango's
    interval) the interval excludes 0 exactly when p < 1 − ci; in a McNemar row that is
    when McNemar's asymptotic statistic passes z; no RuntimeWarning escapes."""
    g = np.random.default_rng(1)
    n = 300
    y = (g.random(n) < 0.3).astype(int)
    base = g.normal(size=n)
    models = {f"m{i}": np.round(1 / (1 + np.exp(-(k * y + base + g.normal(0, 0.7, n) - 1))), 2)
              for i, k in enumerate((1.0, 1.3, 1.6))}
    models["same"] = models["m0"] ** 2  # rank-equivalent to m0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", ml.UndefinedMeasureWarning)
        r = ml.compare_classifiers(y, models, measures="all", ci=level, n_boot=300)
        t = r.tests()
        u = ml.compare_unpaired(y[:150], models["m0"][:150], y[150:], models["m2"][150:],
                                measures="all", ci=level, n_boot=300).tests()
    from scipy.stats import norm

    for rows in (t, u):
        ok = rows.dropna(subset=["p"])
        excl = (ok["lo"] > 0) | (ok["hi"] < 0)
        assert (excl == (ok["p"] < 1 - level)).all()   # McNemar's rows too (score test)
        assert ((ok["lo"] <= ok["diff"]) & (ok["diff"] <= ok["hi"])).all()
    for row in t[t.method == "mcnemar"].itertuples():
        pa, pb = r._correct(r.names.index(row.a)), r._correct(r.names.index(row.b))
        nb, nc = int((pa & ~pb).sum()), int((~pa & pb).sum())
        stat = abs(nb - nc) / np.sqrt(nb + nc) if nb + nc else 0.0
        assert ((row.lo > 0) or (row.hi < 0)) == (stat > norm.ppf(0.5 + level / 2))
    same = t[(t.a == "m0") & (t.b == "same") & (t.measure == "auc")].iloc[0]
    assert same.z == 0.0 and same.p == 1.0
    # calibration rows: a Wald interval on the bootstrap's SE, or none (withheld)
    assert set(t.method) == {"delong", "mcnemar", "bootstrap", "bootstrap-se", "none",
                             "dirichlet-posterior"}
    assert t[t.method == "none"][["lo", "hi", "p"]].isna().all().all()
    mc = t[t.method == "mcnemar"]
    assert (mc.interval.map(plain_method) == "tango-score").all()


def test_degenerate_models_are_stated_and_no_runtime_warning_escapes():
    """A constant model, a perfect one, rank-equivalent ones, on 12 cases (many replicates
    miss a class): every interval and test is computed with no RuntimeWarning; a single-
    value interval says why; infinite and undefined replicates are counted."""
    y = np.array([0, 1] * 6)
    const, perfect = np.full(12, 0.4), np.where(y == 1, 0.9, 0.1)
    rand = np.linspace(0, 1, 12)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("error", RuntimeWarning)
        models = {"const": const, "perfect": perfect, "rand": rand, "same": rand**2}
        r = ml.compare_classifiers(y, models, measures="all", n_boot=200)
        iv, t = r.intervals(), r.tests()
        ml.compare_unpaired(y, perfect, y, const, measures="all", n_boot=200).tests()
        e = ml.evaluate(y, const, ci=0.95, n_boot=200, measures="all").intervals()
        # the bootstrap (forced) on the measures whose default is the posterior
        rb = ml.compare_classifiers(y, models, measures=["f1", "lr_pos"], n_boot=200,
                                    ci_method="bootstrap-bca")
        with withholding(False):   # the bootstrap itself, whatever the studies found
            ivb = rb.intervals()
        # DeLong's interval (forced: with 6 cases a class the default is Newcombe's)
        ml.compare_classifiers(y, models, measures=["auc"], ci_method="delong-logit"
                               ).intervals()
        with withholding(False):
            eb = ml.evaluate(y, const, ci=0.95, n_boot=200, measures=["lr_pos"],
                             ci_method="bootstrap-bca").intervals()
    text = [str(w.message) for w in caught]
    assert any("f1 of model 'const' is the single value 0" in m for m in text)
    assert any("auc of model 'perfect': DeLong interval is the point AUC = 1" in m
               and "perfect separation" in m for m in text)
    f1 = ivb[(ivb.model == "const") & (ivb.measure == "f1")].iloc[0]
    assert f1.lo == f1.hi == f1.value == 0.0
    lr = ivb[(ivb.model == "perfect") & (ivb.measure == "lr_pos")].iloc[0]
    assert lr.infinite == 1.0 and lr.lo == lr.hi == np.inf
    assert eb.set_index("measure").loc["lr_pos", "undefined"] == 1.0
    # the posterior: a model that flags nothing has F1 0 in the sample and an interval
    # from 0 up (the population may flag a few); its lr_pos, 0/0 in the sample, has the
    # population's posterior interval
    f1 = iv[(iv.model == "const") & (iv.measure == "f1")].iloc[0]
    assert f1.lo == f1.value == 0.0 < f1.hi < 1 and f1.method.startswith("dirichlet")
    lr = e.set_index("measure").loc["lr_pos"]
    assert np.isnan(lr["value"]) and 0 < lr["lo"] < lr["hi"] < np.inf
    auc = iv[(iv.model == "perfect") & (iv.measure == "auc")].iloc[0]
    assert auc.value == auc.hi == 1.0 and auc.lo < 1
    assert auc.method.startswith("newcombe-score")
    # rank-equivalent models: DeLong's z is 0 (6 cases a class: the study found DeLong's
    # paired interval short there, so the policy withholds it; off, it is the point 0)
    same = t[(t.a == "rand") & (t.b == "same") & (t.measure == "auc")].iloc[0]
    assert math.isnan(same.lo) and same.interval.startswith("no interval: coverage ")
    with withholding(False), warnings.catch_warnings():
        warnings.simplefilter("ignore", ml.UndefinedMeasureWarning)  # (stated above)
        t = r.tests()
    same = t[(t.a == "rand") & (t.b == "same") & (t.measure == "auc")].iloc[0]
    assert (same.z, same.p, same.lo, same.hi) == (0.0, 1.0, 0.0, 0.0)


def test_pair_rows_get_their_acceleration_whatever_else_is_asked():
    """A measure whose own interval is Wilson (sens) still has BCa pair rows: their
    acceleration comes from the jackknife, so the row does not depend on which other
    measures were requested (it did: alone, sens ran with a = 0)."""
    g = np.random.default_rng(0)
    n = 120
    y = g.random(n) < 0.4
    sa = 1 / (1 + np.exp(-(2 * y + g.normal(size=n) - 1)))
    sb = 1 / (1 + np.exp(-(1 * y + g.normal(size=n) - 0.5)))
    rows = []
    for ms in (["sens"], ["sens", "f1"]):
        t = ml.compare_classifiers(y, {"a": sa, "b": sb}, measures=ms, n_boot=500,
                                   random_state=1).tests()
        rows.append(t[t.measure == "sens"][["lo", "hi", "p"]].to_numpy())
    np.testing.assert_array_equal(rows[0], rows[1])


# (lr_pos's undefined replicates are stated too; the test is about sens)
@pytest.mark.filterwarnings("ignore:.*difference in lr_pos:"
                            "measurelab.exceptions.UndefinedMeasureWarning")
def test_unpaired_difference_of_a_bounded_measure_stays_in_its_range():
    """Two small test sets with two positives each: sens is undefined in the replicates
    that draw no positive; the difference of two sens lives in [−1, 1] and its interval
    ends there, never at ±inf; lr_pos (unbounded) keeps ±inf."""
    g = np.random.default_rng(5)
    ya = np.r_[np.zeros(25, int), np.ones(2, int)]
    yb = np.r_[np.zeros(30, int), np.ones(2, int)]
    sa = np.r_[g.uniform(0, 0.6, 25), [0.8, 0.45]]
    sb = np.r_[g.uniform(0, 0.6, 30), [0.7, 0.9]]
    with pytest.warns(ml.UndefinedMeasureWarning, match=r"difference in sens .*counted as "
                      r"-1 for the lower end, 1 for the upper: the ends of the range"):
        with withholding(False):
            t = ml.compare_unpaired(ya, sa, yb, sb, measures=["sens", "lr_pos", "f1"],
                                    n_boot=500, ci_method="bootstrap-bca"
                                    ).tests().set_index("measure")
    assert (t.loc["sens", "lo"], t.loc["sens", "hi"]) == (-1.0, 1.0)
    assert "counted at the ends of [-1, 1]" in t.loc["sens", "interval"]
    assert -1 <= t.loc["f1", "lo"] <= t.loc["f1", "hi"] <= 1
    assert math.isinf(t.loc["lr_pos", "lo"]) or math.isinf(t.loc["lr_pos", "hi"])
