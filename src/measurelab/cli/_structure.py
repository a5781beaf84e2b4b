"""``--group-col`` and ``--by-col`` of ``measurelab evaluate`` and ``measurelab versus``
(issue 31): a column of cluster ids (the intervals and tests then account for the clusters)
and a column of subgroup labels (per-group values, the largest gaps and the fairness gaps).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError


def add_structure_arguments(p: argparse.ArgumentParser) -> None:
    """The two options (binary models from a file; with intervals)."""
    p.add_argument("--group-col", metavar="NAME",
                   help="column of cluster ids (e.g. the patient of each image): the "
                        "bootstrap resamples clusters, AUC uses the clustered DeLong")
    p.add_argument("--by-col", metavar="NAME",
                   help="column of subgroup labels: per-group values with intervals, the "
                        "largest gap per measure and the fairness gaps")


def read_structure(args: argparse.Namespace, n: int) -> dict[str, Any]:
    """``groups`` and ``by`` for :func:`~measurelab.compare_classifiers` from the file's
    columns (``{}`` when neither option is given); a one-line error otherwise."""
    cols = {"groups": getattr(args, "group_col", None), "by": getattr(args, "by_col", None)}
    if all(c is None for c in cols.values()):
        return {}
    flags = " and ".join(f for f, c in (("--group-col", cols["groups"]),
                                         ("--by-col", cols["by"])) if c is not None)
    if getattr(args, "level", None) is None:
        raise MeasurelabError(f"{flags} need intervals: add --ci 0.95")
    if getattr(args, "proba_cols", None) is not None:
        raise MeasurelabError(f"{flags} apply to binary models (--score-col) only so far")
    if args.file == "-":
        raise MeasurelabError(f"{flags} need a FILE; standard input is read once")
    import pandas as pd

    from measurelab.io import detect_format

    names = [c for c in cols.values() if c is not None]
    fmt = detect_format(args.file, args.fmt)
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            have = pq.read_schema(args.file).names
            missing = [c for c in names if c not in have]
            frame = None if missing else pd.read_parquet(args.file, columns=names)
        elif fmt == "csv":
            head = pd.read_csv(args.file, nrows=0)
            missing = [c for c in names if c not in head.columns]
            frame = None if missing else pd.read_csv(args.file, usecols=names,
                                                     dtype={c: str for c in names},
                                                     keep_default_na=False)
        else:
            raise MeasurelabError(f"{flags} need a CSV or Parquet file, got {fmt} input")
    except (OSError, ValueError) as e:
        raise MeasurelabError(f"{args.file}: cannot read {flags}: {e}") from None
    if missing:
        raise MeasurelabError(f"{args.file} has no column {missing[0]!r} (asked by "
                              f"{flags})")
    assert frame is not None  # read when no column is missing
    out = {}
    for key, c in cols.items():
        if c is None:
            continue
        v = frame[c].to_numpy()
        if v.dtype == object:
            empty = np.flatnonzero(np.array([str(x).strip() == "" for x in v]))
            if empty.size:
                raise MeasurelabError(f"column {c!r} is empty at row {int(empty[0]) + 1}; "
                                      "every case needs an id")
        if v.size != n:
            raise MeasurelabError(f"column {c!r} has {v.size} rows but the file has {n} "
                                  "cases")
        out[key] = v
    return out


def format_structure(r: Any) -> str:
    """Plain-text tables of the subgroups of a comparison (empty without ``by``)."""
    if getattr(r, "groups", None) is None or r.level is None:
        return ""
    fmt = {"float_format": lambda v: f"{v:.4g}"}
    return "\n".join(["", "", f"per group ({round(100 * r.level)}%):",
                      r.by_group().to_string(index=False, **fmt), "",
                      "largest gap between groups (p: every group alike; Holm over rows):",
                      r.gaps().to_string(index=False, **fmt)])
