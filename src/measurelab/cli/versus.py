"""``measurelab versus``: compare classifiers scored on the same cases (docs/METHODS.md#comparing).

First the answer (what was compared, then the summary sentences), then every model's
value with an interval, paired tests for every pair Holm-adjusted over all
rows, the measures' preferences and (binary) Sokolova's verdicts; ``--html`` writes the
comparison page (the answer first, figures, every table), ``--json`` the numbers.

Examples (shell)::

    measurelab versus preds.csv --score-col lr --score-col gb --html cmp.html
    measurelab versus preds.parquet --proba-cols lr=lr_0,lr_1,lr_2 \\
        --proba-cols rf=rf_0,rf_1,rf_2 --json                  # k-class models
    measurelab versus preds.csv --score-col lr --score-col gb --ci none   # values only
    measurelab versus preds.csv --score-col lr --score-col gb --quiet     # the answer only
    measurelab versus parts/ --score-col lr --score-col gb --scheduler tcp://host:8786 --json
    measurelab versus parts/ --proba-cols lr_0,lr_1,lr_2 --proba-cols rf_0,rf_1,rf_2 \\
        --scheduler tcp://host:8786 --json                     # k classes on a cluster

(``measurelab compare-measures`` compares *measures*, not classifiers.)
"""

from __future__ import annotations

import argparse
from typing import Any

from measurelab.cli._answer import add_output_options
from measurelab.cli._models import add_arguments, check_common, run_models
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
        "versus",
        help="compare classifiers on the same cases: intervals, paired tests, a page",
        description=(
            "Compare two or more classifiers scored on the same cases: each model's value "
            "of every measure with an interval, paired tests for every pair (Holm-adjusted "
            "over all rows), which model each measure prefers; --html writes a page that "
            "answers first. Models are score columns (--score-col, binary) or probability "
            "column groups (--proba-cols, k classes) of a CSV or Parquet file ('-': stdin)."
        ),
    )
    p.add_argument("file", metavar="FILE", help="prediction file (CSV or Parquet), - for stdin")
    p.add_argument("--score-col", metavar="NAME", type=_column, action="append",
                   help="a binary model's score column; repeat it for each model")
    p.add_argument("--proba-cols", metavar="[NAME=]C1,C2,...", action="append",
                   help="a k-class model's probability columns (one per class); repeat it "
                        "for each model; named NAME= or by the text its columns share")
    p.add_argument("--classes", metavar="A,B,...",
                   help="class names of the --proba-cols columns, in their order")
    p.add_argument("--label-col", metavar="NAME", type=_column, help="column of the true labels")
    p.add_argument("--weight-col", metavar="NAME", type=_column, help="column of case weights")
    p.add_argument("--measures", metavar="A,B,...",
                   help="comma-separated measures (default: a short headline set)")
    p.add_argument("--average", choices=["macro", "weighted", "micro", "samples", "none"],
                   default="macro", help="k classes: how per-class values combine "
                                         "(none: a row per class)")
    p.add_argument("--threshold", type=real_type(finite=False), default=0.5, metavar="T",
                   help="binary: a case is predicted positive iff score > T (default 0.5)")
    p.add_argument("--inclusive", action="store_true", help="binary: positive iff score >= T")
    p.add_argument("--pos-label", default="1", metavar="LABEL",
                   help="binary: label of the positive class (default 1)")
    p.add_argument("--format", dest="fmt", choices=FORMATS, default="auto",
                   help="input format (default: from the file name)")
    p.add_argument("--chunk-rows", type=int_type(maximum=MAX_CHUNK_ROWS),
                   default=DEFAULT_CHUNK_ROWS, metavar="N",
                   help=f"rows read at a time (default {DEFAULT_CHUNK_ROWS})")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   type=text_type("an address such as tcp://host:8786"),
                   help="compare on a Dask cluster: FILE is a (partitioned) Parquet data set "
                        "the workers read in two passes (--score-col or --proba-cols "
                        "models)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress reports (the bootstrap, the calibration test, the page's "
                        "bands)")
    add_multilabel_arguments(p)
    add_arguments(p)  # --ci, --html, --n-boot, --seed, --n-jobs, --ci-method, --stratify
    add_output_options(p)  # --quiet (the answer only), --tables (the tables only)
    p.set_defaults(ci="0.95")
    return p


def run(args: argparse.Namespace) -> int:
    if wanted_multilabel(args):
        if str(args.ci).strip().lower() == "none":
            args.ci = None
        measures = None if args.measures is None else [
            m.strip() for m in args.measures.split(",") if m.strip()]
        args.counts = None
        return run_multilabel(args, measures, "versus")
    if args.score_col is None and args.proba_cols is None:
        raise MeasurelabError("give the models: --score-col NAME for each binary model or "
                              "--proba-cols [NAME=]C1,C2,... for each k-class model")
    if args.score_col is not None and args.proba_cols is not None:
        raise MeasurelabError("give either --score-col (binary) or --proba-cols (k classes)")
    if str(args.ci).strip().lower() == "none":
        args.ci = None
    check_common(args)
    measures = None
    if args.measures is not None:
        from measurelab.measures.base import registry

        measures = [m.strip() for m in args.measures.split(",") if m.strip()]
        if not measures:
            raise MeasurelabError("--measures is empty; give names such as auc,acc")
        for m in measures:
            registry.resolve(m)  # unknown names fail before any reading
    args.counts = None
    return run_models(args, measures)
