"""The bad-input contract (issue 23) for issue 32's entry points: decision curves and their
bands, net benefit in a comparison, power and sample size, simulated power, the detectable
difference. Each parameter, given a bad value of its kind, is refused in one line naming
it (the generated values and the checks of ``tests/hardening/test_api.py``)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import cache
from typing import Any

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab import curves
from measurelab import inference as inf
from tests.hardening.contract import assert_refused
from tests.hardening.test_api import S2, SETTINGS, S, Y, _assert_literal, bad_values

matplotlib.use("Agg")


@cache
def _comparison() -> Any:
    return ml.compare_classifiers(Y, {"a": S, "b": S2}, measures=["auc"], n_boot=100)


def _call(f: Callable[..., Any], *args: Any, **base: Any) -> Callable[..., Any]:
    return lambda **over: f(*args, **{**base, **over})


ENTRIES: list[tuple[str, Callable[..., Any], dict[str, str]]] = [
    ("decision_curve_bands", _call(curves.decision_curve_bands, Y, {"a": S}, n_boot=50),
     {"confidence_level": "level", "n_boot": "n_boot", "random_state": "seed",
      "stratify": "flag", "progress": "flag?"}),
    ("plot_decision_curve", _call(curves.plot_decision_curve, Y, {"a": S}),
     {"confidence_level": "level?", "standardized": "flag",
      "references": "flag"}),
    ("ClassifierComparison.net_benefit", lambda **o: _comparison().net_benefit(**o),
     {"references": "flag"}),
    ("ClassifierComparison.plot_decision_curve",
     lambda **o: _comparison().plot_decision_curve(**o), {"standardized": "flag"}),
    ("ClassifierComparison.detectable", lambda **o: _comparison().detectable(**o),
     {"power": "level"}),
    ("power_roc_test", _call(inf.power_roc_test, auc=0.7, ncases=30, ncontrols=30),
     {"sig_level": "level", "alternative": "choice", "auc0": "level",
      "null_variance": "flag", "kappa": "real?"}),
    ("power_roc_test[n]", _call(inf.power_roc_test, auc=0.7, kappa=1.0, power=0.8),
     {"power": "level"}),
    ("Binormal", _call(inf.Binormal, auc=0.7, ncases=20, ncontrols=20),
     {"ncases": "int", "ncontrols": "int", "rn": "real", "ra": "real",
      "probabilities": "flag"}),
    ("Resample", _call(inf.Resample, Y, {"a": S, "b": S2}),
     {"n": "int?", "effect": "real?", "stratify": "flag"}),
    ("simulate_power", _call(inf.simulate_power, inf.Binormal(auc=0.7, ncases=10,
                                                              ncontrols=10), n_sim=3,
                             progress=False),
     {"n_sim": "int", "ci": "level", "n_boot": "n_boot", "random_state": "seed",
      "progress": "flag?"}),
]


@pytest.mark.parametrize("label,call,params", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_entry_point_refuses_bad_parameters(label: str, call: Callable[..., Any],
                                            params: dict[str, str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call()

    @settings(SETTINGS, max_examples=min(100, max(25, 8 * len(params))))
    @given(data=st.data())
    def refuses(data: st.DataObject) -> None:
        param = data.draw(st.sampled_from(sorted(params)), label="parameter")
        value = data.draw(bad_values(params[param], param), label="value")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_refused(lambda: call(**{param: value}), [param])

    try:
        refuses()
    finally:
        import matplotlib.pyplot as plt

        plt.close("all")


NAMES = st.sampled_from(["$$", "$\\alpha$", "_hidden", "a$b", "50% $cost$"])


@settings(max_examples=4, deadline=None, derandomize=True)
@given(a=NAMES, b=NAMES)
def test_decision_curve_names_are_drawn_literally(a: str, b: str) -> None:
    import matplotlib.pyplot as plt

    if a == b:
        b = b + "2"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _assert_literal(curves.plot_decision_curve(Y, {a: S, b: S2}).figure, [a, b])
            cmp = ml.compare_classifiers(Y, {a: S, b: S2}, measures=["auc"], n_boot=100)
            _assert_literal(cmp.plot_decision_curve().figure, [a, b])
    finally:
        plt.close("all")
