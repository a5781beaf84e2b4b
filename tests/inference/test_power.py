"""Power and sample size (inference/power.py): Obuchowski–McClish's calculation against R's
pROC ``power.roc.test``, stored in tests/data/r/ and run live through ``Rscript`` (marker
``r``; tests/r_references.py) (one curve, two curves from binormal
parameters, full and partial AUC, two and one curve from a pilot test set), identities of
the calculation, and the simulated power of the comparison engine (size at no effect,
agreement with the analytic power where both apply, the detectable difference).

The live pROC check needs ``Rscript`` with pROC (``make test-r``); the stored one needs
no R."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import measurelab as ml
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference import Binormal, Resample, power_roc_test, simulate_power
from measurelab.inference.power import var_auc_obuchowski
from tests.r_references import SOURCES, reference, run_r

#: pROC's documented example of power.roc.test (its test suite): AUC 0.73, 41 cases and
#: 72 controls, level 0.05 → power 0.9897453
PROC_EXAMPLE_POWER = 0.9897453


def test_the_documented_example():
    r = power_roc_test(auc=0.73, ncases=41, ncontrols=72)
    assert r.power == pytest.approx(PROC_EXAMPLE_POWER, abs=5e-8)
    assert (r.ncases, r.ncontrols, r.sig_level, r.alternative) == (41, 72, 0.05, "two-sided")


def test_the_contract_names():
    r = power_roc_test(auc=0.8, power=0.9, kappa=1.0)
    assert r.ncases == r.ncontrols  # kappa = ncontrols / ncases
    again = power_roc_test(auc=0.8, ncases=r.ncases, ncontrols=r.ncontrols)
    assert again.power == pytest.approx(0.9, abs=1e-12)  # the size gives back the power
    r2 = power_roc_test(auc=0.8, power=0.9, kappa=2.0)
    assert r2.ncontrols == pytest.approx(2 * r2.ncases, rel=1e-15)


def _one_curve_by_hand(auc, n1, n0, alpha):
    """The one-curve power written from the method: A = Φ⁻¹(θ)·1.414,
    V = 0.0099 e^(−A²/2) ((5A² + 8) + (A² + 8)/κ), V₀ = 0.0792 (1 + 1/κ)."""
    k = n0 / n1
    a = norm.ppf(auc) * 1.414
    v = 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / k)
    v0 = 0.0792 * (1 + 1 / k)
    z = (math.sqrt(n1) * (auc - 0.5) - norm.ppf(1 - alpha / 2) * math.sqrt(v0)) / math.sqrt(v)
    return norm.cdf(z)


@pytest.mark.parametrize("auc,n1,n0,alpha", [(0.73, 41, 72, 0.05), (0.6, 100, 50, 0.01),
                                              (0.9, 12, 30, 0.1), (0.55, 400, 400, 0.05)])
def test_one_curve_power_is_the_method_written_out(auc, n1, n0, alpha):
    got = power_roc_test(auc=auc, ncases=n1, ncontrols=n0, sig_level=alpha).power
    assert got == pytest.approx(_one_curve_by_hand(auc, n1, n0, alpha), rel=1e-12)
    assert var_auc_obuchowski(0.5, n0 / n1) == pytest.approx(0.0792 * (1 + n1 / n0),
                                                             rel=1e-13)


def test_solving_for_each_quantity_inverts_the_power():
    p = power_roc_test(auc=0.7, ncases=60, ncontrols=90).power
    assert power_roc_test(ncases=60, ncontrols=90, power=p).auc == pytest.approx(0.7,
                                                                                  abs=1e-10)
    assert power_roc_test(auc=0.7, ncases=60, ncontrols=90, power=p,
                          sig_level=None).sig_level == pytest.approx(0.05, abs=1e-10)
    n = power_roc_test(auc=0.7, power=p, kappa=1.5)
    assert n.ncases == pytest.approx(60, rel=1e-10) and n.ncontrols == pytest.approx(90)
    one = power_roc_test(auc=0.7, ncases=60, ncontrols=90, alternative="one-sided",
                         sig_level=0.025).power
    assert one == pytest.approx(p, rel=1e-14)  # two-sided at 5% is one-sided at 2.5%


def test_a_reference_other_than_one_half():
    # against auc0 the variance under the null is V(auc0): 0.5 gives the default
    base = power_roc_test(auc=0.8, ncases=50, ncontrols=50)
    assert power_roc_test(auc=0.8, ncases=50, ncontrols=50, auc0=0.5) == base
    r = power_roc_test(auc=0.85, ncases=80, ncontrols=80, auc0=0.75)
    v0, va = var_auc_obuchowski(0.75, 1.0), var_auc_obuchowski(0.85, 1.0)
    z = (math.sqrt(80) * 0.1 - norm.ppf(0.975) * math.sqrt(v0)) / math.sqrt(va)
    assert r.power == pytest.approx(norm.cdf(z), rel=1e-12) and r.delta == pytest.approx(0.1)


def test_unpaired_curves_have_no_covariance():
    p = dict(A1=1.5, B1=1.0, A2=1.0, B2=1.2, rn=0.0, ra=0.0, delta=0.08)
    r = power_roc_test(params=p, ncases=200, ncontrols=300)
    from measurelab.inference.power import _check_params, _cov_params, _var_params

    q = _check_params(p)
    assert _cov_params(q, 1.5) == 0.0
    v1, v2 = _var_params(1.5, 1.0, 1.5, None), _var_params(1.0, 1.2, 1.5, None)
    z = (math.sqrt(200) * 0.08 - norm.ppf(0.975) * math.sqrt(2 * v1)) / math.sqrt(v1 + v2)
    assert r.power == pytest.approx(norm.cdf(z), rel=1e-12)


R_CASES = """
out <- function(key, x) cat(key, "=", format(x, digits = 17), "\\n", sep = "")
out("one_power", power.roc.test(auc = 0.73, ncases = 41, ncontrols = 72)$power)
out("one_power_b", power.roc.test(auc = 0.62, ncases = 150, ncontrols = 60,
                                   sig.level = 0.01)$power)
out("one_power_one", power.roc.test(auc = 0.62, ncases = 150, ncontrols = 60,
                                     alternative = "one.sided")$power)
r <- power.roc.test(auc = 0.8, power = 0.9, kappa = 1.0)
out("one_n_cases", r$ncases); out("one_n_controls", r$ncontrols)
r <- power.roc.test(auc = 0.66, power = 0.8, kappa = 2.5, sig.level = 0.01)
out("one_n2_cases", r$ncases); out("one_n2_controls", r$ncontrols)
out("one_sig", power.roc.test(auc = 0.73, ncases = 41, ncontrols = 72, power = 0.9,
                               sig.level = NULL)$sig.level)
out("one_auc", power.roc.test(ncases = 41, ncontrols = 72, power = 0.9)$auc)
p <- list(A1 = 2.6, B1 = 1, A2 = 1.9, B2 = 1, rn = 0.6, ra = 0.6, delta = 0.037)
out("two_power", power.roc.test(p, ncases = 500, ncontrols = 500)$power)
r <- power.roc.test(p, power = 0.9, kappa = 1.7)
out("two_n_cases", r$ncases); out("two_n_controls", r$ncontrols)
out("two_sig", power.roc.test(p, ncases = 300, ncontrols = 400, power = 0.8,
                               sig.level = NULL)$sig.level)
q <- list(A1 = 1.2, B1 = 0.8, A2 = 0.9, B2 = 1.3, rn = 0.3, ra = 0.5, delta = 0.05)
out("two_power_b", power.roc.test(q, ncases = 250, ncontrols = 180, sig.level = 0.01,
                                   alternative = "one.sided")$power)
u <- list(A1 = 1.5, B1 = 1, A2 = 1, B2 = 1.2, rn = 0, ra = 0, delta = 0.08)
out("two_unpaired", power.roc.test(u, ncases = 200, ncontrols = 300)$power)
pp <- list(A1 = 2.6, B1 = 1, A2 = 1.9, B2 = 1, rn = 0.6, ra = 0.6, delta = 0.037,
           FPR11 = 0, FPR12 = 0.2, FPR21 = 0, FPR22 = 0.2)
out("partial_power", power.roc.test(pp, ncases = 500, ncontrols = 500)$power)
d <- read.csv(PILOT)
r1 <- roc(d$y, d$a, quiet = TRUE, direction = "<", levels = c(0, 1))
r2 <- roc(d$y, d$b, quiet = TRUE, direction = "<", levels = c(0, 1))
out("data_power", power.roc.test(r1, r2)$power)
r <- power.roc.test(r1, r2, power = 0.9)
out("data_n_cases", r$ncases); out("data_n_controls", r$ncontrols)
out("data_sig", power.roc.test(r1, r2, power = 0.8, sig.level = NULL)$sig.level)
out("data_one_power", power.roc.test(r2)$power)
r <- power.roc.test(r2, power = 0.95)
out("data_one_cases", r$ncases); out("data_one_controls", r$ncontrols)
"""


def _pilot(seed: int = 3):
    g = np.random.default_rng(seed)
    y = (g.random(90) < 0.4).astype(int)
    a = g.normal(size=90) + 1.2 * y
    b = 0.6 * a + 0.8 * g.normal(size=90) + 0.3 * y
    return y, a, b


def r_power(tmp: Path) -> dict[str, float]:
    """pROC's power.roc.test on :data:`R_CASES` (the pilot: :func:`_pilot`)."""
    y, a, b = _pilot()
    csv = tmp / "pilot.csv"
    np.savetxt(csv, np.column_stack([y, a, b]), delimiter=",", header="y,a,b", comments="",
               fmt="%.17g")
    return run_r(f'PILOT <- "{csv}"\n' + R_CASES, tmp)


@pytest.mark.parametrize("source", SOURCES)
def test_equal_to_proc(source, tmp_path: Path):
    y, a, b = _pilot()
    want = reference("power", source, tmp_path)
    got = {
        "one_power": power_roc_test(auc=0.73, ncases=41, ncontrols=72).power,
        "one_power_b": power_roc_test(auc=0.62, ncases=150, ncontrols=60,
                                      sig_level=0.01).power,
        "one_power_one": power_roc_test(auc=0.62, ncases=150, ncontrols=60,
                                        alternative="one.sided").power,
    }
    r = power_roc_test(auc=0.8, power=0.9, kappa=1.0)
    got["one_n_cases"], got["one_n_controls"] = r.ncases, r.ncontrols
    r = power_roc_test(auc=0.66, power=0.8, kappa=2.5, sig_level=0.01)
    got["one_n2_cases"], got["one_n2_controls"] = r.ncases, r.ncontrols
    got["one_sig"] = power_roc_test(auc=0.73, ncases=41, ncontrols=72, power=0.9,
                                    sig_level=None).sig_level
    p = dict(A1=2.6, B1=1, A2=1.9, B2=1, rn=0.6, ra=0.6, delta=0.037)
    got["two_power"] = power_roc_test(params=p, ncases=500, ncontrols=500).power
    r = power_roc_test(params=p, power=0.9, kappa=1.7)
    got["two_n_cases"], got["two_n_controls"] = r.ncases, r.ncontrols
    got["two_sig"] = power_roc_test(params=p, ncases=300, ncontrols=400, power=0.8,
                                    sig_level=None).sig_level
    q = dict(A1=1.2, B1=0.8, A2=0.9, B2=1.3, rn=0.3, ra=0.5, delta=0.05)
    got["two_power_b"] = power_roc_test(params=q, ncases=250, ncontrols=180, sig_level=0.01,
                                        alternative="one-sided").power
    u = dict(A1=1.5, B1=1, A2=1, B2=1.2, rn=0, ra=0, delta=0.08)
    got["two_unpaired"] = power_roc_test(params=u, ncases=200, ncontrols=300).power
    got["partial_power"] = power_roc_test(params={**p, "FPR11": 0, "FPR12": 0.2,
                                                  "FPR21": 0, "FPR22": 0.2},
                                          ncases=500, ncontrols=500).power
    two = {"a": a, "b": b}
    got["data_power"] = power_roc_test(y_true=y, scores=two).power
    r = power_roc_test(y_true=y, scores=two, power=0.9)
    got["data_n_cases"], got["data_n_controls"] = r.ncases, r.ncontrols
    got["data_sig"] = power_roc_test(y_true=y, scores=two, power=0.8, sig_level=None
                                     ).sig_level
    got["data_one_power"] = power_roc_test(y_true=y, scores=b).power
    r = power_roc_test(y_true=y, scores=b, power=0.95)
    got["data_one_cases"], got["data_one_controls"] = r.ncases, r.ncontrols
    for key, value in got.items():
        # pROC solves the AUC with uniroot (tolerance 1.2e-4): compare that one to 1e-3
        tol = 1e-3 if key == "one_auc" else 1e-6
        assert value == pytest.approx(want[key], rel=tol, abs=tol), key
    assert power_roc_test(ncases=41, ncontrols=72, power=0.9).auc == pytest.approx(
        want["one_auc"], abs=2e-4)


def test_a_negative_null_variance_is_refused_with_the_way_out():
    g = np.random.default_rng(0)
    y = (g.random(300) < 0.35).astype(int)
    a = 1 / (1 + np.exp(-(g.normal(size=300) + 1.6 * y - 0.9)))
    b = np.clip(a + g.normal(0, 0.15, 300), 0, 1)
    with pytest.raises(MeasurelabError, match="null_variance=False"):
        power_roc_test(y_true=y, scores={"a": a, "b": b})
    r = power_roc_test(y_true=y, scores={"a": a, "b": b}, null_variance=False)
    assert 0 < r.power < 1
    assert power_roc_test(y_true=y, scores={"b": b, "a": a}).power > 0  # the other order


def test_partial_limits_must_come_in_pairs_and_names_are_checked():
    p = dict(A1=2.6, B1=1, A2=1.9, B2=1, rn=0.6, ra=0.6, delta=0.037)
    with pytest.raises(MeasurelabError, match="FPR11 and FPR12"):
        power_roc_test(params={**p, "FPR11": 0.1}, ncases=50, ncontrols=50)
    with pytest.raises(MeasurelabError, match="missing delta"):
        power_roc_test(params={k: v for k, v in p.items() if k != "delta"}, ncases=50,
                       ncontrols=50)
    with pytest.raises(MeasurelabError, match="unknown key 'rho'"):
        power_roc_test(params={**p, "rho": 0.1}, ncases=50, ncontrols=50)
    with pytest.raises(MeasurelabTypeError, match="params must be a mapping"):
        power_roc_test(params=[1, 2], ncases=50, ncontrols=50)


@pytest.mark.parametrize("kwargs,match", [
    ({"auc": 0.8, "ncases": 40, "ncontrols": 40, "power": 0.8}, "leave out exactly one"),
    ({"auc": 0.8}, "leave out exactly one"),
    ({"auc": 1.2, "ncases": 40}, "auc must be in"),
    ({"auc": 0.5, "ncases": 40}, "no effect"),
    ({"auc": 0.8, "ncases": -3}, "ncases must be in"),
    ({"auc": 0.8, "ncases": 40, "alternative": "greater"}, "alternative"),
    ({"auc": 0.8, "power": 1.0}, "power must be in"),
    ({"auc": 0.8, "params": {}}, "give one of auc"),
    ({"y_true": [0, 1]}, "without scores"),
])
def test_refusals_name_the_problem(kwargs, match):
    with pytest.raises(MeasurelabError, match=match):
        power_roc_test(**kwargs)


# --------------------------------------------------------------------- simulated power
def test_simulated_power_of_two_binormal_curves_agrees_with_the_delong_calculation():
    """The comparison's DeLong test on binormal test sets rejects as often as the analytic
    calculation with DeLong's variances per case (pROC's power.roc.test from data, on a
    large pilot of the same design) predicts: within the simulation error."""
    g = Binormal(auc=(0.85, 0.75), ncases=60, ncontrols=60, rn=0.5, ra=0.5)
    sim = simulate_power(g, n_sim=400, progress=False, random_state=5)
    y, s = g.draw(np.random.default_rng(11), scale=1000)
    analytic = power_roc_test(y_true=y, scores=s, ncases=60, null_variance=False).power
    assert abs(sim.power - analytic) < 3 * sim.se + 0.02, (sim, analytic)
    assert sim.effect == pytest.approx(0.1)


def test_no_effect_gives_the_level():
    y, a, b = _pilot(4)
    g = Resample(y, {"a": a, "b": b}, effect=0.0, n=150)
    r = simulate_power(g, n_sim=300, progress=False, random_state=1)
    assert r.effect == 0.0
    assert abs(r.power - 0.05) < 3 * math.sqrt(0.05 * 0.95 / 300) + 0.01, r


@pytest.mark.parametrize("measure", ["auc", "acc", "net_benefit@0.3"])
def test_the_tilted_population_has_the_stated_effect(measure):
    y, a, b = _pilot(5)
    a, b = 1 / (1 + np.exp(-a)), 1 / (1 + np.exp(-b))  # probabilities for net benefit
    for effect in (0.0, 0.02, -0.01):
        g = Resample(y, {"a": a, "b": b}, effect=effect)
        w, achieved = g._weights(measure)
        # the achieved difference is the measure on the weighted test set, from the API
        direct = (ml.evaluate(y, a, measures=[measure], sample_weight=w)[measure]
                  - ml.evaluate(y, b, measures=[measure], sample_weight=w)[measure])
        assert achieved == direct == g.population(measure, None)
        assert achieved == pytest.approx(effect, abs=1e-6)
    with pytest.raises(MeasurelabError, match="cannot be reached"):
        Resample(y, {"a": a, "b": b}, effect=0.9).population("auc", None)


def test_one_model_against_a_reference_and_any_measure():
    g = Binormal(auc=0.7, ncases=40, ncontrols=40)
    r = simulate_power(g, n_sim=150, progress=False)
    analytic = power_roc_test(auc=0.7, ncases=40, ncontrols=40).power
    assert abs(r.power - analytic) < 4 * r.se + 0.1  # O–M's variances vs DeLong's logit
    with pytest.raises(MeasurelabError, match="give reference="):
        simulate_power(g, measure="f1", n_sim=10, progress=False)
    with pytest.raises(MeasurelabError, match="unknown measure 'nosuch'"):
        simulate_power(g, measure="nosuch", n_sim=10, progress=False)
    with pytest.raises(MeasurelabTypeError, match="generator must be"):
        simulate_power("binormal", n_sim=10, progress=False)
    f1 = simulate_power(Binormal(auc=(0.85, 0.7), ncases=50, ncontrols=50), measure="f1",
                        n_sim=40, n_boot=100, progress=False)
    assert 0 <= f1.power <= 1 and f1.measure == "f1" and f1.effect > 0


def test_detectable_is_the_normal_approximation_of_the_test():
    g = np.random.default_rng(2)
    y = (g.random(300) < 0.35).astype(int)
    a = 1 / (1 + np.exp(-(g.normal(size=300) + 1.4 * y - 0.8)))
    b = np.clip(a + g.normal(0, 0.15, 300), 0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["auc", "acc", "f1"],
                                     n_boot=300)
    d = cmp.detectable().set_index("measure")
    t = cmp.tests().set_index("measure")
    z, zb = norm.ppf(0.975), norm.ppf(0.8)
    assert d.loc["auc", "detectable"] == pytest.approx((z + zb) * t.loc["auc", "se"])
    half = (t.loc["f1", "hi"] - t.loc["f1", "lo"]) / 2
    assert d.loc["f1", "detectable"] == pytest.approx((z + zb) / z * half)
    assert d.loc["auc", "power_at_diff"] == pytest.approx(
        norm.cdf(abs(t.loc["auc", "diff"]) / t.loc["auc", "se"] - z))
    assert (cmp.detectable(power=0.9)["detectable"] > d["detectable"].to_numpy()).all()


def test_results_are_json_ready():
    r = power_roc_test(auc=0.73, ncases=41, ncontrols=72)
    assert json.loads(json.dumps(r.to_dict()))["power"] == r.power
    s = simulate_power(Binormal(auc=0.75, ncases=30, ncontrols=30), n_sim=20, progress=False)
    assert json.loads(json.dumps(s.to_dict()))["n_sim"] == 20
    assert "simulated power" in str(s) and "power 0.9897" in str(r)
