"""``measurelab ranks``: compare classifiers over many data sets (Demšar 2006).

The input is a CSV of scores, one row per data set and one column per model (the first
column, when it is text, names the data sets), or a long table (``--long``: one row per
data set and model). Prints the average ranks, Friedman's and Iman–Davenport's tests, the
Nemenyi critical difference and the pairs' wins/draws/losses; ``--bayes --rope R`` adds the
Bayesian signed-rank verdict of every pair (Benavoli et al. 2017); ``--html`` writes a page
with the critical-difference diagram.

A fold-level file — one row per data set, model and fold, as
``compare_learners(...).fold_scores()`` writes it — is read when it has a fold column
(``fold``, or ``--fold-col``): the ranks are of the mean over the folds, the runs come from
a run column (``run`` or ``repeat``, or ``--run-col``), a measure column (``measure``)
selects ``--measure``, and ``--bayes`` gives the correlated t-test per data set and the
hierarchical model over data sets × folds. The command says which columns it used.

Examples (shell)::

    measurelab ranks auc_by_dataset.csv --html ranks.html
    measurelab ranks errors.csv --lower-is-better --json
    measurelab ranks scores_long.csv --long --bayes --rope 0.01
    measurelab ranks folds.csv --measure auc --bayes --rope 0.01
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from measurelab.exceptions import MeasurelabError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "ranks",
        help="compare classifiers over many data sets: ranks, Friedman, Nemenyi CD",
        description=(
            "Compare classifiers over many data sets (Demšar 2006): average ranks, "
            "Friedman and Iman–Davenport tests, Nemenyi's critical difference, wins/draws/"
            "losses with sign and Wilcoxon tests per pair; --bayes adds the Bayesian "
            "signed-rank test of every pair. FILE is a CSV (or '-' for stdin): one row per "
            "data set, one column per model (a first text column names the data sets), or "
            "with --long one row per (data set, model, score)."
        ),
    )
    p.add_argument("file", metavar="FILE", help="CSV of scores, - for stdin")
    p.add_argument("--long", action="store_true",
                   help="the CSV is long: columns --dataset-col, --model-col, --value-col")
    p.add_argument("--dataset-col", default="dataset", metavar="NAME",
                   help="--long: column of the data set names (default dataset)")
    p.add_argument("--model-col", default=None, metavar="NAME",
                   help="--long: column of the model names (default model; in a fold-level "
                        "file model or learner)")
    p.add_argument("--value-col", default=None, metavar="NAME",
                   help="--long: column of the scores (default score; in a fold-level file "
                        "score or value)")
    p.add_argument("--fold-col", default=None, metavar="NAME",
                   help="a fold-level file: the column of the folds (default: fold, when "
                        "the file has it)")
    p.add_argument("--run-col", default=None, metavar="NAME",
                   help="fold-level file: the column of the runs of cross-validation "
                        "(default run or repeat, when the file has it; else one run)")
    p.add_argument("--lower-is-better", action="store_true",
                   help="the scores are losses or errors: the smallest ranks first")
    p.add_argument("--measure", default=None, metavar="NAME",
                   help="the measure the scores are values of: in a file with a measure "
                        "column, the rows to rank; a registered measure's direction orders "
                        "the scores (spiegelhalter_z: the nearest to 0 ranks first)")
    p.add_argument("--alpha", default="0.05", metavar="A",
                   help="level of the tests and the critical difference (default 0.05)")
    p.add_argument("--decimals", metavar="D",
                   help="round the scores first (values equal at that precision tie)")
    p.add_argument("--tie-correction", action="store_true",
                   help="Friedman's statistic corrected for ties (as scipy and R)")
    p.add_argument("--bayes", action="store_true",
                   help="add the Bayesian signed-rank test of every pair (needs --rope)")
    p.add_argument("--rope", metavar="R",
                   help="region of practical equivalence, in the scores' units (e.g. 0.01 "
                        "for accuracy or AUC)")
    p.add_argument("--seed", default="0", metavar="S", help="seed of the posterior sample")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    from measurelab.cli._answer import add_output_options

    add_output_options(p)  # --quiet: the sentences only; --tables: the tables only
    p.add_argument("--html", metavar="FILE", help="write a page with the CD diagram")
    return p


def _first_line(src: Any) -> bytes:
    """The bytes up to the end of the first non-blank line of a path or a BytesIO."""
    if hasattr(src, "getvalue"):
        data = src.getvalue()
        return data[: data.find(b"\n", len(data) - len(data.lstrip())) + 1 or len(data)]
    head = b""
    try:
        with open(src, "rb") as fh:
            while not (head.strip() and b"\n" in head.lstrip()):
                more = fh.read(1 << 16)
                if not more:
                    break
                head += more
    except OSError:
        return b""  # pandas names the problem
    return head


def _head(src: Any) -> bytes:
    """The first bytes of a file or an in-memory stream (rewound)."""
    if hasattr(src, "getvalue"):
        return bytes(src.getvalue()[:4096])
    try:
        with open(src, "rb") as fh:
            return fh.read(4096)
    except OSError:
        return b""  # the reader names the problem


def read_table(args: argparse.Namespace) -> Any:
    """The data set × model table of the scores in ``args.file`` (a fold-level file: its
    :class:`~measurelab.cli._ranks_folds.FoldFile`)."""
    import io

    import pandas as pd

    from measurelab._util.validation import binary_content
    from measurelab.io import source_name
    from measurelab.io.frames import CSV_FLOATS, check_header, csv_header

    name = source_name(args.file)
    if args.file != "-" and "://" in str(args.file):  # pandas would fetch a URL
        raise MeasurelabError(f"{name}: ranks reads local files only; download the file and "
                              "give its path ('-' reads standard input)")
    src: Any = io.BytesIO(sys.stdin.buffer.read()) if args.file == "-" else args.file
    if not str(args.file).endswith((".gz", ".bz2", ".xz", ".zst", ".zip")):
        what = binary_content(_head(src))
        if what is not None:  # as versus names it, not a UTF-8 decode error
            raise MeasurelabError(f"{name} {what}")
    try:
        df = pd.read_csv(src, float_precision=CSV_FLOATS)
    except FileNotFoundError:
        raise MeasurelabError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise MeasurelabError(f"{name} is a directory; give a CSV file") from None
    except (pd.errors.EmptyDataError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else "malformed CSV"
        raise MeasurelabError(f"{name}: not a CSV of scores ({msg})") from None
    raw = csv_header(_first_line(src))
    names = [str(c) for c in df.columns]
    if df.empty:
        raise MeasurelabError(f"{name}: no scores (a header and no rows); expected one row "
                              "per data set")
    from measurelab.cli._ranks_folds import fold_file, is_fold_level

    if is_fold_level(args, names):
        check_header(raw, names, names, name)
        return fold_file(df, args, name)
    args.model_col = args.model_col or "model"
    args.value_col = args.value_col or "score"
    if args.long:
        for flag, col in (("--dataset-col", args.dataset_col), ("--model-col", args.model_col),
                          ("--value-col", args.value_col)):
            if col not in df.columns:
                raise MeasurelabError(f"{name}: no column {col!r} ({flag}; columns: "
                                      f"{', '.join(map(str, df.columns))})")
        check_header(raw, names, [args.dataset_col, args.model_col, args.value_col], name)
        dup = df.duplicated([args.dataset_col, args.model_col])
        if dup.any():
            i = int(dup.to_numpy().nonzero()[0][0])
            raise MeasurelabError(
                f"{name}, row {i + 1}: data set {df[args.dataset_col].iloc[i]!r} and model "
                f"{df[args.model_col].iloc[i]!r} appear twice; give one score each (a file "
                "of fold scores needs its fold column: --fold-col)")
        wide = df.pivot(index=args.dataset_col, columns=args.model_col, values=args.value_col)
        wide.columns = [str(c) for c in wide.columns]
        return wide
    check_header(raw, names, names, name)  # every column is a model (or the names)
    if df.shape[1] and not pd.api.types.is_numeric_dtype(df.iloc[:, 0]):
        df = df.set_index(df.columns[0])
    bad = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    if bad:
        raise MeasurelabError(
            f"{name}: column {bad[0]!r} is not numeric; every column after the data set "
            "names is a model's scores (a long table needs --long)")
    df.columns = [str(c) for c in df.columns]
    return df


def run(args: argparse.Namespace) -> int:
    from measurelab.cli._options import integer, output_file, real, seed
    from measurelab.inference import demsar
    from measurelab.inference.ranks.friedman import MAX_DECIMALS

    alpha = real(args.alpha, "--alpha", low=0, high=1, open_=True)
    decimals = None
    if args.decimals is not None:
        decimals = integer(args.decimals, "--decimals", minimum=0, maximum=MAX_DECIMALS)
    rope = None
    if args.bayes:
        if args.rope is None:
            raise MeasurelabError("--bayes needs --rope R: the difference that is practically "
                                  "none, in the scores' units (e.g. 0.01)")
        rope = real(args.rope, "--rope", low=0)
    elif args.rope is not None:
        raise MeasurelabError("--rope applies with --bayes")
    seed_value = seed(args.seed, "--seed")
    if args.html is not None:  # the page and whatever either kind of page writes beside it
        output_file(args.html, "--html", ("-cd.png", ".json", "-folds.csv",
                                          "-folds.png"))
    from measurelab.cli._ranks_folds import FoldFile

    direction: dict[str, Any] = {"higher_is_better": not args.lower_is_better}
    known, unknown = None, None
    if args.measure is not None:
        from measurelab.measures.base import registry

        try:
            known = registry.resolve(args.measure)[0]
        except MeasurelabError as e:
            unknown = e  # a fold file's own measure name, or a typo (decided below)
        if known is not None and args.lower_is_better:
            raise MeasurelabError(
                f"give --measure or --lower-is-better, not both: {args.measure} says which "
                f"scores are better ({known.direction} is better)")
        if known is not None:
            direction = {"measure": known}
    table = read_table(args)
    folds = table if isinstance(table, FoldFile) else None
    if unknown is not None and (folds is None or folds.measure != args.measure):
        raise unknown  # not a measure of the file's measure column: a typo
    higher = not args.lower_is_better
    if folds is not None:
        table = folds.means
        if known is None:
            higher = folds.higher_is_better(args.lower_is_better)
            direction = {"higher_is_better": higher}
        else:
            higher = bool(known.higher_is_better)
    res = demsar(table, alpha=alpha, decimals=decimals, tie_correction=args.tie_correction,
                 **direction)
    bayes = per_dataset = None
    if args.bayes and folds is not None:
        assert rope is not None  # --bayes needs --rope (checked above)
        per_dataset, bayes = folds.bayes(rope, seed_value, higher)
    elif args.bayes:
        bayes = res.bayes(rope=rope, random_state=seed_value)
    if args.json:
        out = {"avg_ranks": {k: float(v) for k, v in res.avg_ranks.items()},
               "friedman": {"chi2": res.friedman.statistic, "p": res.friedman.pvalue},
               "iman_davenport": {"F": res.iman_davenport.statistic,
                                  "p": res.iman_davenport.pvalue},
               "alpha": res.alpha, "q_alpha": res.q_alpha, "cd": res.cd,
               "higher_is_better": res.higher_is_better, "direction": res.direction,
               "pairs": res.wdl.to_dict("records")}
        if bayes is not None:
            out["bayes"] = bayes.to_dict("records")
        if folds is not None:
            out["columns"] = folds.columns
            out["measure"] = folds.measure
            out["runs"], out["folds"] = folds.runs, folds.folds
            if per_dataset is not None:
                out["bayes_method"] = "hierarchical"
                out["bayes_per_dataset"] = per_dataset.to_dict("records")
        from measurelab.jsonable import to_jsonable

        print(json.dumps(to_jsonable(out), allow_nan=False))
    else:
        mode = getattr(args, "output", "answer+tables")
        if folds is not None and mode != "tables":
            print(folds.describe())
        if mode != "tables":
            print("\n".join(res.sentences()))
            if bayes is not None:
                from measurelab.cli._answer import bayes_sentences

                assert rope is not None  # --bayes needs --rope (checked above)
                print(bayes_sentences(bayes, rope, res.direction))
        if mode == "answer":
            pass
        else:
            if mode != "tables":
                print()
            print(res.wdl.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
        if per_dataset is not None and mode != "answer":
            print()
            print(f"Bayesian correlated t-test per data set, rope {rope:g}:")
            print(per_dataset.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
        if bayes is not None and mode != "answer":
            print()
            what = ("hierarchical model over data sets × folds" if folds is not None
                    else "signed-rank test")
            print(f"Bayesian {what}, rope {rope:g}:")
            print(bayes.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    if args.html is not None:
        object.__setattr__(res, "source", f"{args.file} (measurelab ranks)")  # provenance
        res.to_html(args.html, bayes=bayes)
        if not args.json:
            print(f"wrote {args.html}")
    return 0
