"""DeLong's interval and tests (docs/METHODS.md#delong) against R's pROC: its numbers as
stored in tests/data/r/ (the default suite) and run live through ``Rscript`` (marker ``r``,
``make test-r``; tests/r_references.py).

pROC 1.18's ``roc.test(paired = FALSE)`` (``delong.unpaired.test``) computes, for curves R
and S, each AUC's DeLong variance V = S10/m + S01/n (ddof 1), the statistic
D = (AUC_R − AUC_S)/√(V_R + V_S) and df = (V_R + V_S)² / (V_R²/(N_R − 1) + V_S²/(N_S − 1))
with N = controls + cases of each curve; ``roc.test.roc`` then takes the two-sided p as
2·pt(−|D|, df). The paired test (``delong.paired.calculations``) is Z = d/√(L S Lᵀ) with S the
2×2 covariance S10/m + S01/n, L = (1, −1), p = 2·pnorm(−|Z|) and the interval d ± z·sig;
``ci.auc(method = "delong")`` is qnorm at the AUC with sd √V, clipped to [0, 1].

The live pROC checks need ``Rscript`` with pROC (``make test-r`` installs the Debian
packages ``r-base-core`` and ``r-cran-proc``); the stored ones and the other tests (logit
interval by hand, the boundary, degenerate cases, coverage) need no R.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.inference import delong as dl
from measurelab.inference import delong as dlm
from measurelab.stats.scoretable import ScoreTable
from tests.r_references import SOURCES, reference, run_r

# pROC's documented results on its aSAH data (outcome Good/Poor, predictors wfns and s100b)
ASAH_UNPAIRED_D, ASAH_UNPAIRED_P = 1.434906, 0.152825
ASAH_PAIRED_Z, ASAH_PAIRED_P = 2.208984, 0.0271758


#: R helpers: print named numbers at full precision; run the three DeLong routines
R_HELPERS = r"""
put <- function(key, x) cat(sprintf("%s=%.17g\n", key, as.numeric(x)), sep = "")
mkroc <- function(y, s) roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
single <- function(tag, r) {
  ci <- ci.auc(r, method = "delong", conf.level = 0.95)
  put(paste0(tag, "_auc"), auc(r)); put(paste0(tag, "_lo"), ci[1]); put(paste0(tag, "_hi"), ci[3])
  put(paste0(tag, "_var"), var(r, method = "delong"))
}
unpaired <- function(tag, r1, r2) {
  u <- suppressWarnings(roc.test(r1, r2, method = "delong", paired = FALSE))
  put(paste0(tag, "_D"), u$statistic); put(paste0(tag, "_df"), u$parameter)
  put(paste0(tag, "_p"), u$p.value)
}
paired <- function(tag, r1, r2) {
  u <- roc.test(r1, r2, method = "delong", paired = TRUE)
  put(paste0(tag, "_Z"), u$statistic); put(paste0(tag, "_p"), u$p.value)
  put(paste0(tag, "_lo"), u$conf.int[1]); put(paste0(tag, "_hi"), u$conf.int[2])
}
"""


def _table(y: np.ndarray, s: np.ndarray) -> tuple[ScoreTable, np.ndarray]:
    t = ScoreTable.from_arrays(y, s)
    return t, np.searchsorted(t.scores, s)


def r_asah(tmp: Path) -> dict:
    """pROC's results on its aSAH data and the data it exported (y: case = 'Poor')."""
    csv = tmp / "asah.csv"
    out = run_r(R_HELPERS + f"""
data(aSAH)
d <- data.frame(y = as.integer(aSAH$outcome == "Poor"), wfns = as.numeric(aSAH$wfns),
                s100b = aSAH$s100b)
write.csv(d, "{csv.as_posix()}", row.names = FALSE)
# pROC's default use: the factor outcome, controls 'Good', cases 'Poor', direction '<'
r1 <- roc(aSAH$outcome, aSAH$wfns, levels = c("Good", "Poor"), direction = "<", quiet = TRUE)
r2 <- roc(aSAH$outcome, aSAH$s100b, levels = c("Good", "Poor"), direction = "<", quiet = TRUE)
single("wfns", r1); single("s100b", r2)
unpaired("unp", r1, r2); paired("par", r1, r2)
""", tmp)
    raw = np.genfromtxt(csv, delimiter=",", names=True)
    return {"r": out, "y": raw["y"].astype(int).tolist(), "wfns": raw["wfns"].tolist(),
            "s100b": raw["s100b"].tolist()}


@pytest.fixture(scope="module", params=SOURCES)
def asah(request, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, float], dict]:
    """pROC's results on aSAH (stored or live) and the data (y: case = 'Poor')."""
    got = reference("delong_asah", request.param, tmp_path_factory.mktemp("asah"))
    data = {"y": np.array(got["y"]).astype(bool), "wfns": np.array(got["wfns"], float),
            "s100b": np.array(got["s100b"], float)}
    return got["r"], data


# ------------------------------------------------------------------------ against pROC
def test_asah_unpaired_matches_proc_and_published(asah):
    r, d = asah
    y = d["y"]
    assert y.sum() == 41 and (~y).sum() == 72  # aSAH: 41 poor outcomes among 113
    # pROC live reproduces its published values
    assert r["unp_D"] == pytest.approx(ASAH_UNPAIRED_D, abs=1e-6)
    assert r["unp_p"] == pytest.approx(ASAH_UNPAIRED_P, abs=1e-6)
    # ours: the two predictors treated as two separate test sets
    ta, _ = _table(y, d["wfns"])
    tb, _ = _table(y, d["s100b"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        u = dl.delong_unpaired(ta, tb)
    assert u["method"] == "delong-unpaired"
    assert u["z"] == pytest.approx(ASAH_UNPAIRED_D, abs=1e-6)
    assert u["p"] == pytest.approx(ASAH_UNPAIRED_P, abs=1e-6)
    assert u["z"] == pytest.approx(r["unp_D"], rel=1e-12)
    assert u["p"] == pytest.approx(r["unp_p"], rel=1e-10)
    assert u["df"] == pytest.approx(r["unp_df"], rel=1e-12)
    assert u["diff"] == pytest.approx(r["wfns_auc"] - r["s100b_auc"], rel=1e-12)
    assert u["se"] == pytest.approx(math.sqrt(r["wfns_var"] + r["s100b_var"]), rel=1e-12)
    # the interval: diff ± t_df·se, which excludes 0 exactly when p < 0.05
    from scipy.stats import t as student_t

    half = student_t.ppf(0.975, u["df"]) * u["se"]
    assert (u["lo"], u["hi"]) == pytest.approx((u["diff"] - half, u["diff"] + half))
    assert u["lo"] < 0 < u["hi"]


def test_asah_paired_delong_matches_proc_and_published(asah):
    r, d = asah
    y = d["y"]
    assert r["par_Z"] == pytest.approx(ASAH_PAIRED_Z, abs=1e-6)
    assert r["par_p"] == pytest.approx(ASAH_PAIRED_P, abs=1e-7)
    ta, ra = _table(y, d["wfns"])
    tb, rb = _table(y, d["s100b"])
    auc, cov = dlm.delong_cov([ta, tb], [ra, rb], y)
    _, lo, hi, _, z, p = dlm.delong_paired(auc, cov, 0, 1)
    assert z == pytest.approx(ASAH_PAIRED_Z, abs=1e-6)
    assert p == pytest.approx(ASAH_PAIRED_P, abs=1e-7)
    assert z == pytest.approx(r["par_Z"], rel=1e-12)
    assert p == pytest.approx(r["par_p"], rel=1e-10)
    assert (lo, hi) == pytest.approx((r["par_lo"], r["par_hi"]), rel=1e-10)
    assert auc.tolist() == pytest.approx([r["wfns_auc"], r["s100b_auc"]], rel=1e-12)
    assert np.diag(cov).tolist() == pytest.approx([r["wfns_var"], r["s100b_var"]], rel=1e-12)


@pytest.mark.parametrize("predictor", ["wfns", "s100b"])
def test_asah_single_model_wald_matches_ci_auc(asah, predictor):
    r, d = asah
    t, _ = _table(d["y"], d[predictor])
    w = dl.delong_interval(t, scale="wald")
    assert w.method == "delong"
    assert w.value == pytest.approx(r[f"{predictor}_auc"], rel=1e-12)
    assert w.se ** 2 == pytest.approx(r[f"{predictor}_var"], rel=1e-12)
    assert (w.lo, w.hi) == pytest.approx((r[f"{predictor}_lo"], r[f"{predictor}_hi"]), rel=1e-12)
    # the same variance as intervals.delong; the logit interval is asymmetric, inside [0, 1]
    assert w == dlm.delong(t)._replace(method="delong")
    g = dl.delong_interval(t)
    assert g.method == "delong-logit" and g.se == w.se
    assert 0 < g.lo < g.value < g.hi < 1
    assert g.hi - g.value < g.value - g.lo  # shorter on the side of 1


def _tied_data() -> tuple[np.ndarray, ...]:
    """Seeded data with heavy ties: two test sets of different sizes, two models on one."""
    g = np.random.default_rng(20240611)
    ya = g.random(90) < 0.35
    sa1 = np.round(g.normal(0.9 * ya, 1.0), 1)  # coarse grid: many ties across classes
    sa2 = np.round(0.6 * sa1 + g.normal(0.4 * ya, 0.8), 0)
    yb = g.random(57) < 0.55
    sb = np.round(g.normal(0.5 * yb, 1.0) * 2) / 2
    return ya, sa1, sa2, yb, sb


def r_tied(tmp: Path) -> dict[str, float]:
    """pROC's results on :func:`_tied_data`."""
    ya, sa1, sa2, yb, sb = _tied_data()
    for name, y, s in (("a1", ya, sa1), ("a2", ya, sa2), ("b", yb, sb)):
        np.savetxt(tmp / f"{name}.csv", np.c_[y, s], delimiter=",", header="y,s",
                   comments="", fmt="%.17g")
    return run_r(R_HELPERS + f"""
rd <- function(name) read.csv(file.path("{tmp.as_posix()}", paste0(name, ".csv")))
a1 <- rd("a1"); a2 <- rd("a2"); b <- rd("b")
ra1 <- mkroc(a1$y, a1$s); ra2 <- mkroc(a2$y, a2$s); rb <- mkroc(b$y, b$s)
single("a1", ra1); single("a2", ra2); single("b", rb)
unpaired("unp", ra1, rb); paired("par", ra1, ra2)
""", tmp)


@pytest.mark.parametrize("source", SOURCES)
def test_random_tied_data_matches_proc(source, tmp_path):
    """Seeded data with heavy ties: two test sets of different sizes, two models on one."""
    ya, sa1, sa2, yb, sb = _tied_data()
    r = reference("delong_tied", source, tmp_path)
    ta1, r1 = _table(ya, sa1)
    ta2, r2 = _table(ya, sa2)
    tb, _ = _table(yb, sb)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for tag, t in (("a1", ta1), ("a2", ta2), ("b", tb)):
            w = dl.delong_interval(t, scale="wald")
            assert w.value == pytest.approx(r[f"{tag}_auc"], rel=1e-12)
            assert w.se ** 2 == pytest.approx(r[f"{tag}_var"], rel=1e-10)
            assert (w.lo, w.hi) == pytest.approx((r[f"{tag}_lo"], r[f"{tag}_hi"]), rel=1e-10)
        u = dl.delong_unpaired(ta1, tb)
        auc, cov = dlm.delong_cov([ta1, ta2], [r1, r2], ya)
        _, lo, hi, _, z, p = dlm.delong_paired(auc, cov, 0, 1)
    assert (u["z"], u["df"], u["p"]) == pytest.approx((r["unp_D"], r["unp_df"], r["unp_p"]),
                                                      rel=1e-10)
    assert (z, p, lo, hi) == pytest.approx((r["par_Z"], r["par_p"], r["par_lo"], r["par_hi"]),
                                           rel=1e-10)


# --------------------------------------------------------------------- without R: logit
def _expit(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def test_logit_interval_is_the_back_transformed_formula(rng):
    y = rng.random(80) < 0.4
    s = np.round(rng.normal(1.1 * y, 1.0), 1)
    t = ScoreTable.from_arrays(y, s)
    for level in (0.9, 0.95, 0.99):
        r = dl.delong_interval(t, confidence_level=level)
        a, se = r.value, r.se
        zc = norm.ppf(0.5 + level / 2)
        lg, half = math.log(a / (1 - a)), zc * se / (a * (1 - a))
        assert (r.lo, r.hi) == pytest.approx((_expit(lg - half), _expit(lg + half)), rel=1e-12)
        assert 0 <= r.lo < a < r.hi <= 1
        assert se == pytest.approx(dl.delong_interval(t, level, "wald").se, rel=0)


def test_logit_interval_near_one_stays_inside_and_covers_the_value():
    """n = 60, one misordered pair: AUC = 1 − 1/900; the Wald interval hits the clip."""
    neg, pos = np.arange(30.0), np.arange(30.0, 60.0)
    neg[-1], pos[0] = pos[0], neg[-1]  # the top negative above the bottom positive
    y = np.r_[np.zeros(30, bool), np.ones(30, bool)]
    t = ScoreTable.from_arrays(y, np.r_[neg, pos])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = dl.delong_interval(t)
        w = dl.delong_interval(t, scale="wald")
    assert r.value == pytest.approx(1 - 1 / 900)
    assert r.se > 0
    assert 0 < r.lo < r.value < r.hi <= 1
    assert w.hi == 1.0 and w.lo > r.lo  # Wald is clipped at 1; logit reaches further down


def test_weights_count_as_repeated_cases():
    y = np.array([0, 0, 1, 1, 0, 1, 1, 0], bool)
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.5, 0.9, 0.5, 0.2])
    w = np.array([1, 2, 1, 3, 1, 2, 1, 2])
    a = dl.delong_interval(ScoreTable.from_arrays(y, s, w.astype(float)))
    b = dl.delong_interval(ScoreTable.from_arrays(np.repeat(y, w), np.repeat(s, w)))
    assert a.value == pytest.approx(b.value) and a.se == pytest.approx(b.se)
    assert (a.lo, a.hi) == pytest.approx((b.lo, b.hi))


# ---------------------------------------------------------------- without R: degenerate
def _call(fn, *args, **kw):
    """Call with every RuntimeWarning an error; return the result and warning texts."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        warnings.simplefilter("error", RuntimeWarning)
        out = fn(*args, **kw)
    assert all(issubclass(w.category, UndefinedMeasureWarning) for w in rec), rec
    return out, [str(w.message) for w in rec]


def _t(y, s) -> ScoreTable:
    return ScoreTable.from_arrays(np.asarray(y, bool), np.asarray(s, float))


CONSTANT = _t([0, 1, 0, 1, 1], [0.3] * 5)
PERFECT = _t([0, 0, 0, 1, 1], [0.1, 0.2, 0.3, 0.7, 0.9])
REVERSED = _t([1, 1, 0, 0, 0], [0.1, 0.2, 0.3, 0.7, 0.9])
SOME = _t([0, 1, 0, 1, 1, 0], [0.1, 0.4, 0.6, 0.8, 0.3, 0.2])


def test_degenerate_cases_are_stated_not_nan():
    for scale in dl.SCALES:
        for table, value, why in ((CONSTANT, 0.5, "constant scores"),
                                  (PERFECT, 1.0, "perfect separation"),
                                  (REVERSED, 0.0, "perfect separation")):
            r, msgs = _call(dl.delong_interval, table, scale=scale)
            assert (r.value, r.lo, r.hi, r.se) == (value, value, value, 0.0)
            assert len(msgs) == 1 and why in msgs[0]
        # one class missing: the AUC is undefined
        r, msgs = _call(dl.delong_interval, _t([1, 1, 1], [0.1, 0.5, 0.9]), scale=scale)
        assert math.isnan(r.value) and math.isnan(r.lo) and math.isnan(r.hi)
        assert len(msgs) == 1 and "one class missing" in msgs[0] and "negatives" in msgs[0]
        # a single positive: the AUC is known, its variance is not
        r, msgs = _call(dl.delong_interval, _t([0, 0, 1, 0], [0.1, 0.5, 0.4, 0.2]), scale=scale)
        assert r.value == pytest.approx(2 / 3) and math.isnan(r.lo) and math.isnan(r.hi)
        assert len(msgs) == 1 and "fewer than 2 positive" in msgs[0]
        # an empty table
        r, msgs = _call(dl.delong_interval, ScoreTable.from_arrays(np.array([], bool),
                                                                   np.array([])), scale=scale)
        assert math.isnan(r.value) and math.isnan(r.lo) and len(msgs) == 1
        # an ordinary table: no warning at all
        r, msgs = _call(dl.delong_interval, SOME, scale=scale)
        assert msgs == [] and 0 < r.lo < r.value < r.hi <= 1


def test_logit_at_the_boundary_with_positive_se_is_a_point(monkeypatch):
    """AUC 0 or 1 with SE > 0 cannot happen; if rounding ever made it, no NaN escapes."""
    for auc in (0.0, 1.0):
        monkeypatch.setattr(dl, "_auc_variance", lambda t, a=auc: (a, 1e-4, None))
        r, msgs = _call(dl.delong_interval, SOME)
        assert (r.value, r.lo, r.hi) == (auc, auc, auc)
        assert len(msgs) == 1 and "perfect separation" in msgs[0]


def test_unpaired_degenerate_and_identical():
    # the same table twice: identical AUCs with SE > 0 give D = 0, p = 1
    u, msgs = _call(dl.delong_unpaired, SOME, SOME)
    assert msgs == [] and u["diff"] == 0 and u["z"] == 0 and u["p"] == 1
    assert u["se"] > 0 and u["lo"] < 0 < u["hi"]
    # both perfect: SE 0 and equal AUCs
    u, msgs = _call(dl.delong_unpaired, PERFECT, PERFECT)
    assert (u["diff"], u["se"], u["z"], u["p"], u["lo"], u["hi"]) == (0, 0, 0, 1, 0, 0)
    assert len(msgs) == 1 and "perfect separation" in msgs[0]
    # SE 0 with different AUCs: D = ±inf, p = 0
    u, msgs = _call(dl.delong_unpaired, CONSTANT, PERFECT)
    assert u["z"] == -math.inf and u["p"] == 0 and u["diff"] == -0.5
    assert len(msgs) == 1 and "constant scores" in msgs[0] and "perfect separation" in msgs[0]
    u, _ = _call(dl.delong_unpaired, PERFECT, REVERSED)
    assert u["z"] == math.inf and u["p"] == 0
    # one SE 0, the other not: df = N_b − 1 (Welch with one variance)
    u, msgs = _call(dl.delong_unpaired, PERFECT, SOME)
    assert msgs == [] and u["df"] == pytest.approx(SOME.total - 1)
    # undefined variance: NaN with the reason
    u, msgs = _call(dl.delong_unpaired, SOME, _t([0, 1], [0.2, 0.4]))
    assert math.isnan(u["z"]) and math.isnan(u["p"]) and u["diff"] == pytest.approx(7 / 9 - 1)
    assert len(msgs) == 1 and "model b" in msgs[0] and "fewer than 2" in msgs[0]


def test_bad_arguments():
    with pytest.raises(MeasurelabError, match="scale"):
        dl.delong_interval(SOME, scale="probit")
    with pytest.raises(MeasurelabError, match="confidence_level"):
        dl.delong_interval(SOME, confidence_level=95)
    with pytest.raises(MeasurelabError, match="confidence_level"):
        dl.delong_unpaired(SOME, SOME, confidence_level=0)


# ------------------------------------------------------------------------- coverage
@pytest.mark.parametrize("true_auc", [0.95, 0.97])
def test_logit_interval_covers_near_the_boundary(true_auc, record_property):
    """Binormal, n = 100 (50 + 50), 400 samples: the logit interval covers the true AUC
    Φ(δ/√2) in ≥ 92% of samples; the Wald figure is reported, not asserted (≈ 85–90%)."""
    delta = math.sqrt(2) * norm.ppf(true_auc)
    g = np.random.default_rng(7 + int(true_auc * 100))
    y = np.r_[np.ones(50, bool), np.zeros(50, bool)]
    hits = {"logit": 0, "wald": 0}
    n_sim = 400
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for _ in range(n_sim):
            t = ScoreTable.from_arrays(y, np.r_[g.normal(delta, 1, 50), g.normal(0, 1, 50)])
            for scale in hits:
                r = dl.delong_interval(t, scale=scale)
                hits[scale] += r.lo <= true_auc <= r.hi
    cover = {k: v / n_sim for k, v in hits.items()}
    record_property("coverage", cover)
    print(f"true AUC {true_auc}: logit covers {cover['logit']:.3f}, Wald {cover['wald']:.3f}")
    assert cover["logit"] >= 0.92
