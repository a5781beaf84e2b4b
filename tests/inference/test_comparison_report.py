"""The comparison report's ROC and PR points come from measurelab.curves and equal the
points the report computed itself before (its own formulas, kept here as the reference)."""

from __future__ import annotations

import numpy as np
import pytest

from measurelab.curves import precision_recall_curve, roc_curve
from measurelab.inference.classifiers._report import _pr_points, _roc_points
from measurelab.stats.scoretable import ScoreTable


def _old_roc_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """The report's own ROC points before they came from measurelab.curves."""
    fpr = np.concatenate([[0.0], t.cum_neg_desc / t.n_neg])
    tpr = np.concatenate([[0.0], t.cum_pos_desc / t.n_pos])
    return fpr, tpr


def _old_pr_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """The report's own PR points before they came from measurelab.curves."""
    tp, fp = t.cum_pos_desc, t.cum_neg_desc
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = tp / (tp + fp)
    rec = tp / t.n_pos
    return np.concatenate([[0.0], rec]), np.concatenate([prec[:1], prec])


def _table(rng: np.random.Generator, weights: str) -> ScoreTable:
    n = int(rng.integers(5, 300))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    y[:2] = True, False
    s = np.round(rng.random(n) + y * rng.uniform(0, 1), int(rng.integers(1, 4)))
    w = {"none": None, "whole": rng.integers(1, 4, n).astype(float),
         "real": rng.uniform(0.1, 3, n), "zeros": rng.integers(0, 4, n).astype(float)}[weights]
    if w is not None:
        w[:2] = 1.0
    return ScoreTable.from_arrays(y, s, w)


@pytest.mark.parametrize("seed", range(20))
def test_points_equal_the_reports_own_for_whole_counts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for weights in ("none", "whole"):
        t = _table(rng, weights)
        for new, old in ((_roc_points(t), _old_roc_points(t)),
                         (_pr_points(t), _old_pr_points(t))):
            for a, b in zip(new, old, strict=True):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", range(10))
def test_points_with_real_weights_equal_up_to_rounding(seed: int) -> None:
    """Rates are divided by the last running sum (exactly 1 at the end) instead of the
    pairwise total: the same to the last bits."""
    t = _table(np.random.default_rng(seed), "real")
    for new, old in ((_roc_points(t), _old_roc_points(t)), (_pr_points(t), _old_pr_points(t))):
        for a, b in zip(new, old, strict=True):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-14)
    assert _roc_points(t)[0][-1] == _roc_points(t)[1][-1] == _pr_points(t)[0][-1] == 1.0


@pytest.mark.parametrize("seed", range(10))
def test_scores_without_weight_add_no_point(seed: int) -> None:
    """Distinct scores of weight zero (a bootstrap replicate's undrawn cases) repeated the
    previous vertex; they are left out, and a top score without weight no longer gives
    the PR curve a NaN start."""
    t = _table(np.random.default_rng(seed), "zeros")
    for new, old in ((_roc_points(t), _old_roc_points(t)), (_pr_points(t), _old_pr_points(t))):
        old = np.stack(old)[:, 1:]
        keep = (t.pos + t.neg)[::-1] > 0
        np.testing.assert_array_equal(np.stack(new)[:, 1:], old[:, keep])
    top = ScoreTable(np.array([0.2, 0.5, 0.9]), np.array([1.0, 1.0, 0.0]),
                     np.array([1.0, 0.0, 0.0]))
    rec, prec = _pr_points(top)
    assert rec.tolist() == [0.0, 0.5, 1.0] and prec.tolist() == [1.0, 1.0, 2 / 3]


def test_points_are_the_curves_points() -> None:
    t = ScoreTable.from_arrays([0, 1, 1, 0, 1], [0.9, 0.8, 0.8, 0.3, 0.1])
    fpr, tpr, _ = roc_curve(t)
    precision, recall, _ = precision_recall_curve(t)
    assert [x.tolist() for x in _roc_points(t)] == [fpr.tolist(), tpr.tolist()]
    rec, prec = _pr_points(t)
    assert rec.tolist() == recall[::-1].tolist()
    assert prec[1:].tolist() == precision[::-1][1:].tolist() and prec[0] == prec[1] == 0.0
