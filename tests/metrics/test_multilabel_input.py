"""Multi-label input to evaluate: every accepted form gives the same values (scikit-learn's),
and bad input is one clear line naming the value and where it is."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn import metrics as skm

import measurelab as ml
from measurelab.exceptions import MeasurelabError

NAMES = ["f1", "subset_acc", "hamming_loss", "auc", "lrap"]


def data(n=50, L=4, seed=0):
    rng = np.random.default_rng(seed)
    Y = rng.random((n, L)) < 0.4
    Y[:, 0] |= Y.sum(axis=1) == 0   # every case has a label (and every label a case)
    S = np.clip(0.4 * Y + 0.7 * rng.random((n, L)), 0, 1)
    return Y, S


def values(Y, S, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dict(ml.evaluate(Y, S, measures=NAMES, **kw))


def test_forms_of_input_agree_and_equal_sklearn():
    Y, S = data()
    base = values(Y.astype(int), S)
    assert base["f1"] == pytest.approx(skm.f1_score(Y, S > 0.5, average="macro"), abs=1e-12)
    assert base["auc"] == pytest.approx(skm.roc_auc_score(Y, S), abs=1e-12)
    cols = ["w", "x", "y", "z"]
    forms = [
        (Y, S),
        (pd.DataFrame(Y.astype(int), columns=cols), pd.DataFrame(S, columns=cols)),
        (sp.csr_matrix(Y.astype(int)), sp.csr_matrix(S)),
        ([{c for c, yes in zip(cols, row, strict=True) if yes} for row in Y], S),
        (Y, [np.stack([1 - S[:, j], S[:, j]], axis=1) for j in range(4)]),  # predict_proba
    ]
    for y, s in forms:
        got = values(y, s, labels=cols) if isinstance(y, list) else values(y, s)
        for k in NAMES:
            assert got[k] == pytest.approx(base[k], abs=1e-12), k


def test_label_names_from_frame_and_sets():
    Y, S = data()
    cols = ["w", "x", "y", "z"]
    r = ml.evaluate(pd.DataFrame(Y, columns=cols), S, measures=["f1"], average=None)
    assert r.classes == tuple(cols)
    assert list(r.to_dict()["f1"]) == cols
    sets = [{c for c, yes in zip(cols, row, strict=True) if yes} for row in Y]
    assert ml.evaluate(sets, S, measures=["f1"], average=None).classes == tuple(cols)


def test_zero_one_predictions_and_threshold_per_label():
    Y, S = data()
    P = (S > 0.5).astype(int)
    assert values(Y, P)["f1"] == pytest.approx(values(Y, S)["f1"], abs=0)
    thr = [0.2, 0.4, 0.6, 0.8]
    got = ml.evaluate(Y, S, measures=["f1"], threshold=thr, average=None)["f1"]
    np.testing.assert_allclose(got, skm.f1_score(Y, S > np.array(thr), average=None),
                               atol=1e-12)


def test_repr_states_multilabel():
    Y, S = data()
    r = ml.evaluate(Y, S, measures=["subset_acc"])
    assert repr(r).startswith("EvaluationResult(multi-label, 4 labels: subset_acc=")


def test_default_measures_cover_the_list():
    Y, S = data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.evaluate(Y, S)
    assert set(r) == {"hamming_loss", "subset_acc", "jaccard", "prec", "sens", "f1", "acc",
                      "auc", "ap", "lrap", "coverage_error", "ranking_loss"}


@pytest.mark.parametrize("y, s, message", [
    (np.array([[0, 1], [2, 0]]), np.zeros((2, 2)),
     "y_true must be a 0/1 indicator matrix (one column per label); got 2 at row 2, "
     "column 1"),
    (np.array([[0, 1], [1, 0]]), np.zeros((2, 3)),
     "y_score has 3 columns but y_true has 2 labels; expected an (n, L) = (2, 2) matrix of "
     "per-label scores"),
    (np.array([[0, 1], [1, 0]]), np.zeros(2),
     "y_score must be an (n, L) = (2, 2) matrix of per-label scores for multi-label y_true, "
     "got shape (2,)"),
    (np.array([[0, 1], [1, 0]]), np.array([[0.1, np.nan], [0.2, 0.3]]),
     "y_score must be finite, got nan at row 1, column 2"),
    ([{"a"}, {"c"}], np.zeros((2, 2)),
     "y_true holds the label 'c' (case 2), which is not one of labels ['a', 'b']"),
])
def test_bad_input_is_one_clear_line(y, s, message):
    kw = {"labels": ["a", "b"]} if isinstance(y, list) else {}
    with pytest.raises(MeasurelabError) as e:
        ml.evaluate(y, s, **kw)
    assert str(e.value) == message
    assert "\n" not in str(e.value)


def test_bad_average_and_threshold():
    Y, S = data()
    with pytest.raises(MeasurelabError, match="average='binary' is not valid for multi-label"):
        ml.evaluate(Y, S, average="binary")
    with pytest.raises(MeasurelabError, match=r"one per label \(4\)"):
        ml.evaluate(Y, S, threshold=[0.5, 0.5])


def test_compare_unpaired_refuses_one_multilabel_test_set_in_one_line():
    Y, S = data()
    with pytest.raises(MeasurelabError, match=r"^y_a is multi-label \(a 2-d indicator\) but "
                                              r"y_b is not; give both test sets"):
        ml.compare_unpaired(Y, S, Y[:, 0], S[:, 0])
