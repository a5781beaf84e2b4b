"""Generic tests run over every registered measure (scikit-learn's test_common, our way).

Each measure must be invariant to the order of the examples, give the same value from
merged statistics of random splits as from all the data, stay in its declared range, point
in its declared direction, ignore strictly increasing score transforms (rank measures)
and obey its declared behaviour when the classes are swapped.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab.measures.base import registry
from tests.conftest import make_binary

ALL = [m.name for m in registry]


def _same(a, b) -> bool:
    a, b = float(a), float(b)
    return (math.isnan(a) and math.isnan(b)) or a == b


def _data(seed: int, n: int = 500, **kw):
    return make_binary(np.random.default_rng(seed), n, **kw)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("weighted", [False, True])
def test_permutation_invariance(name, weighted):
    y, s, w = _data(1, weighted=weighted)
    perm = np.random.default_rng(2).permutation(len(y))
    a = ml.evaluate(y, s, measures=[name], sample_weight=w)[name]
    b = ml.evaluate(y[perm], s[perm], measures=[name],
                    sample_weight=None if w is None else w[perm])[name]
    assert _same(a, b)


@pytest.mark.parametrize("name", ALL)
def test_merge_of_random_splits_equals_whole(name):
    y, s, _ = _data(3, n=800, weighted=False)
    whole = ml.evaluate(y, s, measures=[name])[name]
    cuts = np.sort(np.random.default_rng(4).choice(np.arange(1, len(y)), 6, replace=False))
    parts = [ml.Evaluator(measures=[name]).update(yy, ss)
             for yy, ss in zip(np.split(y, cuts), np.split(s, cuts), strict=True)]
    while len(parts) > 1:  # merge as a tree, as a cluster would
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    assert _same(parts[0].compute()[name], whole)
    stream = ml.Evaluator(measures=[name])
    for yy, ss in zip(np.split(y, cuts), np.split(s, cuts), strict=True):
        stream.update(yy, ss)
    assert _same(stream.compute()[name], whole)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("seed", range(5))
def test_declared_range(name, seed):
    m = registry.get(name)
    y, s, w = _data(seed, n=200, prevalence=[0.05, 0.3, 0.5, 0.8, 0.95][seed])
    v = float(ml.evaluate(y, s, measures=[name], sample_weight=w)[name])
    lo, hi = m.range
    assert math.isnan(v) or lo <= v <= hi


#: test statistics whose calibrated value is 0 and whose evidence is |value| (the registry's
#: direction, "lower", reads as lower |value|)
TWO_SIDED = {"spiegelhalter_z"}


#: measures best at a target value that a perfect (0/1) classifier does not reach: the
#: logistic recalibration (separation: no finite slope); a calibrated model does
CALIBRATED_TARGET = {"cal_slope", "cal_intercept"}


@pytest.mark.parametrize("name", ALL)
def test_declared_direction(name):
    """A perfect classifier scores at least as well as a random one, never worse (a
    measure of calibration with a target: a calibrated model, nearer its target)."""
    m = registry.get(name)
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.4
    if name in CALIBRATED_TARGET:
        p = rng.uniform(0.02, 0.98, 400)
        calibrated = ml.evaluate(rng.random(400) < p, p, measures=[name])[name]
        noise = ml.evaluate(y, rng.random(400), measures=[name])[name]
        assert m.is_better(float(calibrated), float(noise))
        assert abs(float(calibrated) - m.target) < 0.3 < abs(float(noise) - m.target)
        return
    perfect = ml.evaluate(y, y.astype(float), measures=[name])[name]
    noise = ml.evaluate(y, rng.random(400), measures=[name])[name]
    if name in TWO_SIDED:
        assert abs(float(perfect)) < abs(float(noise))
    elif m.higher_is_better:
        assert float(perfect) > float(noise) or float(perfect) == m.range[1]
    else:
        assert float(perfect) < float(noise) or float(perfect) == m.range[0]


RANK = [m.name for m in registry if m.kind == "rank"]


@pytest.mark.parametrize("name", RANK)
def test_rank_measures_ignore_increasing_transforms(name):
    y, s, _ = _data(6)
    a = ml.evaluate(y, s, measures=[name])[name]
    for f in (lambda x: np.exp(3 * x) + 7, lambda x: x**3 - 2, lambda x: 1e6 * x):
        assert _same(ml.evaluate(y, f(s), measures=[name])[name], a)


# Under a swap of the classes (and p -> 1 - p, >= at the threshold), each measure either
# keeps its value, turns into another measure, or has no simple relation (class-specific).
SYMMETRIC = {"acc", "err", "bacc", "youden", "mcc", "kappa", "gmean", "auc", "ri", "op",
             "avri", "oarp", "dp", "brier", "rms", "mxe", "cal", "sar", "top_k_acc",
             "brier_mcb", "brier_dsc", "logloss_mcb", "logloss_dsc", "brier_mcb_insample",
             "brier_dsc_insample", "logloss_mcb_insample", "logloss_dsc_insample", "smece",
             "spiegelhalter_z", "kappa_linear", "kappa_quadratic", "scott_pi", "gwet_ac1", "dor",
             "markedness", "cal_slope"}
#: the negative of itself: calibration-in-the-large (logit(1 − p) = −logit p, so the
#: recalibration of the swapped classes is −α + β·logit(1 − p))
NEGATED = {"cal_intercept"}
#: symmetric as defined (local regression is equivariant under p -> 1 - p, y -> 1 - y), but
#: R's loess surface interpolates on a k-d tree split at the lower median case, and the
#: mirrored data's tree is not the mirror image: equal to R's interpolation error
NEARLY_SYMMETRIC = {"ici", "e50", "e90", "emax"}
PAIRED = {"sens": "spec", "spec": "sens", "prec": "npv", "npv": "prec",
          "sens_at_spec": "spec_at_sens", "spec_at_sens": "sens_at_spec",
          "fdr": "for_rate", "for_rate": "fdr"}
RECIPROCAL = {"lr_pos": "lr_neg", "lr_neg": "lr_pos"}
CLASS_SPECIFIC = {"f_beta", "f1", "apr", "ap", "ap11", "bep", "lift", "ece",
                  "net_benefit", "snb", "prec_at_recall", "recall_at_prec", "pauc", "spauc",
                  "jaccard", "fowlkes_mallows"}


def test_every_measure_has_a_declared_swap_behaviour():
    declared = (SYMMETRIC | set(PAIRED) | set(RECIPROCAL) | CLASS_SPECIFIC | NEARLY_SYMMETRIC
                | NEGATED)
    assert set(ALL) - declared == set(), "declare how new measures behave under label swap"


@pytest.mark.parametrize("name", sorted(SYMMETRIC | set(PAIRED) | set(RECIPROCAL)))
@pytest.mark.parametrize("weighted", [False, True])
def test_label_swap(name, weighted):
    y, s, w = _data(7, weighted=weighted)
    names = sorted(SYMMETRIC | set(PAIRED) | set(RECIPROCAL))
    a = ml.evaluate(y, s, measures=names, sample_weight=w)
    b = ml.evaluate(1 - y, 1 - s, measures=names, sample_weight=w, inclusive=True)
    if name in SYMMETRIC:
        assert _same(a[name], b[name]) or float(b[name]) == pytest.approx(
            float(a[name]), rel=1e-12, abs=1e-12)
    elif name in PAIRED:
        assert b[name] == pytest.approx(a[PAIRED[name]], abs=1e-12)
    else:
        assert b[name] == pytest.approx(1 / a[RECIPROCAL[name]], rel=1e-12)


@pytest.mark.parametrize("name", sorted(NEGATED))
@pytest.mark.parametrize("weighted", [False, True])
def test_label_swap_negates(name, weighted):
    y, s, w = _data(7, weighted=weighted)
    a = ml.evaluate(y, s, measures=[name], sample_weight=w)[name]
    b = ml.evaluate(1 - y, 1 - s, measures=[name], sample_weight=w, inclusive=True)[name]
    assert float(b) == pytest.approx(-float(a), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", sorted(NEARLY_SYMMETRIC))
@pytest.mark.parametrize("weighted", [False, True])
def test_label_swap_up_to_interpolation(name, weighted):
    y, s, w = _data(7, weighted=weighted)
    a = ml.evaluate(y, s, measures=[name], sample_weight=w)[name]
    b = ml.evaluate(1 - y, 1 - s, measures=[name], sample_weight=w, inclusive=True)[name]
    assert b == pytest.approx(a, abs=2e-3)


EXACT_COUNTS = [m.name for m in registry if m.exact and m.statistic == "counts"]


@pytest.mark.parametrize("name", EXACT_COUNTS)
def test_exact_measures_return_fractions(name):
    """Count measures marked exact give Fractions on Fraction counts (ties decided exactly)."""
    m = registry.get(name)
    c = ml.BinaryCounts(*(Fraction(v) for v in (7, 3, 2, 8)))
    v = m.formula(c, **m.params)
    assert isinstance(v, Fraction)
    assert float(v) == pytest.approx(m.formula(ml.BinaryCounts(7, 3, 2, 8), **m.params))


@st.composite
def labelled_scores(draw):
    n = draw(st.integers(2, 40))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    s = draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]),
                      min_size=n, max_size=n))
    cut = draw(st.integers(0, n))
    return np.array(y), np.array(s), cut


@settings(max_examples=150, deadline=None)
@given(labelled_scores())
def test_property_split_merge_and_auc(data):
    y, s, cut = data
    whole = ml.ScoreTable.from_arrays(y, s)
    merged = ml.ScoreTable.from_arrays(y[:cut], s[:cut]) + ml.ScoreTable.from_arrays(
        y[cut:], s[cut:])
    assert merged == whole
    assert whole.n_pos == y.sum() and whole.n_neg == (~y).sum()
    if y.any() and (~y).any():
        gt = (s[y][:, None] > s[~y][None, :]).sum() + 0.5 * (
            s[y][:, None] == s[~y][None, :]).sum()
        assert ml.metrics.auc(y, s) == pytest.approx(gt / (y.sum() * (~y).sum()), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(labelled_scores(), st.sampled_from([0.0, 0.25, 0.5, 0.9]), st.booleans())
def test_property_counts_at_threshold(data, t, inclusive):
    y, s, _ = data
    c = ml.ScoreTable.from_arrays(y, s).counts_at(t, inclusive=inclusive)
    pred = s >= t if inclusive else s > t
    assert (c.tp, c.fp, c.fn, c.tn) == (
        (y & pred).sum(), (~y & pred).sum(), (y & ~pred).sum(), (~y & ~pred).sum())


# ------------------------------------------------------- measures with a target value
def _z_by_definition(y, p):
    """Spiegelhalter's z written out: Σ(y − p)(1 − 2p) / √Σ(1 − 2p)²p(1 − p)."""
    y, p = np.asarray(y, float), np.asarray(p, float)
    return float(np.sum((y - p) * (1 - 2 * p)) / math.sqrt(np.sum((1 - 2 * p) ** 2 * p
                                                                  * (1 - p))))


def test_spiegelhalter_z_has_target_zero_and_ranks_by_its_distance():
    z = registry.get("spiegelhalter_z")
    assert z.target == 0.0 and z.direction == "closer to 0" and not z.higher_is_better
    assert registry.to_frame().loc["spiegelhalter_z", "direction"] == "closer to 0"
    assert registry.to_frame().loc["brier", "direction"] == "lower"
    # the rule, against |z| written out
    vals = np.array([-100.0, -1.5, 0.0, 1.5, 2.0, np.nan])
    assert np.array_equal(z.badness(vals), np.abs(vals), equal_nan=True)
    assert z.is_better(0.0, -100.0) and not z.is_better(-100.0, 0.0)
    assert not z.is_better(-1.5, 1.5) and not z.is_better(1.5, -1.5)  # an exact tie
    assert not z.is_better(math.nan, 3.0) and not z.is_better(3.0, math.nan)
    assert z.pair_statistic(-100.0, 0.5) == 99.5 and z.favours_first(-0.1)
    # directional measures keep their rule
    auc, brier = registry.get("auc"), registry.get("brier")
    assert auc.is_better(0.9, 0.8) and brier.is_better(0.1, 0.2)
    assert auc.pair_statistic(0.9, 0.8) == pytest.approx(0.1) and auc.favours_first(0.1)
    assert brier.favours_first(-0.1) and not brier.favours_first(0.1)
    assert auc.goodness(0.7) == 0.7 and brier.goodness(0.2) == -0.2


def test_is_better_decides_distances_exactly():
    """|1e-17 − 0.25| rounds to 0.25 = |0.5 − 0.25| in floats, yet 1e-17 is nearer: the
    comparison is made on the rationals the floats are; equal distances tie."""
    from measurelab.measures.base import Measure

    m = Measure(name="t", formula=lambda c: 0.0, kind="threshold", statistic="counts",
                range=(0.0, 1.0), higher_is_better=False, target=0.25)
    assert abs(1e-17 - 0.25) == abs(0.5 - 0.25)
    assert m.is_better(1e-17, 0.5) and not m.is_better(0.5, 1e-17)
    assert not m.is_better(0.2, 0.3) and not m.is_better(0.3, 0.2)  # equal as rationals
    assert m.badness(Fraction(1, 5)) == m.badness(Fraction(3, 10)) == Fraction(1, 20)


@pytest.mark.parametrize(("kw", "message"), [
    ({"target": 2.0}, r"target=2.0 lies outside range"),
    ({"target": math.inf}, r"target must be a finite number or None"),
    ({"target": "0"}, r"target must be a finite number or None"),
    ({"target": 0.5, "higher_is_better": True}, r"register it with higher_is_better=False"),
])
def test_target_is_checked(kw, message):
    from measurelab.measures.base import Measure

    base = {"name": "t", "formula": lambda c: 0.0, "kind": "threshold",
            "statistic": "counts", "range": (0.0, 1.0), "higher_is_better": False}
    with pytest.raises(ml.MeasurelabError, match=message):
        Measure(**{**base, **kw})


def test_a_calibrated_model_is_nearer_the_target_than_a_cautious_one():
    """z of a calibrated model is near 0; shrinking its probabilities towards ½ (too
    cautious) makes z very negative: "lower is better" crowned the cautious model, the
    distance to 0 crowns the calibrated one. Both z by the definition written out."""
    g = np.random.default_rng(11)
    q = g.beta(2, 2, 3000)
    y = (g.random(q.size) < q).astype(int)
    cautious = 0.5 + 0.4 * (q - 0.5)
    z_cal, z_caut = (ml.metrics.spiegelhalter_z(y, p) for p in (q, cautious))
    assert z_cal == pytest.approx(_z_by_definition(y, q), rel=1e-9)
    assert z_caut == pytest.approx(_z_by_definition(y, cautious), rel=1e-9)
    assert z_caut < -10 and abs(z_cal) < 3
    assert registry.get("spiegelhalter_z").is_better(z_cal, z_caut)
    r = ml.evaluate(y, q, measures=["spiegelhalter_z", "auc"])
    assert r.to_frame().loc["spiegelhalter_z", "direction"] == "closer to 0"
    # a two-level measure: the same AUC (a monotone transform), ties broken by |z|
    two = registry.resolve("auc:spiegelhalter_z")[0]
    from measurelab.metrics.evaluation import build_stats

    v_cal, v_caut = (two.compute(build_stats(y, p)) for p in (q, cautious))
    assert v_cal.first == v_caut.first and v_cal > v_caut
    assert v_cal.second == -abs(z_cal)
