"""``measurelab evaluate`` with several models, intervals or an HTML page
(docs/METHODS.md#comparing).

The path taken when ``--score-col`` is repeated, or ``--ci`` / ``--html`` is given:

    measurelab evaluate preds.csv --score-col lr --score-col gb --json
    measurelab evaluate preds.csv --score-col lr --score-col gb --ci 0.95 --html cmp.html
    measurelab evaluate preds.txt --ci 0.9 --n-boot 500 --seed 1      # one model, perf text

JSON without ``--ci``: ``{"models": {name: {measure: value}}}``; with ``--ci``:
``{"models": {name: {measure: {"value", "lo", "hi", "method"}}}, "pairs": [...],
"verdicts": [...]}`` (AUC entries add ``"se"``, AUC pairs ``"se"`` and ``"z"``); undefined
numbers are ``null``.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

import numpy as np

from measurelab.cli._options import integer, output_file, seed
from measurelab.exceptions import MeasurelabError


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of the several-models path (``--score-col`` itself repeats)."""
    p.add_argument("--ci", metavar="LEVEL",
                   help="add intervals at this level (e.g. 0.95) and, for several models, "
                        "paired tests Holm-adjusted over all pairs and measures")
    p.add_argument("--html", metavar="FILE",
                   help="write one self-contained HTML page (tables and figures)")
    p.add_argument("--n-boot", default="2000", metavar="B",
                   help="bootstrap replicates (default 2000)")
    p.add_argument("--seed", default="0", metavar="S", help="bootstrap seed (default 0)")
    p.add_argument("--n-jobs", default="1", metavar="N",
                   help="threads evaluating bootstrap replicates (default 1; -1: every CPU; "
                        "the results do not depend on it)")
    from measurelab.inference.methods import forceable_names

    p.add_argument("--ci-method", metavar="M", choices=forceable_names(),
                   help="force one interval method where it applies (default: Wilson for "
                        "acc/err, the posterior of the confusion cells for the "
                        "other measures of the counts, DeLong on the logit scale for AUC "
                        "('delong': plain Wald, as pROC; Newcombe's below 30 cases a class), "
                        "BCa bootstrap for the rest); one of "
                        + ", ".join(forceable_names()))
    p.add_argument("--stratify", action="store_true",
                   help="resample positives and negatives separately (a test set whose class "
                        "counts were fixed by design); default: resample the cases jointly, "
                        "as fits a random sample")
    from measurelab.cli._structure import add_structure_arguments

    add_structure_arguments(p)  # --group-col, --by-col


def parse_pos_label(text: str) -> Any:
    """The ``--pos-label`` option: a number when the text is an integer in plain digits;
    otherwise text (``1_0`` stays text: numbers follow the one rule of the data files).

    The readers then match the text to the labels' type.

    Examples
    --------
    >>> parse_pos_label("-1"), parse_pos_label("yes"), parse_pos_label("1_0")
    (-1, 'yes', '1_0')
    """
    import re

    if re.fullmatch(r"[+-]?[0-9]+", text.strip(), re.ASCII):
        return int(text)
    if not text.strip():
        raise MeasurelabError("--pos-label is empty; give the label of the positive class")
    return text


def wanted(args: argparse.Namespace) -> bool:
    """True when this path handles the command (several score columns or probability
    column groups, --ci or --html)."""
    cols = args.score_col or []
    groups = getattr(args, "proba_cols", None) or []
    return (len(cols) > 1 or len(groups) > 1 or args.ci is not None or args.html is not None
            or getattr(args, "group_col", None) is not None
            or getattr(args, "by_col", None) is not None)


def check_common(args: argparse.Namespace) -> None:
    """Check the options shared by ``evaluate`` and ``versus`` before any reading: the
    threshold, the chunk size, the output page and the bootstrap's options (parsed values
    are kept on ``args``: ``level``, ``boot``, ``seed_value``, ``jobs``)."""
    from measurelab._util.validation import check_threshold
    from measurelab.inference.bootstrap import MIN_BOOT, check_n_boot

    check_threshold(args.threshold, "--threshold")
    if args.chunk_rows < 1:
        raise MeasurelabError(f"--chunk-rows must be at least 1, got {args.chunk_rows}")
    if args.html is not None:
        from measurelab._util.pageset import COMPARISON_FIGURES

        output_file(args.html, "--html", (".json", *(f"-{f}.{e}" for f in COMPARISON_FIGURES
                                                     for e in ("png", "svg"))))
    args.level = _level(args.ci)
    n_boot = integer(args.n_boot, "--n-boot", minimum=1)
    args.boot = check_n_boot(n_boot, "--n-boot", minimum=1 if args.level is None else MIN_BOOT)
    args.seed_value = seed(args.seed, "--seed")
    jobs = integer(args.n_jobs, "--n-jobs")
    if jobs != -1 and jobs < 1:
        raise MeasurelabError(f"--n-jobs must be a positive integer or -1, got {args.n_jobs!r}")
    args.jobs = jobs
    parse_pos_label(args.pos_label)


def _level(text: str | None) -> float | None:
    if text is None:
        return None
    from measurelab._util.validation import parse_number, quote

    value = parse_number(str(text).strip())
    if value is None:
        raise MeasurelabError(f"--ci must be a number in (0, 1), got {quote(text)}")
    if not 0.0 < value < 1.0:  # NaN included
        raise MeasurelabError(f"--ci must be in (0, 1) (e.g. 0.95), got {str(text)[:40]}")
    return value


def read_models(args: argparse.Namespace) -> tuple[np.ndarray, dict[str, np.ndarray],
                                                   np.ndarray | None, Any]:
    """Labels, one score vector per ``--score-col``, weights and the positive label.

    Each column is read with the same validated reader as single-model evaluation (one
    pass per column; standard input is buffered once).
    """
    from measurelab.io import coerce_pos_label, detect_format, read_chunks, source_name

    cols = list(args.score_col or [])
    seen: set[str] = set()
    for c in cols:
        if c in seen:
            raise MeasurelabError(f"--score-col {c!r} is given twice; give each model once")
        seen.add(c)
    source: Any = args.file
    if source == "-":
        source = io.BytesIO(sys.stdin.buffer.read())
    if len(cols) > 1 and detect_format(args.file if args.file != "-" else source,
                                       args.fmt) == "perf":
        raise MeasurelabError(
            f"{source_name(args.file)}: perf text holds one model; several --score-col need "
            "CSV or Parquet"
        )
    y = None
    w = None
    models: dict[str, np.ndarray] = {}
    for c in cols or [None]:
        if isinstance(source, io.BytesIO):
            source.seek(0)
        chunks = list(read_chunks(source, fmt=args.fmt, label_col=args.label_col,
                                  score_col=c, weight_col=args.weight_col,
                                  chunk_rows=args.chunk_rows))
        if not chunks or sum(len(ch) for ch in chunks) == 0:
            raise MeasurelabError(f"{source_name(args.file)} is empty: no predictions to "
                                  "evaluate")
        if y is None:
            y = np.concatenate([ch.y for ch in chunks])
            if args.weight_col is not None:
                w = np.concatenate([ch.weight for ch in chunks])
        models[c if c is not None else "score"] = np.concatenate([ch.score for ch in chunks])
    assert y is not None
    return y, models, w, coerce_pos_label(parse_pos_label(args.pos_label), y)


def read_multi(args: argparse.Namespace) -> tuple[np.ndarray, dict[str, np.ndarray],
                                                  np.ndarray | None, dict[str, Any]]:
    """Labels, one (n, k) probability matrix per ``--proba-cols`` group, weights and the
    k-class options of :func:`~measurelab.compare_classifiers` (labels, average)."""
    from measurelab.io import parse_names, parse_proba_groups, read_multi_models

    for flag, given in (("--threshold", args.threshold != 0.5), ("--inclusive", args.inclusive),
                        ("--pos-label", args.pos_label != "1")):
        if given:
            raise MeasurelabError(
                f"{flag} does not apply to --proba-cols: the predicted class is the arg-max "
                "column")
    source: Any = args.file
    if source == "-":
        source = io.BytesIO(sys.stdin.buffer.read())
    y, models, classes, w = read_multi_models(
        source, groups=parse_proba_groups(args.proba_cols),
        classes=parse_names(args.classes, "--classes"), label_col=args.label_col,
        weight_col=args.weight_col, fmt=args.fmt, chunk_rows=args.chunk_rows)
    average = None if args.average == "none" else args.average
    return y, models, w, {"labels": classes, "average": average}


def check_output_path(path: str, flag: str) -> None:
    """Refuse an output path that cannot be written, before any computing."""
    output_file(path, flag)


def run_models(args: argparse.Namespace, measures: list[str] | None) -> int:
    """Evaluate several models (or one with intervals) and print text or JSON."""
    import warnings

    from measurelab.inference.classifiers.compare import compare_classifiers

    multi = getattr(args, "proba_cols", None) is not None
    what = "several --proba-cols" if multi else "several --score-col"
    if args.counts is not None or args.file is None:
        raise MeasurelabError(f"--ci, --html and {what} need a FILE of scores")
    if multi and args.score_col is not None:
        raise MeasurelabError("give either --score-col (binary) or --proba-cols (k classes)")
    if not hasattr(args, "boot"):
        check_common(args)
    level, n_boot, seed_value, n_jobs = args.level, args.boot, args.seed_value, args.jobs
    from measurelab.cli._structure import format_structure, read_structure

    if args.scheduler is not None:
        check_cluster_options(args, multi)
    elif multi:
        y, models, w, options = read_multi(args)
    else:
        y, models, w, pos_label = read_models(args)
        if args.average != "macro":
            raise MeasurelabError("--average applies to multi-class input (--proba-cols)")
        options = dict(threshold=args.threshold, pos_label=pos_label,
                       inclusive=args.inclusive)
    if args.scheduler is None:
        options.update(read_structure(args, len(y)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if args.scheduler is not None:
            r = compare_on_cluster(args, measures)
        else:
            r = compare_classifiers(y, models, measures=measures, ci=level, n_boot=n_boot,
                                    random_state=seed_value, ci_method=args.ci_method,
                                    sample_weight=w, progress=_progress(args),
                                    n_jobs=n_jobs, stratify=bool(args.stratify), **options)
        # read by the report with getattr (a comparison of arrays has none)
        r.source = (  # type: ignore[attr-defined]
            f"{args.file} (measurelab {getattr(args, 'command', None) or 'evaluate'})")
        out = r.to_json() if args.json else format_comparison(r) + format_structure(r)
        if not args.json and hasattr(args, "output"):  # versus: the answer first
            from measurelab.cli._answer import comparison_text

            out = comparison_text(r, args.output, out if args.output != "answer" else "")
        if args.html is not None:
            r.to_html(args.html)
    shown: set[str] = set()
    for wmsg in caught:
        msg = " ".join(str(wmsg.message).split())
        if msg not in shown:
            shown.add(msg)
            print(f"measurelab {getattr(args, 'command', None) or 'evaluate'}: warning: "
                  f"{msg}", file=sys.stderr)
    print(out)
    if args.html is not None and not args.json:
        print(f"wrote {args.html}")
    return 0


def check_cluster_options(args: argparse.Namespace, multi: bool) -> None:
    """Refuse, before any reading, what a comparison on a Dask cluster does not do."""
    if args.html is not None:
        raise MeasurelabError("--html draws the curves' bands and the calibration figure, "
                              "which need every case's prediction; drop --html or "
                              "--scheduler (--json keeps every number)")
    if getattr(args, "group_col", None) is not None or \
            getattr(args, "by_col", None) is not None:
        raise MeasurelabError("--group-col and --by-col run without --scheduler")
    if args.fmt not in ("auto", "parquet") or args.file == "-":
        raise MeasurelabError("--scheduler compares Parquet data sets (a file or a folder)")
    if args.average != "macro" and not multi:
        raise MeasurelabError("--average applies to multi-class input (--proba-cols)")
    if multi:
        for flag, given in (("--threshold", args.threshold != 0.5),
                            ("--inclusive", args.inclusive), ("--pos-label",
                                                              args.pos_label != "1")):
            if given:
                raise MeasurelabError(f"{flag} does not apply to --proba-cols: the "
                                      "predicted class is the arg-max column")


def compare_on_cluster(args: argparse.Namespace, measures: list[str] | None) -> Any:
    """The comparison of the ``--score-col`` (or ``--proba-cols``) models of a Parquet
    data set on the Dask scheduler at ``--scheduler``, in two passes over its row
    groups."""
    try:
        from measurelab.io.distributed import compare_parquet, compare_parquet_multi
    except ImportError as exc:
        raise MeasurelabError(
            f"distributed comparison is unavailable in this installation ({exc}); run "
            "without --scheduler") from None
    run = dict(measures=measures, ci=args.level, n_boot=args.boot,
               random_state=args.seed_value, ci_method=args.ci_method,
               stratify=bool(args.stratify))
    if args.proba_cols is not None:
        from measurelab.io import parse_names, parse_proba_groups

        return compare_parquet_multi(
            args.file, scheduler=args.scheduler,
            proba_groups=parse_proba_groups(args.proba_cols),
            classes=parse_names(args.classes, "--classes"), label_col=args.label_col,
            weight_col=args.weight_col, average=None if args.average == "none" else
            args.average, **run)
    cols = list(args.score_col or [])
    seen: set[str] = set()
    for c in cols:
        if c in seen:
            raise MeasurelabError(f"--score-col {c!r} is given twice; give each model once")
        seen.add(c)
    if not cols:
        raise MeasurelabError("--scheduler needs the models' columns: --score-col NAME for "
                              "each model")
    return compare_parquet(
        args.file, scheduler=args.scheduler, score_cols=cols, label_col=args.label_col,
        weight_col=args.weight_col, threshold=args.threshold,
        pos_label=parse_pos_label(args.pos_label), inclusive=args.inclusive, **run)


def _progress(args: argparse.Namespace) -> bool | None:
    """The comparison's ``progress``: False with ``--no-progress``, else the default (a bar
    on a terminal, a line every 20 s in a log)."""
    return False if getattr(args, "no_progress", False) else None


def format_comparison(r: Any) -> str:
    """Plain-text tables of a comparison: values, intervals, tests, preferences, verdicts."""
    fmt = {"float_format": lambda v: f"{v:.4g}"}
    parts = [r.values().to_string(**fmt)]
    if r.level is not None:
        iv = r.intervals().drop(columns="se")
        for col in ("infinite", "undefined"):  # shown only where a replicate was
            if not (iv[col].fillna(0) > 0).any():
                iv = iv.drop(columns=col)
        parts += ["", f"intervals ({round(100 * r.level)}%):", iv.to_string(index=False, **fmt)]
        if len(r.names) > 1:
            parts += ["", "paired tests (diff = a - b; p Holm-adjusted over all rows):",
                      r.tests().drop(columns=["se", "z"]).to_string(index=False, **fmt)]
    if len(r.names) > 1:
        parts += ["", "preferences:", r.preferences().drop(
            columns=["p_holm", "significant", "beats"]).to_string(index=False, **fmt)]
        verdicts = r.verdicts()
        if len(verdicts):  # Sokolova's verdicts are binary
            parts += ["", "likelihood verdicts (Sokolova 2006):",
                      verdicts.to_string(index=False, **fmt)]
    return "\n".join(parts)

