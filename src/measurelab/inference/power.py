"""Power and sample size: how many cases a comparison needs, and what a test set can
detect.

* :func:`power_roc_test` — the analytic power of the AUC test of one ROC curve against a
  value, or of two ROC curves (paired, or unpaired), by Obuchowski & McClish's method, as
  pROC's ``power.roc.test``: the power from the numbers of cases and controls, or the
  numbers for a power (or the AUC, or the level), from binormal parameters or from a
  pilot test set (DeLong's variances and covariance, per case).
* :func:`~measurelab.inference.classifiers.simulation.simulate_power` — the power of any measure's
  test, simulated with the comparison engine itself (the same intervals and tests a user
  gets): test sets drawn from a generating model —
  :class:`~measurelab.inference.classifiers.simulation.Binormal` (one or two correlated binormal
  models) or :class:`~measurelab.inference.classifiers.simulation.Resample` (the user's own test set
  resampled, with a stated effect) — each compared, the rejections counted, with a progress bar.
* :func:`detectable` — ``ClassifierComparison.detectable()``: for every pair and measure,
  the difference the comparison's own test would find with 80% power on this test set.

The one-curve method
--------------------
For a binormal model with equal variances (b = 1) and AUC θ, A = Φ⁻¹(θ)·1.414 (Obuchowski's
rounding of √2), the variance of the AUC per case is
V(θ) = 0.0099·e^(−A²/2)·((5A² + 8) + (A² + 8)/κ), κ = controls / cases; under the null
θ₀ = 0.5 it is V₀ = 0.0792·(1 + 1/κ) (the same formula at A = 0). With n cases, δ = θ − θ₀
and z_α the one-sided normal quantile (α halved for a two-sided test),

    √n·|δ| = z_α·√V₀ + z_β·√V(θ),   power = Φ(z_β).

A general reference ``auc0`` uses V(θ₀) for V₀ (0.5 gives pROC's test). As pROC, the
two-sided power counts rejections in the direction of the effect only (the other tail adds
less than α/2 when the effect is real).

The two-curve method
--------------------
With per-case variances V₁, V₂ and covariance C of the two AUCs, V₀ = 2V₁ − 2C (no
difference: both curves like the first) and V_A = V₁ + V₂ − 2C, the same equation gives the
power or n. From binormal parameters (A, B of each curve, the correlations r_n of the
controls' and r_a of the cases' scores, pROC's ``A1, B1, A2, B2, rn, ra, delta``; FPR
limits for a partial AUC) V and C are Obuchowski & McClish's (1997) expressions; unpaired
curves have r_n = r_a = 0. From a pilot test set they are DeLong's variance and covariance
of the two AUCs times the number of cases (pROC's ``power.roc.test(roc1, roc2)``).

Examples
--------
>>> r = power_roc_test(auc=0.73, ncases=41, ncontrols=72)
>>> round(r.power, 7)
0.9897453
>>> r = power_roc_test(auc=0.8, power=0.9, kappa=1.0)
>>> round(r.ncases, 4), round(r.ncontrols, 4)
(16.6192, 16.6192)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab._util.validation import (
    check_choice,
    check_flag,
    check_real,
    short_repr,
)
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.pickling import versioned_pickle

__all__ = [
    "PowerResult",
    "detectable",
    "detectable_sentence",
    "power_roc_test",
]

ALTERNATIVES = ("two-sided", "one-sided", "two.sided", "one.sided")
#: Obuchowski's constants: A = Φ⁻¹(AUC)·1.414; V = 0.0099·e^(−A²/2)·(...); V₀ = 0.0792·(...)
_ROOT2, _C1, _C0 = 1.414, 0.0099, 0.0792
#: the binormal parameters of two ROC curves (pROC's names); FPR limits are optional
PARAMS = ("A1", "B1", "A2", "B2", "rn", "ra", "delta")
PARTIAL = ("FPR11", "FPR12", "FPR21", "FPR22")


@versioned_pickle
@dataclass(frozen=True)
class PowerResult:
    """The answer of :func:`power_roc_test`: the four quantities of the calculation (the one
    asked for solved from the others) and how it was made.

    Attributes
    ----------
    power : probability of rejecting the null hypothesis at the effect
    ncases, ncontrols : numbers of positive and negative cases (real numbers when solved:
        round up)
    sig_level : the level of the test (two-sided unless ``alternative`` says otherwise)
    auc : the AUC of the one curve, or the two AUCs (None from binormal parameters)
    delta : the difference in AUC the test is to find (two curves), or AUC − auc0
    alternative : 'two-sided' or 'one-sided'
    method : 'one ROC curve' or 'two ROC curves' and the source of the variances
    """

    power: float
    ncases: float
    ncontrols: float
    sig_level: float
    auc: Any
    delta: float
    alternative: str
    method: str

    def __str__(self) -> str:
        auc = self.auc
        if isinstance(auc, tuple):
            what = f"AUC {auc[0]:.4g} vs {auc[1]:.4g}"
        elif auc is None:
            what = f"a difference in AUC of {self.delta:.4g}"
        else:
            what = f"AUC {auc:.4g} (against {auc - self.delta:.4g})"
        size = f"{self.ncases:.4g} cases and {self.ncontrols:.4g} controls"
        if self.ncases != round(self.ncases) or self.ncontrols != round(self.ncontrols):
            size += (f" (round up: {math.ceil(self.ncases - 1e-9)} and "
                     f"{math.ceil(self.ncontrols - 1e-9)})")
        return (f"{self.method}: {what}, {size}, {self.alternative} level "
                f"{self.sig_level:.4g}: power {self.power:.4g}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields.

        Examples
        --------
        >>> sorted(power_roc_test(auc=0.73, ncases=41, ncontrols=72).to_dict())[:3]
        ['alternative', 'auc', 'delta']
        """
        from measurelab.jsonable import to_jsonable

        return to_jsonable({"power": self.power, "ncases": self.ncases,
                            "ncontrols": self.ncontrols, "sig_level": self.sig_level,
                            "auc": self.auc, "delta": self.delta,
                            "alternative": self.alternative, "method": self.method})


# ------------------------------------------------------------------- the formulas
def _qnorm(p: float) -> float:
    from scipy.special import ndtri

    return float(ndtri(p))


def _pnorm(x: float) -> float:
    from scipy.special import ndtr

    return float(ndtr(x))


def var_auc_obuchowski(auc: float, kappa: float) -> float:
    """Obuchowski's per-case variance of the AUC of a binormal model with b = 1:
    0.0099·e^(−A²/2)·((5A² + 8) + (A² + 8)/κ), A = Φ⁻¹(AUC)·1.414, κ = controls / cases.

    Examples
    --------
    >>> round(var_auc_obuchowski(0.5, 1.0), 6)   # 0.0792·(1 + 1/κ)
    0.1584
    """
    a = _qnorm(auc) * _ROOT2
    return _C1 * math.exp(-a * a / 2.0) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


def _n_for(za: float, zb: float, v0: float, va: float, delta: float) -> float:
    return (za * math.sqrt(v0) + zb * math.sqrt(va)) ** 2 / delta**2


def _zbeta(n: float, za: float, v0: float, va: float, delta: float) -> float:
    return (math.sqrt(n * delta**2) - za * math.sqrt(v0)) / math.sqrt(va)


def _zalpha(n: float, zb: float, v0: float, va: float, delta: float) -> float:
    return (math.sqrt(n * delta**2) - zb * math.sqrt(va)) / math.sqrt(v0)


def _f_g(a: float, b: float, fpr: tuple[float, float] | None) -> tuple[float, float]:
    """The derivatives f, g of the (partial) binormal AUC with respect to A and B
    (Obuchowski & McClish 1997)."""
    e1 = math.exp(-a * a / (2.0 * (1.0 + b * b)))
    e2 = 1.0 + b * b
    if fpr is None:
        return (e1 * (2.0 * math.pi * e2) ** -0.5,
                -e1 * a * b * (2.0 * math.pi * e2**3) ** -0.5)
    c1, c2 = ((_qnorm(x) + a * b / e2) * math.sqrt(e2) for x in fpr)
    e3 = _pnorm(c1) - _pnorm(c2)
    e4 = math.exp(-c1 * c1 / 2.0) - math.exp(-c2 * c2 / 2.0)
    f = e1 * (2.0 * math.pi * e2) ** -0.5 * e3
    g = e1 * (2.0 * math.pi * e2) ** -1.0 * (-e4) - a * b * e1 * (2.0 * math.pi * e2**3) \
        ** -0.5 * e3
    return f, g


def _var_params(a: float, b: float, kappa: float, fpr: Any) -> float:
    f, g = _f_g(a, b, fpr)
    return f * f * (1.0 + b * b / kappa + a * a / 2.0) + g * g * b * b * (1.0 + kappa) / \
        (2.0 * kappa)


def _cov_params(p: Mapping[str, Any], kappa: float) -> float:
    a1, b1, a2, b2, rn, ra = (p[k] for k in ("A1", "B1", "A2", "B2", "rn", "ra"))
    f1, g1 = _f_g(a1, b1, p.get("fpr1"))
    f2, g2 = _f_g(a2, b2, p.get("fpr2"))
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2.0)
            + g1 * g2 * (b1 * b2 * (rn * rn + kappa * ra * ra) / (2.0 * kappa))
            + f1 * g2 * (ra * ra * a1 * b2 / 2.0) + f2 * g1 * (ra * ra * a2 * b1 / 2.0))


# -------------------------------------------------------------------- the checks
def _opt_real(value: Any, name: str, **bounds: Any) -> float | None:
    return None if value is None else check_real(value, name, **bounds)


def _check_params(params: Any) -> dict[str, Any]:
    if not isinstance(params, Mapping):
        raise MeasurelabTypeError(f"params must be a mapping of {', '.join(PARAMS)} (pROC's "
                                  f"names), got {short_repr(params)}")
    missing = [k for k in PARAMS if k not in params]
    if missing:
        raise MeasurelabError(f"params is missing {', '.join(missing)} (needs "
                              f"{', '.join(PARAMS)}; FPR11, FPR12, FPR21, FPR22 optional)")
    unknown = [k for k in params if k not in PARAMS + PARTIAL]
    if unknown:
        raise MeasurelabError(f"params has an unknown key {unknown[0]!r}; expected "
                              f"{', '.join(PARAMS + PARTIAL)}")
    out: dict[str, Any] = {}
    for k in ("A1", "A2"):
        out[k] = check_real(params[k], f"params[{k!r}]")
    for k in ("B1", "B2"):
        out[k] = check_real(params[k], f"params[{k!r}]", low=0.0, low_open=True)
    for k in ("rn", "ra"):
        out[k] = check_real(params[k], f"params[{k!r}]", low=-1.0, high=1.0)
    out["delta"] = check_real(params["delta"], "params['delta']")
    for c in ("1", "2"):
        lims = [params.get(f"FPR{c}1"), params.get(f"FPR{c}2")]
        if all(x is None for x in lims):
            out[f"fpr{c}"] = None
            continue
        if any(x is None for x in lims):
            raise MeasurelabError(f"params: give both FPR{c}1 and FPR{c}2 (a partial AUC of "
                                  f"curve {c}) or neither")
        out[f"fpr{c}"] = tuple(check_real(x, f"params['FPR{c}{j}']", low=0.0, high=1.0)
                               for j, x in zip("12", lims, strict=True))
    return out


# ------------------------------------------------------------------- power_roc_test
def power_roc_test(
    auc: float | None = None,
    ncases: float | None = None,
    ncontrols: float | None = None,
    *,
    sig_level: float | None = 0.05,
    power: float | None = None,
    kappa: float | None = None,
    alternative: str = "two-sided",
    auc0: float = 0.5,
    params: Mapping[str, float] | None = None,
    y_true: Any = None,
    scores: Any = None,
    pos_label: Any = 1,
    null_variance: bool = True,
) -> PowerResult:
    """Power or sample size of an AUC test, by Obuchowski & McClish's method (pROC's
    ``power.roc.test``): leave out the one quantity to solve for.

    Parameters
    ----------
    auc : float, optional
        One ROC curve: its AUC under the alternative (tested against ``auc0``); None to
        solve for the AUC the test detects with ``power``.
    ncases, ncontrols : float, optional
        Numbers of positive and negative cases; give one with ``kappa``, or neither to
        solve for them.
    sig_level : float or None, default 0.05
        Level of the test; None to solve for it.
    power : float, optional
        Power to reach (solving for the sample size, the AUC or the level); None to solve
        for the power.
    kappa : float, optional
        ncontrols / ncases (default 1 from numbers; the pilot's ratio from data).
    alternative : 'two-sided' (default) or 'one-sided'
    auc0 : float, default 0.5
        One curve: the AUC of the null hypothesis (0.5 is pROC's test).
    params : mapping, optional
        Two curves from binormal parameters, pROC's names: ``A1, B1, A2, B2`` (each curve's
        A = (μ₁ − μ₀)/σ₁, B = σ₀/σ₁), ``rn, ra`` (the correlation of the two models'
        scores among the controls and among the cases; 0 for unpaired curves), ``delta``
        (the difference in AUC to detect); optional ``FPR11, FPR12, FPR21, FPR22`` for
        partial AUCs.
    y_true, scores : array-like, optional
        From a pilot test set (pROC's ``power.roc.test(roc1[, roc2])``): one model's
        scores (the AUC and, unless given, the numbers of cases and controls are the
        data's) or a mapping of two models' scores on the same cases (the two AUCs and
        DeLong's variances and covariance per case; ``ncases``, if given, asks the power
        at that many cases, with the pilot's ratio of controls).
    pos_label : label of the positive class of ``y_true``, default 1
    null_variance : bool, default True
        True (Obuchowski's and pROC's calculation): the critical value uses the variance
        under the null hypothesis (V₀ above). False: the variance at the alternative for
        both (V₀ = V_A), which describes a test that estimates its standard error from the
        data — DeLong's test as a comparison runs it (with DeLong's variances from a pilot,
        the simulated power of :func:`simulate_power` agrees with it; docs/POWER.md).

    Returns
    -------
    PowerResult
        ``power, ncases, ncontrols, sig_level, auc, delta, alternative, method``.

    Examples
    --------
    >>> round(power_roc_test(auc=0.73, ncases=41, ncontrols=72).power, 6)
    0.989745
    >>> r = power_roc_test(params=dict(A1=2.6, B1=1, A2=1.9, B2=1, rn=0.6, ra=0.6,
    ...                                delta=0.037), ncases=500, ncontrols=500)
    >>> round(r.power, 6)
    0.988107
    """
    alternative = check_choice(alternative, "alternative", ALTERNATIVES).replace(".", "-")
    ncases = _opt_real(ncases, "ncases", low=0.0, low_open=True)
    ncontrols = _opt_real(ncontrols, "ncontrols", low=0.0, low_open=True)
    kappa = _opt_real(kappa, "kappa", low=0.0, low_open=True)
    power = _opt_real(power, "power", low=0.0, high=1.0, low_open=True, high_open=True)
    sig_level = _opt_real(sig_level, "sig_level", low=0.0, high=1.0, low_open=True,
                          high_open=True)
    auc0 = check_real(auc0, "auc0", low=0.0, high=1.0, low_open=True, high_open=True)
    null = check_flag(null_variance, "null_variance")
    given = [x for x, v in (("auc", auc), ("params", params), ("scores", scores))
             if v is not None]
    if len(given) > 1:
        raise MeasurelabError(f"give one of auc (one curve), params (two curves) or scores "
                              f"(a pilot test set), not {' and '.join(given)}")
    if scores is not None:
        return _from_data(y_true, scores, pos_label, ncases, ncontrols, sig_level, power,
                          kappa, alternative, auc0, null)
    if y_true is not None:
        raise MeasurelabError("y_true was given without scores: give the pilot models' "
                              "scores too")
    kappa_n = 1.0 if kappa is None else kappa
    if ncontrols is None and ncases is not None:
        ncontrols = kappa_n * ncases
    elif ncases is None and ncontrols is not None:
        ncases = ncontrols / kappa_n
    if params is not None:
        return _two_curves(_check_params(params), ncases, ncontrols, sig_level, power,
                           kappa_n, alternative, null)
    auc = _opt_real(auc, "auc", low=0.0, high=1.0, low_open=True, high_open=True)
    return _one_curve(auc, ncases, ncontrols, sig_level, power, kappa_n, alternative, auc0,
                      null)


def _unknown(**vals: Any) -> str:
    """The one quantity left out (None), or a one-line error."""
    missing = [k for k, v in vals.items() if v is None]
    if len(missing) != 1:
        names = ", ".join(vals)
        raise MeasurelabError(
            f"leave out exactly one of {names} (the one to solve for); "
            + (f"{' and '.join(missing)} are missing" if missing else "all are given"))
    return missing[0]


def _half(sig: float | None, alternative: str) -> float | None:
    return None if sig is None else (sig / 2.0 if alternative == "two-sided" else sig)


def _result(power: float, ncases: float, ncontrols: float, sig: float, alternative: str,
            auc: Any, delta: float, method: str) -> PowerResult:
    if alternative == "two-sided":
        sig = sig * 2.0
    return PowerResult(float(power), float(ncases), float(ncontrols), float(sig), auc,
                       float(delta), alternative, method)


def _one_curve(auc: float | None, ncases: float | None, ncontrols: float | None,
               sig: float | None, power: float | None, kappa: float, alternative: str,
               auc0: float, null: bool = True) -> PowerResult:
    n = None if ncases is None or ncontrols is None else ncases
    what = _unknown(auc=auc, n=n, power=power, sig_level=sig)
    half = _half(sig, alternative)
    method = "one ROC curve (Obuchowski–McClish" + ("" if null else
                                                   ", variance of the alternative") + ")"
    # _unknown left exactly one quantity None: the asserts say which are given, for mypy
    if what == "auc":
        from scipy.optimize import brentq

        assert ncases is not None and ncontrols is not None
        assert half is not None and power is not None
        k = ncontrols / ncases
        za, zb = _qnorm(1 - half), _qnorm(power)

        def gap(x: float) -> float:
            va = var_auc_obuchowski(x, k)
            v0 = var_auc_obuchowski(auc0, k) if null else va
            return _n_for(za, zb, v0, va, x - auc0) - ncases

        hi = 1.0 - 1e-15
        if gap(hi) > 0:
            raise MeasurelabError(f"no AUC below 1 reaches power {power:g} with {ncases:g} "
                                  f"cases and {ncontrols:g} controls")
        found = brentq(gap, auc0 + (1.0 - auc0) * 1e-9, hi, xtol=1e-14, rtol=1e-15)
        return _result(power, ncases, ncontrols, half, alternative, found, found - auc0,
                       method)
    assert auc is not None
    delta = auc - auc0
    if delta == 0:
        raise MeasurelabError(f"auc={auc:g} equals auc0: there is no effect to detect")
    if what == "n":
        assert half is not None and power is not None
        va = var_auc_obuchowski(auc, kappa)
        v0 = var_auc_obuchowski(auc0, kappa) if null else va
        nc = _n_for(_qnorm(1 - half), _qnorm(power), v0, va, delta)
        return _result(power, nc, kappa * nc, half, alternative, auc, delta, method)
    assert ncases is not None and ncontrols is not None
    k = ncontrols / ncases
    va = var_auc_obuchowski(auc, k)
    v0 = var_auc_obuchowski(auc0, k) if null else va
    if what == "power":
        assert half is not None
        power = _pnorm(_zbeta(ncases, _qnorm(1 - half), v0, va, delta))
    else:
        assert power is not None
        half = 1.0 - _pnorm(_zalpha(ncases, _qnorm(power), v0, va, delta))
    return _result(power, ncases, ncontrols, half, alternative, auc, delta, method)


def _two_from(v1: float, v2: float, c12: float, delta: float, ncases: float | None,
              ncontrols: float | None, sig: float | None, power: float | None,
              kappa: float, alternative: str, auc: Any, method: str,
              null: bool = True) -> PowerResult:
    n = None if ncases is None or ncontrols is None else ncases
    what = _unknown(n=n, power=power, sig_level=sig)
    half = _half(sig, alternative)
    va = v1 + v2 - 2.0 * c12
    v0 = 2.0 * v1 - 2.0 * c12 if null else va
    if not null:
        method = method[:-1] + ", variance of the alternative)"
    if delta == 0:
        raise MeasurelabError("the two AUCs are equal (delta = 0): there is no difference to "
                              "detect")
    if va <= 0:
        raise MeasurelabError(f"the variance of the difference is not positive (VA = "
                              f"{va:.3g}): identical or perfectly correlated curves")
    if v0 < 0:
        raise MeasurelabError(f"the null-hypothesis variance 2·V1 − 2·C = {v0:.3g} is negative "
                              "(the second curve varies more and the two are strongly "
                              "correlated); pass null_variance=False (--studentized), or "
                              "give the curves in the other order")
    if what == "n":
        assert half is not None and power is not None
        nc = _n_for(_qnorm(1 - half), _qnorm(power), v0, va, delta)
        return _result(power, nc, kappa * nc, half, alternative, auc, delta, method)
    assert ncases is not None and ncontrols is not None  # _unknown: n is given
    if what == "power":
        assert half is not None
        power = _pnorm(_zbeta(ncases, _qnorm(1 - half), v0, va, delta))
    else:
        assert power is not None
        half = 1.0 - _pnorm(_zalpha(ncases, _qnorm(power), v0, va, delta))
    return _result(power, ncases, ncontrols, half, alternative, auc, delta, method)


def _two_curves(p: dict[str, Any], ncases: float | None, ncontrols: float | None,
                sig: float | None, power: float | None, kappa: float,
                alternative: str, null: bool = True) -> PowerResult:
    if ncases is not None and ncontrols is not None:
        kappa = ncontrols / ncases
    v1 = _var_params(p["A1"], p["B1"], kappa, p["fpr1"])
    v2 = _var_params(p["A2"], p["B2"], kappa, p["fpr2"])
    c12 = _cov_params(p, kappa)
    return _two_from(v1, v2, c12, p["delta"], ncases, ncontrols, sig, power, kappa,
                     alternative, None, "two ROC curves (Obuchowski–McClish, binormal)", null)


def _from_data(y_true: Any, scores: Any, pos_label: Any, ncases: float | None,
               ncontrols: float | None, sig: float | None, power: float | None,
               kappa: float | None, alternative: str, auc0: float,
               null: bool = True) -> PowerResult:
    from measurelab._util.validation import as_1d, binarize, check_same_length, check_scores
    from measurelab.inference.bootstrap import CaseDesign
    from measurelab.inference.delong import delong_cov

    if y_true is None:
        raise MeasurelabError("scores were given without y_true: give the pilot's labels")
    y_raw = as_1d(y_true, "y_true")
    y = binarize(y_raw, pos_label)
    models = dict(scores) if isinstance(scores, Mapping) else {"model": scores}
    if not 1 <= len(models) <= 2:
        raise MeasurelabError(f"scores: give one model's scores or two models' (a mapping), "
                              f"got {len(models)} models")
    arrays = []
    for name, s in models.items():
        what = f"scores of model {name!r}"
        a = as_1d(s.to_numpy() if hasattr(s, "to_numpy") else s, what)
        check_same_length(("y_true", y_raw), (what, a))
        arrays.append(check_scores(a, what))
    n1, n0 = int(y.sum()), int((~y).sum())
    if n1 < 2 or n0 < 2:
        raise MeasurelabError(f"a pilot test set needs at least two cases of each class, got "
                              f"{n1} positive and {n0} negative")
    d = CaseDesign.from_cases(y, arrays)
    aucs, cov = delong_cov(d.tables, d.rows, d.y)
    k_data = n0 / n1
    if len(arrays) == 1:  # one curve: the numbers with the data's AUC
        auc = float(aucs[0])
        if power is not None and sig is not None:
            kap = k_data if kappa is None else kappa
            return _one_curve(auc, None, None, sig, power, kap, alternative, auc0, null)
        if ncases is None and ncontrols is None:
            ncases, ncontrols = float(n1), float(n0)
        elif ncases is not None and ncontrols is None:
            ncontrols = (k_data if kappa is None else kappa) * ncases
        elif ncases is None and ncontrols is not None:
            ncases = ncontrols / (k_data if kappa is None else kappa)
        return _one_curve(auc, ncases, ncontrols, sig, power, 1.0, alternative, auc0, null)
    if ncontrols is not None:
        raise MeasurelabError("from two pilot models give ncases (the controls follow the "
                              "pilot's ratio, or kappa), not ncontrols")
    kap = k_data if kappa is None else kappa
    if ncases is None and (power is None or sig is None):
        ncases = float(n1)  # the power, or the level, at the pilot's size
    nc = None if ncases is None else kap * ncases
    v1, v2, c12 = (float(x) * n1 for x in (cov[0, 0], cov[1, 1], cov[0, 1]))
    delta = float(aucs[0] - aucs[1])
    return _two_from(v1, v2, c12, delta, ncases, nc, sig, power, kap, alternative,
                     (float(aucs[0]), float(aucs[1])),
                     f"two ROC curves (DeLong's covariance from {n1} cases and {n0} controls)",
                     null)


# ----------------------------------------------------------------- detectable
def detectable(cmp: Any, power: float = 0.8) -> Any:
    """For every pair of models and measure of a comparison, the true difference its test
    would find with probability ``power`` on a test set like this one.

    A two-sided test at level α = 1 − ci whose estimate has standard error SE rejects a true
    difference δ with probability ≈ Φ(|δ|/SE − z_{1−α/2}); so the detectable difference is
    (z_{1−α/2} + z_power)·SE. SE is the test's own: DeLong's for AUC, the interval's
    half-width / z otherwise (bootstrap, Tango). One model alone: the deviation from a
    fixed value its interval would detect. Columns ``a, b, measure, diff, se, detectable,
    power_at_diff`` (the power at the observed difference, were it the truth).

    Examples
    --------
    >>> from measurelab import compare_classifiers
    >>> y = [0, 1, 0, 1, 1, 0, 0, 1, 0, 0] * 6
    >>> r = compare_classifiers(y, {"m": [.1, .8, .3, .6, .7, .2, .4, .9, .1, .3] * 6},
    ...                         measures=["auc"])
    >>> d = detectable(r)
    >>> d[["a", "b", "measure"]].values.tolist()
    [['m', 'a fixed value', 'auc']]
    """
    import pandas as pd

    power = check_real(power, "power", low=0.0, high=1.0, low_open=True, high_open=True)
    level = cmp._need_level()
    zc = _qnorm(0.5 + level / 2.0)
    zb = _qnorm(power)
    rows = []
    if len(cmp.names) > 1:
        src = cmp.tests().to_dict("records")
        for r in src:
            se = r["se"] if r["method"] == "delong" else (r["hi"] - r["lo"]) / (2.0 * zc)
            rows.append({"a": r["a"], "b": r["b"], "measure": r["measure"],
                         "diff": r["diff"], "se": se})
    else:
        for r in cmp.intervals().to_dict("records"):
            rows.append({"a": r["model"], "b": "a fixed value", "measure": r["measure"],
                         "diff": math.nan, "se": (r["hi"] - r["lo"]) / (2.0 * zc)})
    for r in rows:
        se = float(r["se"])
        ok = math.isfinite(se) and se > 0
        r["se"] = se
        r["detectable"] = (zc + zb) * se if ok else math.nan
        d = float(r["diff"])
        r["power_at_diff"] = _pnorm(abs(d) / se - zc) if ok and math.isfinite(d) else \
            math.nan
    return pd.DataFrame(rows, columns=["a", "b", "measure", "diff", "se", "detectable",
                                       "power_at_diff"])


def detectable_sentence(cmp: Any, power: float = 0.8, rows: list[str] | None = None) -> str:
    """One sentence: the differences this comparison's tests would detect with ``power``
    (per measure; the median over the pairs when there are several), or '' without
    intervals or a second model.

    Examples
    --------
    >>> from measurelab import compare_classifiers
    >>> y = [0, 1, 0, 1, 1, 0, 0, 1, 0, 0] * 6
    >>> r = compare_classifiers(y, {"a": [.1, .8, .3, .6, .7, .2, .4, .9, .1, .3] * 6,
    ...                             "b": [.2, .7, .4, .5, .4, .3, .5, .6, .2, .2] * 6},
    ...                         measures=["auc", "acc"], n_boot=200)
    >>> detectable_sentence(r)  # doctest: +ELLIPSIS
    'With these 60 cases (24 positive), the paired tests would find ... auc 0.089 and acc 0.14.'
    """
    if cmp.level is None or len(cmp.names) < 2:
        return ""
    d = detectable(cmp, power)
    if rows is not None:
        d = d[d["measure"].isin(rows)]
    parts = []
    for m, g in d.groupby("measure", sort=False):
        v = g["detectable"].dropna()
        if len(v):
            parts.append(f"{m} {float(v.median()):.2g}")
    if not parts:
        return ""
    many = " (the median over the pairs)" if len(cmp.names) > 2 else ""
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    n = int(cmp._y.size)
    pos = f" ({int(np.count_nonzero(cmp._y))} positive)" if not hasattr(cmp._design,
                                                                        "labels") else ""
    return (f"With these {n} cases{pos}, the paired tests would find a true difference with "
            f"{round(100 * power)}% power (two-sided, level {1 - cmp.level:.2g}) when it is "
            f"at least about{many}: {listed}.")
