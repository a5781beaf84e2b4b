"""``measurelab study``: the metric-space study on named problems or a user's file."""

from __future__ import annotations

import argparse
from typing import Any

from measurelab.cli._options import integer, output_folder, seed, text_type


def add_parser(sub: Any) -> argparse.ArgumentParser:
    from measurelab.lab.study.problems import known_problems

    p = sub.add_parser(
        "study", help="train a model zoo on binary problems and analyse the measures",
        description=(
            "Train many models per problem (ANN, SVM+Platt, bagged/boosted trees, boosted "
            "stumps, trees, KNN, NB, LR), store every prediction and measure in OUT "
            "(resumable: rerun the same command after an interruption), then write the "
            "analyses of Caruana & Niculescu-Mizil (2004) to OUT/analysis. Problems: "
            + ", ".join(known_problems()) + ", or a .csv/.parquet file with --target."),
    )
    p.add_argument("--problems", nargs="+", required=True, metavar="PROBLEM",
                   help="problem names or CSV/Parquet files, separated by spaces or commas")
    p.add_argument("--grid", choices=["quick", "full", "tiny"], default="quick",
                   help="model grid: quick (a few dozen models per problem), full (hundreds)")
    p.add_argument("--out", required=True, metavar="DIR", help="result folder")
    p.add_argument("--scheduler", metavar="ADDRESS", type=text_type("an address such as "
                                                                    "tcp://host:8786"),
                   help="Dask scheduler address (tcp://host:port); default: local processes")
    p.add_argument("--workers", default=None, metavar="N",
                   help="local worker processes (default: CPU count; 1 = in this process)")
    p.add_argument("--seed", default="0", metavar="S", help="the study seed (default 0)")
    p.add_argument("--n-train", default="4000", metavar="N",
                   help="training cases per problem (default 4000)")
    p.add_argument("--n-valid", default="1000", metavar="N",
                   help="validation cases per problem (default 1000)")
    p.add_argument("--n-test", default="20000", metavar="N",
                   help="cap on the test set size (default 20000)")
    p.add_argument("--target", metavar="COL", type=text_type("a column name"),
                   help="label column of a CSV/Parquet problem")
    p.add_argument("--pos-label", type=text_type("a class label"),
                   help="positive class of a file problem or shipped data set (default: the "
                        "minority class)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-analysis", action="store_true", help="store results only")
    return p


def run(args: argparse.Namespace) -> int:
    from measurelab.exceptions import MeasurelabError
    from measurelab.lab.study import run_study

    sizes = {flag: integer(getattr(args, flag[2:].replace("-", "_")), flag, minimum=1)
             for flag in ("--n-train", "--n-valid", "--n-test")}
    workers = None if args.workers is None else integer(args.workers, "--workers", minimum=1)
    seed_value = seed(args.seed, "--seed")
    output_folder(args.out, "--out",
                  "is a file; the study needs a folder (a new or an existing study's)")
    problems = [p.strip() for arg in args.problems for p in arg.split(",") if p.strip()]
    if not problems:
        raise MeasurelabError("--problems is empty; give names such as sonar vote")
    if args.target is not None:
        from measurelab.lab.study.problems import is_file_spec

        if not any(is_file_spec(p) for p in problems):
            raise MeasurelabError(
                f"--target {args.target!r} names the label column of a problem file, but no "
                f"problem is a file ({', '.join(problems)}); drop --target or give a "
                ".csv/.parquet file")
    res = run_study(
        problems, out=args.out, grid_name=args.grid, seed=seed_value,
        n_train=sizes["--n-train"], n_valid=sizes["--n-valid"], n_test=sizes["--n-test"],
        target=args.target, pos_label=args.pos_label, workers=workers,
        scheduler=args.scheduler, progress=not args.no_progress,
    )
    print(f"{res.n_models} models; {res.n_units_run} units trained, "
          f"{res.n_units_skipped} already stored; {res.wall_seconds:.1f} s "
          f"(train {res.train_seconds:.1f} s, evaluate {res.eval_seconds:.1f} s)")
    print(f"measures: {res.out / 'measures.parquet'}")
    if not args.no_analysis:
        from measurelab.lab.study.analysis import analyze

        an = analyze(res.out, problems=sorted(res.measures["problem"].unique()),
                     seed=seed_value)
        an.write(res.out / "analysis")
        print(f"analysis: {res.out / 'analysis'}")
        import pandas as pd

        with pd.option_context("display.width", 160, "display.max_columns", 20):
            print("\nnormalized score per algorithm (best on validation per measure):")
            print(an.tables["algorithms"].round(3).to_string())
            print("\nmodel selection by measure (normalized test scores):")
            print(an.tables["selection"].round(3).to_string())
    return 0
