"""Reading multi-label prediction files: L true-label columns and, per model, L score
columns of one CSV or Parquet file (``measurelab evaluate/versus --label-cols
--score-cols``).

Examples
--------
>>> import io
>>> data = b"a,b,pa,pb,qa,qb\\n1,0,.9,.2,.6,.4\\n0,1,.3,.8,.5,.5\\n"
>>> Y, models, labels, w = read_multilabel(io.BytesIO(data), label_cols=["a", "b"],
...     groups=[("p", ["pa", "pb"]), ("q", ["qa", "qb"])])
>>> Y.tolist(), list(models), models["q"][:, 0].tolist(), labels
([[True, False], [False, True]], ['p', 'q'], [0.6, 0.5], ['a', 'b'])
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.io.multiclass import group_names
from measurelab.io.sources import check_source, detect_format, source_name
from measurelab.stats.labelsets import read_label_scores, read_label_sets


def _columns_of(source: Any, fmt: str) -> tuple[Any, list[str], str]:
    """The source (a stream kept readable again), its column names and its format."""
    import pandas as pd

    kind = detect_format(source, fmt)
    if not isinstance(source, str | bytes) and hasattr(source, "read"):
        source = io.BytesIO(source.read())
        if kind == "auto":
            kind = "parquet" if source.getvalue()[:4] == b"PAR1" else "csv"
    if kind == "parquet":
        import pyarrow.parquet as pq

        cols = list(pq.read_schema(source).names)
    elif kind in ("csv", "auto"):
        kind = "csv"
        cols = [str(c) for c in pd.read_csv(source, nrows=0).columns]
    else:
        raise MeasurelabError(f"{source_name(source)}: --label-cols reads CSV or Parquet "
                              f"files, not {kind}")
    if hasattr(source, "seek"):
        source.seek(0)
    return source, cols, kind


def read_multilabel(source: Any, *, label_cols: list[str],
                    groups: list[tuple[str | None, list[str]]], weight_col: str | None = None,
                    fmt: str = "auto") -> tuple[np.ndarray, dict[str, np.ndarray], list[str],
                                                np.ndarray | None]:
    """The true label sets (n, L), each model's (n, L) scores, the label names (the label
    columns' names) and the weights of a multi-label prediction file.

    A column named but missing from the file is a one-line error naming it and the flag.
    """
    import pandas as pd

    source = check_source(source)
    name = source_name(source)
    if not label_cols:
        raise MeasurelabError("--label-cols names no column; give the L true-label columns")
    if not groups:
        raise MeasurelabError("--score-cols: give each model's L score columns")
    models = group_names(groups)
    source, cols, kind = _columns_of(source, fmt)
    have = set(cols)
    wanted: list[tuple[str, str]] = [(c, "--label-cols") for c in label_cols]
    for (_g, gcols), model in zip(groups, models, strict=True):
        if len(gcols) != len(label_cols):
            raise MeasurelabError(
                f"--score-cols of model {model!r} names {len(gcols)} columns but --label-cols "
                f"names {len(label_cols)}; give one score column per label, in label order")
        wanted += [(c, f"--score-cols of model {model!r}") for c in gcols]
    if weight_col is not None:
        wanted.append((weight_col, "--weight-col"))
    for c, flag in wanted:
        if c not in have:
            shown = ", ".join(cols[:8]) + (", …" if len(cols) > 8 else "")
            raise MeasurelabError(f"{name} has no column {c!r} ({flag}); its columns are "
                                  f"{shown}")
    use = list(dict.fromkeys(c for c, _f in wanted))
    df = (pd.read_parquet(source, columns=use) if kind == "parquet"
          else pd.read_csv(source, usecols=use))
    for c in label_cols:
        v = df[c].to_numpy()
        bad = ~np.isin(v, [0, 1]) if v.dtype.kind in "biuf" else np.ones(v.size, bool)
        if v.dtype == bool:
            bad[:] = False
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise MeasurelabError(f"{name}: column {c!r} (--label-cols) holds {v[i]!r} at "
                                  f"row {i + 1}; a label column holds 0 or 1")
    Y, _labels = read_label_sets(df[label_cols].to_numpy(), None)
    n, L = Y.shape
    scores = {model: read_label_scores(df[gcols].to_numpy(), n, L,
                                       f"--score-cols of model {model!r}")
              for (_g, gcols), model in zip(groups, models, strict=True)}
    w = None if weight_col is None else df[weight_col].to_numpy(dtype=np.float64)
    return Y, scores, list(label_cols), w
