"""Property-based contract tests (Hypothesis) of the round-three surfaces (issue 34):
generated float32 softmax rows are accepted and equal their float64 copies; generated
rows beyond the tolerance are refused with their full sum; generated wrong types raise
:class:`MeasurelabTypeError` naming the parameter on the Bayesian, page, decision, power
and calibration surfaces; generated colliding labels are refused."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab import inference as inf
from measurelab.exceptions import MeasurelabTypeError
from tests.hardening.contract import assert_refused

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

Y = [0, 1, 0, 1, 1, 0, 1, 0]
S = [0.1, 0.8, 0.3, 0.7, 0.6, 0.4, 0.9, 0.2]

#: values that are not numbers (nor flags standing for them)
NOT_NUMBERS = st.one_of(st.text(max_size=5), st.none(), st.booleans(),
                        st.lists(st.floats(allow_nan=False), max_size=2).map(tuple))


@SETTINGS
@given(k=st.integers(3, 6), n=st.integers(6, 40), seed=st.integers(0, 2**31 - 1),
       scale=st.floats(0.1, 20))
def test_float32_softmax_equals_its_float64_copy(k, n, seed, scale):
    rng = np.random.default_rng(seed)
    z = (rng.normal(size=(n, k)) * scale).astype(np.float32)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    P = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    y = np.arange(n) % k
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ml.evaluate(y, P, measures=["brier", "mxe", "acc"])
        b = ml.evaluate(y, P.astype(np.float64), measures=["brier", "mxe", "acc"])
        ml.compare_classifiers(y, {"net": P}, ci=None)  # accepted
    for m in ("brier", "mxe", "acc"):
        assert abs(a[m] - b[m]) <= 1e-6


@SETTINGS
@given(row=st.integers(0, 5), off=st.floats(2e-6, 0.5), sign=st.sampled_from([-1, 1]))
def test_rows_beyond_the_tolerance_are_refused_with_their_sum(row, off, sign):
    P = np.tile([0.5, 0.3, 0.2], (6, 1))
    P[row, 2] = max(0.0, 0.2 + sign * off)
    total = float(P[row].sum())
    if abs(total - 1) <= 1e-6:
        return
    exc = assert_refused(lambda: ml.compare_classifiers([0, 1, 2, 0, 1, 2], {"m": P}),
                         ["model 'm'"])
    assert repr(total) in str(exc) and f"row {row + 1}" in str(exc)


@SETTINGS
@given(bad=NOT_NUMBERS, param=st.sampled_from(["rope", "method", "prior", "names"]))
def test_bayes_wrong_types(bad, param):
    kw = {"rope": 0.01, "method": "signed-rank", param: bad}
    if (param == "names" and isinstance(bad, tuple) and len(bad) == 2) or (
            param == "prior" and bad is None):  # a pair of names; None: the default prior
        return
    exc = assert_refused(lambda: ml.bayes_compare([.8, .7, .9], [.7, .7, .8], **kw), param)
    if not (param == "method" and isinstance(bad, str)):  # a string is the right type
        assert isinstance(exc, MeasurelabTypeError)


@SETTINGS
@given(bad=st.one_of(st.integers(), st.floats(), st.none(), st.booleans()))
def test_pages_wrong_path_types(bad, tmp_path_factory):
    cmp = ml.compare_classifiers(Y, {"a": S}, ci=None)
    if bad is None:
        return  # None is not a page path here either (a type error)
    exc = assert_refused(lambda: cmp.to_html(bad), "path")
    assert isinstance(exc, MeasurelabTypeError)


@SETTINGS
@given(bad=st.one_of(st.text(max_size=4), st.none(), st.lists(st.text(min_size=1), min_size=1,
                                                              max_size=2)))
def test_net_benefit_thresholds_types(bad):
    cmp = _comparison()
    assert isinstance(assert_refused(lambda: cmp.net_benefit(bad), "thresholds"),
                      MeasurelabTypeError)


@SETTINGS
@given(bad=NOT_NUMBERS)
def test_power_calibration_and_detectable_types(bad):
    if bad is None:
        return  # None means "solve for this" in power_roc_test
    assert_refused(lambda: inf.power_roc_test(auc=0.8, ncases=bad, ncontrols=50), "ncases")
    assert_refused(lambda: inf.calibration_test(Y, S, n_resamples=bad), "n_resamples")
    assert_refused(lambda: _comparison().detectable(power=bad), "power")


@SETTINGS
@given(v=st.integers(-50, 50))
def test_colliding_labels_are_refused(v):
    y = np.array([v, str(v), v, str(v)], dtype=object)
    assert_refused(lambda: ml.evaluate(y, y.copy()), ["the same text"])


_CACHE: dict[str, object] = {}


def _comparison():
    if "cmp" not in _CACHE:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _CACHE["cmp"] = ml.compare_classifiers(Y, {"a": S, "b": S[::-1]}, n_boot=100)
    return _CACHE["cmp"]
