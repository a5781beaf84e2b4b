"""Property-based contract tests (Hypothesis) of the round-four surfaces (issue 46, part 2).
Generated inputs with ties, weights with zeros and tiny classes give, for the
operating-point measures, the confusion-matrix catalogue and the small-count intervals, a
value in the measure's declared range or NaN with an UndefinedMeasureWarning — never an
exception other than MeasurelabError, never a NaN without a word; a permutation of
``labels=`` permutes the per-class outputs; interval ends are ordered around the value;
a generated parameter after ``@`` is a value or one line naming it."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from tests.hardening.contract import assert_refused

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=8, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow])

OPERATING = ["sens_at_spec@0.8", "spec_at_sens@0.8", "prec_at_recall@0.5",
             "recall_at_prec@0.9", "pauc@0.2", "spauc@0.2", "sens_at_spec@1",
             "recall_at_prec@1", "pauc@1"]
CATALOGUE = ["kappa_linear", "kappa_quadratic", "dor", "markedness", "fdr", "for_rate",
             "jaccard", "fowlkes_mallows", "scott_pi", "gwet_ac1"]


@st.composite
def binary_data(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Binary labels with a tiny class possible, scores on a coarse grid (ties), and
    weights with zeros (or none)."""
    n = draw(st.integers(2, 30))
    n_pos = draw(st.integers(0, n))
    y = np.array([1] * n_pos + [0] * (n - n_pos))
    levels = draw(st.integers(1, 6))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5]), min_size=n,
                                   max_size=n)))
    return y, s, w


def _in_range_or_warned_nan(measures: list[str], call) -> None:
    """Each named value lies in its measure's declared range, or is NaN with an
    UndefinedMeasureWarning; the only exception allowed is a MeasurelabError."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            got = call()
        except MeasurelabError:
            return
    undefined = [w for w in seen if issubclass(w.category, UndefinedMeasureWarning)]
    for name in measures:
        v = got[name]
        lo, hi = ml.registry.get(name).range
        if isinstance(v, float) and math.isnan(v):
            assert undefined, f"{name} is NaN without a warning"
        else:
            assert lo - 1e-9 <= v <= hi + 1e-9, (name, v, (lo, hi))


@SETTINGS
@given(data=binary_data())
def test_operating_points_are_in_range_or_nan_with_a_warning(data):
    y, s, w = data
    _in_range_or_warned_nan(OPERATING, lambda: ml.evaluate(y, s, measures=OPERATING,
                                                           sample_weight=w))


@SETTINGS
@given(data=binary_data(), threshold=st.sampled_from([0.0, 0.25, 0.5, 1.0]))
def test_the_catalogue_is_in_range_or_nan_with_a_warning_binary(data, threshold):
    y, s, w = data
    _in_range_or_warned_nan(CATALOGUE, lambda: ml.evaluate(y, s, measures=CATALOGUE,
                                                           sample_weight=w,
                                                           threshold=threshold))


@st.composite
def multi_data(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, list[int]]:
    k = draw(st.integers(3, 5))
    n = draw(st.integers(1, 25))
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    p = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    order = draw(st.permutations(list(range(k))))
    return y, p, list(order)


@SETTINGS
@given(data=multi_data())
def test_the_catalogue_is_in_range_or_nan_with_a_warning_k_classes(data):
    y, p, order = data
    _in_range_or_warned_nan(CATALOGUE, lambda: ml.evaluate(y, p, measures=CATALOGUE,
                                                           labels=order))


@SETTINGS
@given(data=multi_data())
def test_permuting_labels_permutes_the_per_class_outputs(data):
    y, p, order = data
    measures = [m for m in CATALOGUE if not m.startswith(("kappa", "scott", "gwet"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ml.per_class(y, p, measures=measures, labels=sorted(order))
        b = ml.per_class(y, p, measures=measures, labels=order)
    for m in measures:
        assert list(b[m].index) == order  # the classes in the order given
        for c in order:  # the same value for the same class
            va, vb = a[m][c], b[m][c]
            assert (math.isnan(va) and math.isnan(vb)) or va == pytest.approx(vb), (m, c)


@SETTINGS
@given(name=st.sampled_from(["sens_at_spec", "spec_at_sens", "prec_at_recall",
                             "recall_at_prec", "pauc", "spauc"]),
       x=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.0, 1.0, -0.0, 1e-300, 1 - 1e-16])))
def test_a_generated_parameter_is_a_value_or_one_line_naming_it(name, x):
    spec = f"{name}@{x!r}"
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4, 0.9, 0.2]
    valid = 0 <= x <= 1 and not (name in ("pauc", "spauc") and x == 0)
    if not valid:
        assert_refused(lambda: ml.evaluate(y, s, measures=[spec]), [name, repr(spec)])
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = ml.evaluate(y, s, measures=[spec])[spec]
    lo, hi = ml.registry.get(spec).range
    assert math.isnan(v) or lo <= v <= hi


@SETTINGS
@given(word=st.text(min_size=1, max_size=6).filter(lambda t: _not_a_number(t)))
def test_generated_text_after_the_at_sign_is_refused(word):
    spec = f"pauc@{word}"
    assert_refused(lambda: ml.evaluate([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.7], measures=[spec]),
                   ["pauc"])


def _not_a_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return True
    return False


@FEW
@given(data=binary_data(),
       method=st.sampled_from(["wilson", "clopper-pearson", "agresti-coull",
                               "dirichlet-posterior", "newcombe-score", "influence"]))
def test_interval_ends_are_ordered_around_the_value(data, method):
    y, s, w = data
    measures = ["acc", "sens", "auc", "kappa_quadratic", "sens_at_spec@0.5"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            iv = ml.compare_classifiers(y, {"a": s, "b": 1 - s}, measures=measures,
                                        ci_method=method, n_boot=100, sample_weight=w,
                                        random_state=0).intervals()
        except MeasurelabError:
            return
    lo, v, hi = (iv[c].to_numpy(dtype=float) for c in ("lo", "value", "hi"))
    both = ~(np.isnan(lo) | np.isnan(hi) | np.isnan(v))
    assert np.all(lo[both] <= v[both] + 1e-9), iv[both & (lo > v + 1e-9)]
    assert np.all(v[both] <= hi[both] + 1e-9), iv[both & (v > hi + 1e-9)]


@FEW
@given(data=binary_data(), min_sens=st.floats(0, 1), min_spec=st.floats(0, 1))
def test_best_threshold_meets_its_constraints_or_says_it_cannot(data, min_sens, min_spec):
    y, s, w = data
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            best = ml.best_threshold(y, s, min_sens=min_sens, min_spec=min_spec,
                                     sample_weight=w)
        except MeasurelabError:
            return
    if math.isnan(best.threshold):
        assert any(issubclass(x.category, UndefinedMeasureWarning) for x in seen)
        return
    wt = np.ones(len(y)) if w is None else w
    pred = s > best.threshold
    pos, neg = wt[y == 1].sum(), wt[y == 0].sum()
    if pos > 0:
        assert wt[(y == 1) & pred].sum() / pos >= min_sens - 1e-9
    if neg > 0:
        assert wt[(y == 0) & ~pred].sum() / neg >= min_spec - 1e-9


@st.composite
def multi_label_data(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, list[int]]:
    L = draw(st.integers(2, 4))
    n = draw(st.integers(2, 20))
    y = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=L, max_size=L),
                               min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.lists(st.integers(0, 4), min_size=L, max_size=L),
                               min_size=n, max_size=n))) / 4  # ties
    return y, s, list(draw(st.permutations(list(range(L)))))


@SETTINGS
@given(data=multi_label_data())
def test_multi_label_is_in_range_or_nan_with_a_warning_and_permutes_with_its_columns(data):
    y, s, order = data
    measures = ["auc", "f1", "acc", "ap", "sens", "prec"]
    _in_range_or_warned_nan(measures, lambda: ml.evaluate(y, s, measures=measures))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ml.evaluate(y, s, measures=measures)
        b = ml.evaluate(y[:, order], s[:, order], measures=measures)  # columns permuted
    for m in measures:  # a macro average does not depend on the order of the labels
        assert (math.isnan(a[m]) and math.isnan(b[m])) or a[m] == pytest.approx(b[m]), m
