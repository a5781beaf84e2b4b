"""``measurelab evaluate`` and ``measurelab versus`` of multi-label prediction files:
``--label-cols`` names the L true-label columns, ``--score-cols`` each model's L score
columns (docs/MULTILABEL.md).

Examples (shell)::

    measurelab evaluate tags.csv --label-cols a,b,c --score-cols pa,pb,pc --average samples
    measurelab versus tags.csv --label-cols a,b,c --score-cols lr=lr_a,lr_b,lr_c \\
        --score-cols rf=rf_a,rf_b,rf_c --html tags.html
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import warnings
from typing import Any

from measurelab.exceptions import MeasurelabError


def add_multilabel_arguments(p: argparse.ArgumentParser) -> None:
    """``--label-cols`` and ``--score-cols``."""
    p.add_argument("--label-cols", metavar="C1,C2,...",
                   help="multi-label: the L columns of the true labels (0/1), one per label")
    p.add_argument("--score-cols", metavar="[NAME=]C1,C2,...", action="append",
                   help="multi-label: a model's L score columns, in --label-cols order; repeat "
                        "it for each model")


def wanted_multilabel(args: argparse.Namespace) -> bool:
    """Whether the command reads a multi-label file (``--label-cols`` or ``--score-cols``)."""
    if getattr(args, "label_cols", None) is None and getattr(args, "score_cols", None) is None:
        return False
    if args.label_cols is None or args.score_cols is None:
        raise MeasurelabError("multi-label input needs both --label-cols (the true labels) "
                              "and --score-cols (each model's scores)")
    for flag, given in (("--label-col", getattr(args, "label_col", None)),
                        ("--score-col", getattr(args, "score_col", None)),
                        ("--proba-cols", getattr(args, "proba_cols", None)),
                        ("--classes", getattr(args, "classes", None)),
                        ("--scheduler", getattr(args, "scheduler", None)),
                        ("--counts", getattr(args, "counts", None))):
        if given:
            raise MeasurelabError(f"{flag} does not combine with --label-cols/--score-cols "
                                  "(multi-label input)")
    return True


def run_multilabel(args: argparse.Namespace, measures: list[str] | None, command: str
                   ) -> int:
    """Evaluate one model (or, with --ci, --html or several --score-cols, compare them)."""
    from measurelab.cli._models import check_common, format_comparison
    from measurelab.io.multiclass import parse_names, parse_proba_groups
    from measurelab.io.multilabel import read_multilabel
    from measurelab.measures.multilabel import resolve_ml

    if measures is not None:
        resolve_ml(measures)   # unknown names fail before any reading
    if getattr(args, "stratify", False):
        raise MeasurelabError("--stratify does not apply to multi-label input")
    if getattr(args, "pos_label", "1") != "1":
        raise MeasurelabError("--pos-label does not apply to multi-label input")
    check_common(args)
    label_cols = parse_names(args.label_cols, "--label-cols")
    assert label_cols is not None
    groups = parse_proba_groups(args.score_cols, "--score-cols")
    source: Any = args.file
    if source is None:
        raise MeasurelabError("give the prediction FILE")
    if source == "-":
        source = io.BytesIO(sys.stdin.buffer.read())
    Y, models, labels, w = read_multilabel(source, label_cols=label_cols, groups=groups,
                                           weight_col=args.weight_col, fmt=args.fmt)
    average = None if args.average == "none" else args.average
    options = dict(threshold=args.threshold, inclusive=args.inclusive, average=average,
                   labels=labels, sample_weight=w)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if len(models) == 1 and args.ci is None and args.html is None:
            from measurelab.metrics.multilabel import evaluate_multilabel

            (_name, S), = models.items()
            result = evaluate_multilabel(Y, S, measures=measures, **options)
            out = json.dumps(result.to_dict()) if args.json else result.to_frame()[
                ["value", "kind", "direction"]].to_string(float_format=lambda v: f"{v:.6g}")
        else:
            from measurelab.inference.classifiers.compare import compare_classifiers

            r = compare_classifiers(Y, models, measures=measures, ci=args.level,
                                    n_boot=args.boot, random_state=args.seed_value,
                                    ci_method=args.ci_method, progress=False,
                                    n_jobs=args.jobs, **options)
            out = r.to_json() if args.json else format_comparison(r)
            if not args.json and hasattr(args, "output"):
                from measurelab.cli._answer import comparison_text

                out = comparison_text(r, args.output, out if args.output != "answer" else "")
            if args.html is not None:
                r.to_html(args.html)
    shown: set[str] = set()
    for wmsg in caught:
        msg = " ".join(str(wmsg.message).split())
        if msg not in shown:
            shown.add(msg)
            print(f"measurelab {command}: warning: {msg}", file=sys.stderr)
    print(out)
    if args.html is not None and not args.json:
        print(f"wrote {args.html}")
    return 0
