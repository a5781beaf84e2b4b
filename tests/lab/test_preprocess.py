"""Preprocessing: statistics from the training data only, [0, 1] output, encodings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from measurelab.exceptions import MeasurelabError
from measurelab.io import datasets
from measurelab.lab.preprocess import ONEHOT_VALUE, Preprocessor, encode_labels


def test_fitted_on_training_rows_only():
    train = pd.DataFrame({"num": [1.0, 3.0, None, 5.0], "nom": ["a", "b", "b", None]})
    test = pd.DataFrame({"num": [None, 9.0, -1.0], "nom": [None, "c", "a"]})
    p = Preprocessor().fit(train)
    Z = p.transform(test)
    # median of the training column (3) → (3 − 1)/(5 − 1); beyond the range not clipped
    np.testing.assert_allclose(Z[:, 0], [0.5, 2.0, -0.5])
    # mode 'b' fills the missing nominal; unseen 'c' → all zeros
    np.testing.assert_allclose(Z[:, 1:], [[0, ONEHOT_VALUE], [0, 0], [ONEHOT_VALUE, 0]])
    Zc = Preprocessor(clip=True).fit(train).transform(test)
    assert Zc.min() >= 0 and Zc.max() <= 1


def test_two_different_nominal_values_are_at_distance_one():
    p = Preprocessor().fit(pd.DataFrame({"c": ["x", "y", "z"]}))
    Z = p.transform(pd.DataFrame({"c": ["x", "y"]}))
    assert np.linalg.norm(Z[0] - Z[1]) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["hepatitis", "colic", "soybean", "anneal"])
def test_shipped_data_lands_in_unit_interval_without_nans(name):
    X, y = datasets.load(name)
    Z = Preprocessor().fit_transform(X)
    assert np.isfinite(Z).all()
    assert Z.min() >= 0 and Z.max() <= 1
    assert Z.shape[0] == len(y)
    # independently: numeric columns have min 0 and max 1 unless constant
    p = Preprocessor().fit(X)
    for j, name_j in enumerate(p.feature_names_):
        if name_j in p.numeric_:
            col = Z[:, j]
            assert col.min() == 0.0 and col.max() in (0.0, 1.0)


def test_medians_and_modes_by_pandas():
    X, _ = datasets.load("hepatitis")
    p = Preprocessor().fit(X)
    for col, (med, _, _) in p.numeric_.items():
        assert med == pytest.approx(float(X[col].median()))
    for col, (mode, _) in p.categorical_.items():
        counts = X[col].dropna().astype(str).value_counts()
        assert counts[mode] == counts.max()


def test_errors_and_labels():
    with pytest.raises(MeasurelabError):
        Preprocessor().transform(pd.DataFrame({"a": [1]}))
    p = Preprocessor().fit(pd.DataFrame({"a": [1.0, 2.0]}))
    with pytest.raises(MeasurelabError):
        p.transform(pd.DataFrame({"b": [1.0]}))
    codes, labels = encode_labels(pd.Series(["y", "x", "y"]))
    assert codes.tolist() == [1, 0, 1] and labels.tolist() == ["x", "y"]
