"""The interval-method registry: every choice the engines made on strings is now read
from it; the docs' table and the CLI's choices come from it; Agresti–Coull is one file plus
its registration."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from measurelab.exceptions import MeasurelabError
from measurelab.inference import intervals as iv
from measurelab.inference.methods import (
    Form,
    IntervalMethod,
    Setting,
    check_ci_method,
    choose,
    difference_form,
    forceable_names,
    get,
    method_table,
    methods,
    replicate_names,
)

ROOT = Path(__file__).resolve().parents[2]


def _old_default(name: str, ci_method: str | None, whole: bool) -> str:
    """The choice as it was written on strings before the registry (the reference)."""
    from measurelab.inference.calibration import interval_kind

    own = interval_kind(name)
    if own is not None:
        return own
    if ci_method in ("bootstrap-bca", "bootstrap-percentile"):
        return ci_method
    if name in ("acc", "err", "sens", "spec", "prec", "npv") and whole and \
            ci_method in ("wilson", "clopper-pearson"):
        return ci_method
    if name in ("acc", "err") and whole:
        return "wilson"
    if name == "auc" and whole:
        return "delong" if ci_method == "delong" else "delong-logit"
    if name in COUNTS and whole:   # the small-count method (issue 39)
        return "dirichlet-posterior"
    return "bootstrap-bca"


#: the measures of NAMES over the confusion counts (the posterior of the cells applies)
COUNTS = ("acc", "err", "sens", "spec", "prec", "npv", "f1", "mcc")


OLD_FORCEABLE = ("wilson", "clopper-pearson", "delong-logit", "delong", "bootstrap-bca",
                 "bootstrap-percentile")
NAMES = ("acc", "err", "sens", "spec", "prec", "npv", "auc", "f1", "mcc", "brier",
         "brier_mcb", "brier_dsc", "ici", "ece@15", "spiegelhalter_z")


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("forced", [None, *OLD_FORCEABLE])
def test_the_default_and_the_forcing_rules_are_the_old_ones(forced, whole):
    for name in NAMES:
        assert iv.default_method(name, forced, whole_counts=whole) == \
            _old_default(name, forced, whole), (name, forced, whole)


@pytest.mark.parametrize("forced", [None, *OLD_FORCEABLE])
def test_k_classes_keep_proportions_to_accuracy_and_error(forced):
    for name in NAMES:
        old = name if name in ("acc", "err") or name in ("brier_mcb", "brier_dsc", "ici",
                                                          "ece@15", "spiegelhalter_z") \
            else "k-class"
        assert iv.default_method(name, forced, multiclass=True) == \
            _old_default(old, forced, True), (name, forced)


def _old_pair(name: str, single: str, forced: str | None, whole: bool) -> str:
    if single == "none":
        return "none"
    if single in ("debiased-wald", "bootstrap-se"):
        return "bootstrap-se"
    if name == "auc" and single in ("delong", "delong-logit"):
        return "delong"
    if name in ("acc", "err") and whole and forced not in ("bootstrap-bca",
                                                           "bootstrap-percentile"):
        return "mcnemar"
    if name in COUNTS and whole and single not in ("bootstrap-bca", "bootstrap-percentile"):
        return "dirichlet-posterior"
    return "bootstrap"


def _old_unpaired(name: str, single: str, whole: bool = True) -> str:
    if single == "none":
        return "none"
    if single in ("debiased-wald", "bootstrap-se"):
        return "bootstrap-se"
    if name in COUNTS and whole and single not in ("bootstrap-bca", "bootstrap-percentile"):
        return "dirichlet-posterior"
    return "delong-unpaired" if name == "auc" and single in ("delong", "delong-logit") \
        else "bootstrap"


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("forced", [None, *OLD_FORCEABLE])
def test_the_paired_and_unpaired_choices_are_the_old_ones(forced, whole):
    for name in NAMES:
        single = iv.default_method(name, forced, whole_counts=whole)
        paired = difference_form(Setting(name, whole_counts=whole, kind="paired"), single)
        unpaired = difference_form(Setting(name, whole_counts=whole, kind="unpaired"), single)
        assert paired.name == _old_pair(name, single, forced, whole), (name, forced)
        assert unpaired.name == _old_unpaired(name, single, whole), (name, forced)


def test_mcnemar_rows_name_tangos_interval():
    f = difference_form(Setting("acc", kind="paired"), "wilson")
    assert (f.name, f.label) == ("mcnemar", "tango-score")


def test_the_names_a_user_may_force_keep_their_order_and_add_agresti_coull():
    assert forceable_names() == (*OLD_FORCEABLE, "agresti-coull", "dirichlet-posterior",
                                 "newcombe-score", "influence")
    assert iv.CI_METHODS == forceable_names()
    assert iv.BOOTSTRAP_METHODS == ("bootstrap-bca", "bootstrap-percentile")
    assert set(iv.REPLICATE_METHODS) == set(replicate_names()) == \
        {"bootstrap-bca", "bootstrap-percentile", "bootstrap-se"}
    assert iv.PROPORTION_METHODS == ("wilson", "clopper-pearson", "agresti-coull")


@pytest.mark.parametrize("bad", ["bootstrap-se", "none", "mcnemar", "Wilson", 3])
def test_a_method_the_user_may_not_force_is_refused_in_one_line(bad):
    with pytest.raises(MeasurelabError, match=r"^ci_method=.* is not valid; expected one of"
                       r" \['wilson'.*'newcombe-score', 'influence'\]$"):
        check_ci_method(bad)


def test_every_method_is_one_object_with_a_description_and_one_form_at_least():
    ms = methods()
    assert len({m.name for m in ms}) == len(ms)
    for m in ms:
        assert isinstance(m, IntervalMethod) and m.description and "\n" not in m.description
        assert any(f is not None for f in (m.single, m.paired, m.unpaired))
        assert all(f is None or isinstance(f, Form) for f in (m.single, m.paired, m.unpaired))
        assert get(m.name) is m
        if m.replicates:  # the engine's block computes them
            assert m.single is None or m.single.compute is None or m.name == "bootstrap-se"
        elif m.single is not None and m.applies(Setting("acc")) | m.applies(Setting("auc")):
            assert m.single.compute is not None


def test_a_structured_design_fits_the_object_and_nothing_shipped_claims_it():
    clustered = Setting("auc", design="clustered")
    assert not any(m.valid_for(clustered) for m in methods())
    with pytest.raises(MeasurelabError, match="no registered interval method applies to "
                       "'auc' in the 'clustered' design"):
        choose(clustered)
    m = IntervalMethod("test-clustered", "a clustered method (test)", applies=lambda s: True,
                       single=Form("test-clustered"), default=lambda s: True,
                       designs=frozenset({"clustered"}), replicates=True)
    assert m.valid_for(clustered) and m.default_for(clustered)
    assert not m.valid_for(Setting("auc"))


def test_an_unregistered_name_is_refused():
    with pytest.raises(MeasurelabError, match="interval method 'nope' is not registered"):
        get("nope")
    with pytest.raises(MeasurelabError, match="is not an analytic interval method"):
        iv.measure_interval("f1", 0.5, "bootstrap-bca", 0.95)


def test_the_docs_table_is_the_registrys():
    text = (ROOT / "docs" / "METHODS.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- interval-method-table:start -->\n(.*?)\n"
                      r"<!-- interval-method-table:end -->", text, re.S)
    assert found is not None
    assert found.group(1) == method_table()


def test_the_clis_choices_are_the_registrys():
    import argparse

    from measurelab.cli._models import add_arguments

    p = argparse.ArgumentParser()
    add_arguments(p)
    action = next(a for a in p._actions if a.dest == "ci_method")
    assert tuple(action.choices) == forceable_names()


# ------------------------------------------------------------------ Agresti–Coull
def _agresti_coull_from_the_formula(k: int, n: int, level: float) -> tuple[float, float]:
    from scipy.stats import norm

    z = norm.ppf((1 + level) / 2)
    n_t = n + z**2
    p_t = (k + z**2 / 2) / n_t
    half = z * math.sqrt(p_t * (1 - p_t) / n_t)
    return max(0.0, p_t - half), min(1.0, p_t + half)


CASES = [(0, 10), (1, 10), (5, 10), (10, 10), (81, 100), (3, 7), (0, 1), (999, 1000)]


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_agresti_coull_is_the_formula(level):
    for k, n in CASES:
        lo, hi = iv.proportion_interval(k, n, level, "agresti-coull")
        np.testing.assert_allclose([lo, hi], _agresti_coull_from_the_formula(k, n, level),
                                   rtol=0, atol=1e-12)


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_agresti_coull_is_statsmodels(level):
    sm = pytest.importorskip("statsmodels.stats.proportion")  # the test extra has it
    for k, n in CASES:
        lo, hi = iv.proportion_interval(k, n, level, "agresti-coull")
        slo, shi = sm.proportion_confint(k, n, alpha=1 - level, method="agresti_coull")
        np.testing.assert_allclose([lo, hi], [slo, shi], rtol=0, atol=1e-12)


def test_agresti_coull_through_evaluate_is_marked_without_coverage_evidence():
    import measurelab as ml

    y = [0, 1] * 30 + [1] * 10
    s = list(np.linspace(0.05, 0.95, 70))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.evaluate(y, s, measures=["sens", "acc", "auc"], ci=0.95,
                        ci_method="agresti-coull", n_boot=200)
    t = r.intervals().set_index("measure")
    assert t.loc["sens", "method"] == "agresti-coull (no coverage evidence)"
    assert t.loc["acc", "method"] == "agresti-coull (no coverage evidence)"
    assert t.loc["auc", "method"].startswith("delong-logit")  # not a proportion: default
    yt = np.array(y)
    pred = np.array(s) > 0.5
    k, n = int((pred & (yt == 1)).sum()), int((yt == 1).sum())
    lo, hi = _agresti_coull_from_the_formula(k, n, 0.95)
    assert t.loc["sens", "lo"] == pytest.approx(lo, abs=1e-12)
    assert t.loc["sens", "hi"] == pytest.approx(hi, abs=1e-12)


def test_agresti_coull_needs_whole_counts_and_an_empty_denominator_is_undefined():
    with pytest.raises(MeasurelabError, match="agresti-coull intervals need whole counts"):
        iv.proportion_interval(2.5, 4, 0.95, "agresti-coull")
    assert all(math.isnan(x) for x in iv.proportion_interval(0, 0, 0.95, "agresti-coull"))
    assert iv.default_method("sens", "agresti-coull", whole_counts=False) == "bootstrap-bca"
    assert iv.default_method("f1", "agresti-coull") == "dirichlet-posterior"


def test_the_paired_delong_form_is_inference_delongs_test():
    from measurelab.inference.delong import delong_paired_placements

    assert get("delong").paired.compute is delong_paired_placements
    assert get("delong-logit").paired is get("delong").paired
