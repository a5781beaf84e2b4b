"""Values as strict JSON: the one rule for numbers JSON cannot write.

Strict JSON (``json.dumps(..., allow_nan=False)``) has no NaN or infinity. Everywhere
measurelab writes JSON (``EvaluationResult.to_dict``, ``ClassifierComparison.to_json``,
``ConsistencyResult.to_dict``, ``measurelab evaluate --json``, the lab's caches) an
undefined value (NaN) becomes ``None`` (JSON ``null``) and an infinity the string
``"inf"`` or ``"-inf"``; numpy scalars and arrays become Python numbers and lists.

Examples
--------
>>> import json, math
>>> import numpy as np
>>> json.dumps(to_jsonable({"auc": 0.5, "lr_pos": math.inf, "mcc": math.nan}))
'{"auc": 0.5, "lr_pos": "inf", "mcc": null}'
>>> to_jsonable(np.array([1.5, -np.inf]))
[1.5, '-inf']
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["to_jsonable"]


def to_jsonable(obj: Any, *, nan: Any = None) -> Any:
    """``obj`` with every value strict JSON can write, recursively.

    Parameters
    ----------
    obj : a number, string, None, numpy scalar or array, or a dict, list or tuple of them
    nan : what NaN becomes; default ``None`` (JSON ``null``, "undefined"). A store that
        reads its values back may choose the string ``"nan"``.

    Returns
    -------
    object
        NaN → ``nan``; +inf → ``"inf"``; −inf → ``"-inf"``; a numpy scalar → the Python
        number (or bool); an array or tuple → a list; a dict → a dict with string keys;
        anything else unchanged. Finite floats are kept as they are (``json`` writes them
        with the shortest repr that reads back exactly).

    Examples
    --------
    >>> to_jsonable([np.float64(0.25), np.int64(3), (float("nan"), "x")])
    [0.25, 3, [None, 'x']]
    >>> to_jsonable({1: float("nan")}, nan="nan")
    {'1': 'nan'}
    """
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v, nan=nan) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_jsonable(v, nan=nan) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist(), nan=nan)
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        if math.isnan(obj):
            return nan
        return "inf" if obj > 0 else "-inf"
    return obj
