"""One rule for numbers JSON cannot write (NaN → null, ±inf → "inf"/"-inf"), used by every
JSON the library, the command line and the lab write."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import measurelab as ml
from measurelab.jsonable import to_jsonable


def _old_number(x: float) -> float | str | None:
    """The rule that measures.compute, metaeval.consistency and inference.classifiers.binary each
    wrote out before."""
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


VALUES = [0.0, -0.0, 1.5, 1e-300, 0.1 + 0.2, math.nan, math.inf, -math.inf, 3, True]


@pytest.mark.parametrize("x", VALUES)
def test_numbers_as_before(x: float) -> None:
    want = _old_number(float(x))
    assert json.dumps(to_jsonable(float(x)), allow_nan=False) == json.dumps(want)
    assert json.dumps(to_jsonable(np.float64(x))) == json.dumps(want)


def test_containers_numpy_and_the_nan_string() -> None:
    obj = {"a": [1.0, math.nan, math.inf, -math.inf, np.float32(0.1), np.int64(3)],
           1: (np.array([1.5, np.nan]), {"x": np.bool_(True)}), "s": "nan", "n": None}
    assert json.dumps(to_jsonable(obj), allow_nan=False) == (
        '{"a": [1.0, null, "inf", "-inf", 0.10000000149011612, 3], '
        '"1": [[1.5, null], {"x": true}], "s": "nan", "n": null}')
    assert to_jsonable(obj, nan="nan")["a"][1] == "nan"
    assert to_jsonable(np.array([[1, 2]])) == [[1, 2]]


def test_evaluate_to_dict_is_strict_json_with_null_and_inf() -> None:
    d = ml.evaluate([0, 0, 1, 1, 1], [0.1, 0.2, 0.8, 0.9, 0.95],
                    measures=["acc", "lr_pos", "lr_neg"]).to_dict()
    assert json.dumps(d, allow_nan=False) == '{"acc": 1.0, "lr_pos": "inf", "lr_neg": 0.0}'
    with pytest.warns(ml.UndefinedMeasureWarning):
        d = ml.evaluate([1, 1], [0.2, 0.9], measures=["spec", "sens"]).to_dict()
    assert json.dumps(d, allow_nan=False) == '{"spec": null, "sens": 0.5}'
