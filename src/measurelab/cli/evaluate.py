"""``measurelab evaluate``: evaluate a prediction file, or a confusion matrix given as counts.

Examples (shell)::

    measurelab evaluate preds.txt                      # perf-style 'target prediction' lines
    measurelab evaluate preds.csv --label-col y --score-col p --measures auc,apr,f_beta@2
    measurelab evaluate parts/ --scheduler tcp://host:8786 --json   # partitioned Parquet
    cat preds.txt | measurelab evaluate - --json
    measurelab evaluate --counts 1242 390 189 740
    measurelab evaluate iris.csv --label-col y --proba-cols p_setosa,p_versicolor,p_virginica \
        --average none --json                          # k classes: {measure: {class: value}}
    measurelab evaluate preds.csv --score-col lr --score-col gb --ci 0.95 --html cmp.html
    measurelab evaluate iris.csv --label-col y --proba-cols lr=lr_0,lr_1,lr_2 \
        --proba-cols rf=rf_0,rf_1,rf_2 --ci 0.95 --json  # compare k-class models
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from typing import Any

import numpy as np

from measurelab.cli._models import (
    add_arguments,
    check_common,
    parse_pos_label,
    run_models,
    wanted,
)
from measurelab.cli._multilabel import (
    add_multilabel_arguments,
    run_multilabel,
    wanted_multilabel,
)
from measurelab.cli._options import int_type, real_type, text_type
from measurelab.exceptions import MeasurelabError
from measurelab.io import DEFAULT_CHUNK_ROWS, FORMATS, MAX_CHUNK_ROWS

_column = text_type("a column name")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "evaluate",
        help="evaluate predictions in a file (or confusion counts)",
        description=(
            "Evaluate binary predictions (or k-class probabilities: --proba-cols) with every "
            "applicable measure (or --measures). "
            "FILE is perf-style text ('target prediction' per line), CSV with a header, "
            "or Parquet (a file or a directory of parts); '-' reads standard input. "
            "The file is read in chunks, so there is no limit on the number of rows."
        ),
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="prediction file, or - for stdin")
    p.add_argument("--counts", nargs=4, metavar=("TP", "FP", "FN", "TN"),
                   help="evaluate every threshold measure from a binary confusion matrix")
    p.add_argument("--measures", metavar="A,B,...",
                   help="comma-separated measure names (e.g. auc,apr,f_beta@2,lift@0.1,"
                        "auc:acc); default: every measure that applies")
    p.add_argument("--threshold", type=real_type(finite=False), default=0.5, metavar="T",
                   help="a case is predicted positive iff score > T (default 0.5)")
    p.add_argument("--inclusive", action="store_true",
                   help="predict positive iff score >= T (as Caruana's perf does)")
    p.add_argument("--pos-label", default="1", metavar="LABEL",
                   help="label of the positive class (default 1)")
    p.add_argument("--format", dest="fmt", choices=FORMATS, default="auto",
                   help="input format (default: from the file name; stdin: CSV if the "
                        "first line has a comma, else perf text)")
    p.add_argument("--label-col", metavar="NAME", type=_column,
                   help="CSV/Parquet column of the labels")
    p.add_argument("--score-col", metavar="NAME", type=_column, action="append",
                   help="CSV/Parquet column of the scores; repeat it to compare several "
                        "models on the same cases")
    p.add_argument("--weight-col", metavar="NAME", type=_column,
                   help="CSV/Parquet column of sample weights (non-negative)")
    p.add_argument("--chunk-rows", type=int_type(maximum=MAX_CHUNK_ROWS),
                   default=DEFAULT_CHUNK_ROWS, metavar="N",
                   help=f"rows read at a time (default {DEFAULT_CHUNK_ROWS})")
    p.add_argument("--proba-cols", metavar="[NAME=]C1,C2,...", action="append",
                   help="multi-class input: one probability column per class (CSV/Parquet); "
                        "the class names are the column names (or --classes). Repeat it to "
                        "compare several models, one column group each, named NAME= or by "
                        "the text their columns share (lr_a,lr_b,lr_c: lr)")
    p.add_argument("--classes", metavar="A,B,...",
                   help="class names of the --proba-cols columns, in the same order")
    p.add_argument("--average", choices=["macro", "weighted", "micro", "samples", "none"],
                   default="macro",
                   help="how per-class values combine for multi-class input (default macro); "
                        "none: per-class values, JSON {class: value}")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   type=text_type("an address such as tcp://host:8786"),
                   help="evaluate a partitioned Parquet data set on a Dask cluster")
    p.add_argument("--json", action="store_true", help="print one JSON object {name: value}")
    add_multilabel_arguments(p)
    add_arguments(p)  # --ci, --html, --n-boot, --seed, --ci-method

    p.add_argument("--no-progress", action="store_true",
                   help="no progress reports (reading a large file; with --ci or several "
                        "models, the comparison's bootstrap and calibration test)")
    return p


def _parse_measures(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [m.strip() for m in text.split(",") if m.strip()]
    if not names:
        raise MeasurelabError("--measures is empty; give names such as auc,acc")
    return names


def _parse_count(name: str, text: str) -> int | float:
    """A count as typed: digits give an exact integer of any size; a decimal or exponent
    form must be finite, non-negative and, if whole, below 2**53 (else give the digits)."""
    from measurelab._util.validation import check_count, parse_number, quote

    t = text.strip()
    if t.isascii() and t.isdigit():
        return int(t)
    v = parse_number(t)
    if v is None:
        raise MeasurelabError(f"--counts: {name} must be a number, got {quote(text)}")
    try:
        return check_count(v, name)
    except MeasurelabError as exc:
        raise MeasurelabError(f"--counts: {exc}") from None


def _evaluate(args: argparse.Namespace, measures: list[str] | None) -> Any:
    if args.counts is not None:
        if args.file is not None:
            raise MeasurelabError("give either FILE or --counts, not both")
        from measurelab.metrics.evaluation import evaluate_counts

        tp, fp, fn, tn = (_parse_count(n, v) for n, v in
                          zip(("TP", "FP", "FN", "TN"), args.counts, strict=True))
        return evaluate_counts(tp=tp, fp=fp, fn=fn, tn=tn, measures=measures)
    if args.file is None:
        raise MeasurelabError("give a FILE to evaluate ('-' for standard input) or --counts")
    if args.chunk_rows < 1:
        raise MeasurelabError(f"--chunk-rows must be at least 1, got {args.chunk_rows}")
    if args.proba_cols is not None or args.classes is not None:
        return _evaluate_multi(args, measures)
    if args.average != "macro":
        raise MeasurelabError(
            "--average applies to multi-class input (--proba-cols); binary measures are "
            "about --pos-label (per-class values of a binary file: ml.per_class)"
        )
    if args.scheduler is not None:
        return _evaluate_distributed(args, measures)
    from measurelab.io import evaluate_file

    return evaluate_file(
        args.file,
        measures=measures,
        threshold=args.threshold,
        pos_label=parse_pos_label(args.pos_label),
        inclusive=args.inclusive,
        fmt=args.fmt,
        label_col=args.label_col,
        score_col=args.score_col,
        weight_col=args.weight_col,
        chunk_rows=args.chunk_rows,
        progress=not args.no_progress,
    )


def _evaluate_distributed(args: argparse.Namespace, measures: list[str] | None) -> Any:
    try:
        from measurelab.io.distributed import evaluate_parquet
    except ImportError as exc:
        raise MeasurelabError(
            f"distributed evaluation is unavailable in this installation ({exc}); "
            "run without --scheduler"
        ) from None
    if args.fmt not in ("auto", "parquet") or args.file == "-":
        raise MeasurelabError("--scheduler evaluates Parquet data sets (a file or a folder)")
    from measurelab.io import parquet_columns

    label_col, score_col, weight_col = parquet_columns(
        args.file, args.label_col, args.score_col, args.weight_col
    )
    return evaluate_parquet(
        args.file,
        scheduler=args.scheduler,
        label_col=label_col,
        score_col=score_col,
        weight_col=weight_col,
        measures=measures,
        threshold=args.threshold,
        pos_label=parse_pos_label(args.pos_label),
        inclusive=args.inclusive,
    )


def _evaluate_multi(args: argparse.Namespace, measures: list[str] | None) -> Any:
    """k-class probability columns (--proba-cols), read in chunks or on a Dask cluster."""
    from measurelab.io import parse_names, parse_proba_groups

    if args.proba_cols is None:
        raise MeasurelabError("--classes needs --proba-cols (one probability column per class)")
    proba_cols = parse_proba_groups(args.proba_cols)[0][1]
    if args.score_col is not None:
        raise MeasurelabError("give either --score-col (binary) or --proba-cols (k classes)")
    classes = parse_names(args.classes, "--classes")
    for flag, given in (("--threshold", args.threshold != 0.5), ("--inclusive", args.inclusive),
                        ("--pos-label", args.pos_label != "1")):
        if given:
            raise MeasurelabError(
                f"{flag} does not apply to --proba-cols: the predicted class is the arg-max "
                "column"
            )
    average = None if args.average == "none" else args.average
    if args.scheduler is not None:
        if args.fmt not in ("auto", "parquet") or args.file == "-":
            raise MeasurelabError("--scheduler evaluates Parquet data sets (a file or a folder)")
        try:
            from measurelab.io.distributed import evaluate_parquet_multi
        except ImportError as exc:
            raise MeasurelabError(
                f"distributed evaluation is unavailable in this installation ({exc}); "
                "run without --scheduler"
            ) from None
        return evaluate_parquet_multi(
            args.file, scheduler=args.scheduler, proba_cols=proba_cols, classes=classes,
            label_col=args.label_col, weight_col=args.weight_col, measures=measures,
            average=average,
        )
    from measurelab.io import evaluate_multi_file

    return evaluate_multi_file(
        args.file, proba_cols=proba_cols, classes=classes, measures=measures, average=average,
        label_col=args.label_col, weight_col=args.weight_col, fmt=args.fmt,
        chunk_rows=args.chunk_rows,
    )


def format_table(result: Any) -> str:
    """The result as an aligned text table: value, kind, direction and notes (plain
    Python: the command line does not import pandas to print it)."""
    notes = result.notes()
    head = ["measure", "value", "kind", "direction", "note"]
    rows = []
    for name, v in result.items():
        m = result.measure(name)
        direction = m.direction
        if np.ndim(v) == 1:  # per-class values (--average none): one row per class
            for c, x in zip(result._class_names(v), v, strict=True):
                rows.append([f"{name}[{c}]", f"{float(x):.6g}", m.kind, direction, ""])
            continue
        rows.append([name, f"{float(v):.6g}", m.kind, direction, notes.get(name, "")])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [" " * widths[0] + "".join(f"  {h:>{w}}" for h, w in zip(head[1:], widths[1:],
                                                                      strict=True)),
             head[0]]  # the index name on its own line, as pandas prints a table
    for r in rows:
        lines.append(f"{r[0]:<{widths[0]}}" + "".join(
            f"  {c:>{w}}" for c, w in zip(r[1:], widths[1:], strict=True)))
    return "\n".join(line.rstrip() for line in lines)


def run(args: argparse.Namespace) -> int:
    measures = _parse_measures(args.measures)
    if wanted_multilabel(args):
        return run_multilabel(args, measures, "evaluate")
    if measures is not None:
        from measurelab.measures.base import registry

        for m in measures:
            registry.resolve(m)  # unknown names fail before any reading
    check_common(args)
    if wanted(args):
        return run_models(args, measures)
    args.score_col = args.score_col[0] if args.score_col else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _evaluate(args, measures)
    shown: set[str] = set()
    for w in caught:
        msg = " ".join(str(w.message).split())
        if msg not in shown:
            shown.add(msg)
            print(f"measurelab evaluate: warning: {msg}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(format_table(result))
    return 0
