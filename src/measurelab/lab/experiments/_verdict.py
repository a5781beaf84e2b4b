"""Verdicts on a paper's claims, computed by stated rules and printed with the rule.

A reproduction never writes "the claim holds" as fixed text: it calls one of the rules
below with the outcome of the *same statistical test the paper used*, and prints the
returned :class:`Verdict` (label, the rule that decided it, the evidence). Three labels:

``holds``
    our test agrees with the paper in direction **and** significance;
``holds in part``
    the direction agrees but the significance does not (or the evidence is mixed in the
    sense each rule states);
``not supported``
    the direction is opposite (or absent), or the test is significant the other way.

The rules (α = 0.05 unless given):

* :func:`directional` — claim "a > b", one test (e.g. a paired t-test): holds when
  mean(a − b) > 0 and p < α; in part when mean(a − b) > 0 and p ≥ α; not supported
  when mean(a − b) ≤ 0.
* :func:`similarity` — claim "a and b do not differ", one test: holds when p ≥ α; not
  supported when p < α (a single test has no middle outcome).
* :func:`count_directional` — claim "a better than b" over data sets, from per-set
  win/draw/loss of the paper's per-set test: holds when wins > losses and the two-sided
  sign test of wins against losses has p < α; in part when wins > losses with sign-test
  p ≥ α; not supported when wins ≤ losses (all draws included).
* :func:`count_similarity` — claim "a and b are similar" over data sets: with w + l
  significant results of n, holds when P(X ≥ w + l), X ~ Binomial(n, α), is ≥ α (no
  more significant differences than chance gives at level α); otherwise in part when the
  sign test of w against l has p ≥ α (differences in both directions, no systematic
  winner), not supported when it has p < α (one model systematically better).
* :func:`all_of` — a claim made of parts: holds when every part holds, not supported
  when every part is not supported, otherwise in part.

Explanations of a difference are claims too: :func:`explain` prints each candidate
explanation with the computed check that supports or refutes it, and says "unexplained"
when no check supports any candidate.

Examples
--------
>>> v = count_directional(8, 11, 1)        # Huang & Ling Table 8, by their own counts
>>> v.label, round(v.p, 4)
('holds', 0.0391)
>>> count_directional(0, 20, 0).label
'not supported'
>>> print(directional(0.012, 0.20, what="AUC:acc > AUC"))
holds in part — AUC:acc > AUC: mean difference +0.012, p = 0.2 (rule: holds when the mean \
difference is in the claimed direction and p < 0.05; in part when in the claimed \
direction with p ≥ 0.05; not supported when in the other direction or zero)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from measurelab.exceptions import MeasurelabError

HOLDS = "holds"
IN_PART = "holds in part"
NOT_SUPPORTED = "not supported"
LABELS = (HOLDS, IN_PART, NOT_SUPPORTED)

RULE_DIRECTIONAL = (
    "holds when the mean difference is in the claimed direction and p < {alpha:g}; in part "
    "when in the claimed direction with p ≥ {alpha:g}; not supported when in the other "
    "direction or zero"
)
RULE_SIMILARITY = ("holds when p ≥ {alpha:g} (no significant difference); not supported when "
                   "p < {alpha:g}")
RULE_COUNT_DIRECTIONAL = (
    "holds when wins > losses and the two-sided sign test of wins vs losses has "
    "p < {alpha:g}; in part when wins > losses with p ≥ {alpha:g}; not supported when "
    "wins ≤ losses"
)
RULE_COUNT_SIMILARITY = (
    "holds when the number of significant per-set differences is no more than chance at "
    "level {alpha:g} gives (P(X ≥ w + l) ≥ {alpha:g}, X ~ Binomial(n, {alpha:g})); otherwise "
    "in part when the sign test of w vs l has p ≥ {alpha:g} (no systematic winner), not "
    "supported when p < {alpha:g} (one side systematically better)"
)
RULE_ALL_OF = ("holds when every part holds; not supported when every part is not "
               "supported; otherwise in part")


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict: ``label`` (one of :data:`LABELS`), the ``rule`` that decided
    it, the ``evidence`` (numbers), and the deciding p-value ``p`` (NaN if none)."""

    label: str
    rule: str
    evidence: str
    p: float = math.nan

    def __str__(self) -> str:
        return f"{self.label} — {self.evidence} (rule: {self.rule})"

    @property
    def holds(self) -> bool:
        return self.label == HOLDS


def _check_alpha(alpha: float) -> float:
    if not 0 < alpha < 1:
        raise MeasurelabError(f"alpha={alpha!r} is not valid; expected 0 < alpha < 1")
    return float(alpha)


def _check_counts(wins: int, draws: int, losses: int) -> tuple[int, int, int]:
    vals = (wins, draws, losses)
    if any(int(v) != v or v < 0 for v in vals):
        raise MeasurelabError(f"win/draw/loss counts must be integers >= 0, got {vals}")
    return int(wins), int(draws), int(losses)


def sign_test_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test of ``wins`` against ``losses`` (ties dropped), p = 1
    when both are 0.

    Examples
    --------
    >>> round(sign_test_p(8, 1), 4), sign_test_p(0, 0), sign_test_p(3, 3)
    (0.0391, 1.0, 1.0)
    """
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def binomial_upper_p(k: int, n: int, rate: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, rate).

    Examples
    --------
    >>> binomial_upper_p(0, 13, 0.05), round(binomial_upper_p(2, 13, 0.05), 4)
    (1.0, 0.1354)
    """
    from fractions import Fraction

    if k <= 0:
        return 1.0
    r = Fraction(str(rate))  # exact decimal: sums of terms do not round
    return float(sum(math.comb(n, i) * r**i * (1 - r) ** (n - i) for i in range(k, n + 1)))


def directional(mean_diff: float, pvalue: float, *, alpha: float = 0.05,
                what: str = "claim") -> Verdict:
    """Claim "a > b" judged by one test giving mean(a − b) and a two-sided p-value.

    Examples
    --------
    >>> [directional(d, p).label for d, p in ((0.02, 0.01), (0.02, 0.3), (-0.02, 0.01))]
    ['holds', 'holds in part', 'not supported']
    """
    alpha = _check_alpha(alpha)
    d, p = float(mean_diff), float(pvalue)
    if not d > 0:
        label = NOT_SUPPORTED
    elif p < alpha:
        label = HOLDS
    else:
        label = IN_PART
    return Verdict(label, RULE_DIRECTIONAL.format(alpha=alpha),
                   f"{what}: mean difference {d:+.3g}, p = {p:.3g}", p)


def similarity(mean_diff: float, pvalue: float, *, alpha: float = 0.05,
               what: str = "claim") -> Verdict:
    """Claim "a and b do not differ" judged by one test.

    Examples
    --------
    >>> similarity(0.001, 0.6).label, similarity(0.03, 0.001).label
    ('holds', 'not supported')
    """
    alpha = _check_alpha(alpha)
    d, p = float(mean_diff), float(pvalue)
    label = HOLDS if p >= alpha or math.isnan(p) else NOT_SUPPORTED
    return Verdict(label, RULE_SIMILARITY.format(alpha=alpha),
                   f"{what}: mean difference {d:+.3g}, p = {p:.3g}", p)


def count_directional(wins: int, draws: int, losses: int, *, alpha: float = 0.05,
                      what: str = "claim") -> Verdict:
    """Claim "a better than b" over data sets from per-set win/draw/loss counts.

    Examples
    --------
    >>> [count_directional(*c).label for c in ((9, 4, 0), (3, 10, 0), (1, 10, 2))]
    ['holds', 'holds in part', 'not supported']
    """
    alpha = _check_alpha(alpha)
    w, d, lo = _check_counts(wins, draws, losses)
    p = sign_test_p(w, lo)
    if w <= lo:
        label = NOT_SUPPORTED
    elif p < alpha:
        label = HOLDS
    else:
        label = IN_PART
    return Verdict(label, RULE_COUNT_DIRECTIONAL.format(alpha=alpha),
                   f"{what}: win-draw-loss {w}-{d}-{lo}, sign test p = {p:.3g}", p)


def count_similarity(wins: int, draws: int, losses: int, *, alpha: float = 0.05,
                     what: str = "claim") -> Verdict:
    """Claim "a and b are similar" over data sets from per-set win/draw/loss counts.

    Examples
    --------
    >>> [count_similarity(*c).label for c in ((1, 12, 0), (4, 5, 4), (8, 5, 0))]
    ['holds', 'holds in part', 'not supported']
    """
    alpha = _check_alpha(alpha)
    w, d, lo = _check_counts(wins, draws, losses)
    n = w + d + lo
    p_excess = binomial_upper_p(w + lo, n, alpha)
    p_sign = sign_test_p(w, lo)
    if p_excess >= alpha:
        label, p = HOLDS, p_excess
    elif p_sign >= alpha:
        label, p = IN_PART, p_sign
    else:
        label, p = NOT_SUPPORTED, p_sign
    return Verdict(
        label, RULE_COUNT_SIMILARITY.format(alpha=alpha),
        f"{what}: win-draw-loss {w}-{d}-{lo}; {w + lo} of {n} significant, "
        f"P(≥ {w + lo} by chance) = {p_excess:.3g}; sign test p = {p_sign:.3g}", p)


def all_of(parts: Sequence[Verdict], *, what: str = "claim") -> Verdict:
    """Combine the verdicts of a claim's parts.

    Examples
    --------
    >>> h, n = count_directional(9, 4, 0), count_directional(0, 13, 0)
    >>> all_of([h, h]).label, all_of([h, n]).label, all_of([n, n]).label
    ('holds', 'holds in part', 'not supported')
    """
    if not parts:
        raise MeasurelabError("all_of needs at least one verdict, got none")
    labels = [v.label for v in parts]
    if all(lab == HOLDS for lab in labels):
        label = HOLDS
    elif all(lab == NOT_SUPPORTED for lab in labels):
        label = NOT_SUPPORTED
    else:
        label = IN_PART
    return Verdict(label, RULE_ALL_OF, f"{what}: parts " + ", ".join(labels))


@dataclass(frozen=True)
class Check:
    """A candidate explanation of a difference and the computed check that decides it.

    ``supports`` is True when the check's result supports the explanation, False when
    it refutes it; ``result`` states the computed numbers.
    """

    explanation: str
    check: str
    result: str
    supports: bool


def explain(checks: Sequence[Check]) -> str:
    """One paragraph: each candidate explanation with its check and outcome, then what
    the checks support — or "unexplained" when none does.

    Examples
    --------
    >>> c = Check("n differs", "rerun at n = 20, 50", "gap unchanged", False)
    >>> explain([c])
    'Candidate explanations, each with its computed check: n differs — refuted (check: \
rerun at n = 20, 50; result: gap unchanged). The difference is unexplained: no check \
supports a candidate.'
    """
    parts = [f"{c.explanation} — {'supported' if c.supports else 'refuted'} "
             f"(check: {c.check}; result: {c.result})" for c in checks]
    text = "Candidate explanations, each with its computed check: " + "; ".join(parts) + "."
    good = [c.explanation for c in checks if c.supports]
    if good:
        text += " Supported by its check: " + "; ".join(good) + "."
    else:
        text += " The difference is unexplained: no check supports a candidate."
    return text
