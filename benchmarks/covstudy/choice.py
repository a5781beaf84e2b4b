"""The threshold a rule chooses, in the coverage study (issue 42): do the intervals of
``best_threshold(..., ci=0.95)`` contain the population's operating point?

A study "measure" named ``best_threshold.<rule>.<quantity>`` is one row of
``best_threshold(y, s, rule, ci=0.95).intervals()``: ``threshold``, ``sens``, ``spec`` or
the rule's own value (``best_threshold.youden.youden``). Its interval is one model's
(kind ``single``); each simulated test set gives one per model.

The target is the population's operating point, exactly: under the binormal generator
the specificity at the latent cut x is Φ(x) and the sensitivity 1 − Φ(x − μ), so Youden's
J(x) = Φ(x) − Φ(x − μ) is maximised numerically over x (bounded search; for equal
variances the optimum is μ/2, which a test checks) and the threshold is that cut on the
score scale, sigmoid(b·(x − c)). The large sample (best_threshold on it, no interval) is a
check of these values, not the target.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

#: the prefix of the study's names for best_threshold's rows
PREFIX = "best_threshold."
#: the rows of best_threshold's intervals besides the rule's own value
QUANTITIES: tuple[str, ...] = ("threshold", "sens", "spec")
#: the rules the study knows the population optimum of
RULES: tuple[str, ...] = ("youden",)


def names(rule: str = "youden") -> tuple[str, ...]:
    """The study's names of one rule's four rows.

    Examples
    --------
    >>> names()[::3]
    ('best_threshold.youden.threshold', 'best_threshold.youden.youden')
    """
    return tuple(f"{PREFIX}{rule}.{q}" for q in (*QUANTITIES, rule))


def is_choice(measure: str) -> bool:
    """Whether a study measure is a row of best_threshold's intervals."""
    return str(measure).startswith(PREFIX)


def parse(measure: str) -> tuple[str, str]:
    """(rule, quantity) of a study name, e.g. ('youden', 'sens')."""
    rule, _, quantity = str(measure)[len(PREFIX):].partition(".")
    if rule not in RULES or quantity not in (*QUANTITIES, rule):
        raise ValueError(f"{measure!r} is not a best_threshold row the study knows "
                         f"(rules {RULES}, rows {QUANTITIES} and the rule's value)")
    return rule, quantity


def youden_point(mu: float, slope: float, cut: float) -> dict[str, float]:
    """The population's Youden-optimal operating point of a binormal model (negatives'
    latent x ~ N(0, 1), positives' N(μ, 1), score sigmoid(b·(x − c))), by numerical
    maximisation of J(x) = Φ(x) − Φ(x − μ).

    Examples
    --------
    >>> p = youden_point(1.0, 1.0, 0.0)
    >>> round(p["sens"], 6) == round(p["spec"], 6), round(p["threshold"], 6)
    (True, 0.622459)
    """
    from scipy import optimize
    from scipy.stats import norm

    res = optimize.minimize_scalar(lambda x: -(norm.cdf(x) - norm.cdf(x - mu)),
                                   bounds=(-10.0, 10.0 + mu), method="bounded",
                                   options={"xatol": 1e-12})
    x = float(res.x)
    sens, spec = float(norm.sf(x - mu)), float(norm.cdf(x))
    return {"threshold": 1.0 / (1.0 + math.exp(-slope * (x - cut))), "sens": sens,
            "spec": spec, "youden": sens + spec - 1.0}


def exact(gen: Any, measures: Iterable[str]) -> dict[str, tuple[float, float]]:
    """The exact population values (model a, model b) of the study's best_threshold rows
    under ``gen`` (a binormal generator: ``mu``, ``slope``, ``cut``); NaN for another
    generator. Other measures are left out."""
    out = {}
    for m in measures:
        if not is_choice(m):
            continue
        _rule, q = parse(m)
        if not all(hasattr(gen, a) for a in ("mu", "slope", "cut")):
            out[m] = (math.nan, math.nan)
            continue
        out[m] = tuple(youden_point(gen.mu[k], gen.slope[k], gen.cut[k])[q]
                       for k in (0, 1))
    return out


def sample_values(y: np.ndarray, s_a: np.ndarray, s_b: np.ndarray,
                  measures: Sequence[str]) -> np.ndarray:
    """(len(measures), 3): each best_threshold row on one sample for a, b and a − b
    (best_threshold without an interval)."""
    import measurelab as ml

    rows = {}
    for k, s in enumerate((s_a, s_b)):
        for rule in dict.fromkeys(parse(m)[0] for m in measures):
            b = ml.best_threshold(y, s, rule)
            got = {"threshold": b.threshold, "sens": b.sens, "spec": b.spec,
                   rule: float(b.value)}
            for q, v in got.items():
                rows[(k, f"{PREFIX}{rule}.{q}")] = float(v)
    va = np.array([rows[(0, m)] for m in measures])
    vb = np.array([rows[(1, m)] for m in measures])
    return np.column_stack([va, vb, va - vb])


def intervals(y: np.ndarray, scores: dict[str, np.ndarray], measures: Sequence[str], *,
              level: float, n_boot: int, seed: int, stratify: bool
              ) -> list[tuple[str, str, str, float, float, float]]:
    """The intervals of one simulated test set: (model, measure, method, value, lo, hi)
    for each model and each of ``measures`` (study names), from
    ``best_threshold(y, s, rule, ci=level)`` with the cases resampled as the design
    resamples them."""
    import measurelab as ml

    out = []
    for model, s in scores.items():
        for rule in dict.fromkeys(parse(m)[0] for m in measures):
            b = ml.best_threshold(y, s, rule, ci=level, n_boot=n_boot, random_state=seed,
                                  stratify=stratify, progress=False)
            t = b.intervals().set_index("quantity")
            for m in measures:
                r, q = parse(m)
                if r == rule:
                    row = t.loc[q]
                    out.append((model, m, str(row["method"]), float(row["value"]),
                                float(row["lo"]), float(row["hi"])))
    return out
