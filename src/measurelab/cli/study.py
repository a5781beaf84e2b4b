"""``measurelab study``: the metric-space study on named problems or a user's file."""

from __future__ import annotations

import argparse
from typing import Any


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
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address (tcp://host:port); default: local processes")
    p.add_argument("--workers", type=int, default=None,
                   help="local worker processes (default: CPU count; 1 = in this process)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n-train", type=int, default=4000)
    p.add_argument("--n-valid", type=int, default=1000)
    p.add_argument("--n-test", type=int, default=20000, help="cap on the test set size")
    p.add_argument("--target", metavar="COL", help="label column of a CSV/Parquet problem")
    p.add_argument("--pos-label", help="positive class of a file problem (default: minority)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-analysis", action="store_true", help="store results only")
    return p


def run(args: argparse.Namespace) -> int:
    from measurelab.lab.study import run_study

    for name, v in (("--n-train", args.n_train), ("--n-valid", args.n_valid),
                    ("--n-test", args.n_test), ("--workers", args.workers or 1)):
        if v < 1:
            from measurelab.exceptions import MeasurelabError

            raise MeasurelabError(f"{name} must be a positive integer, got {v}")
    problems = [p.strip() for arg in args.problems for p in arg.split(",") if p.strip()]
    if not problems:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError("--problems is empty; give names such as sonar vote")
    res = run_study(
        problems, out=args.out, grid_name=args.grid, seed=args.seed,
        n_train=args.n_train, n_valid=args.n_valid, n_test=args.n_test, target=args.target,
        pos_label=args.pos_label, workers=args.workers, scheduler=args.scheduler,
        progress=not args.no_progress,
    )
    print(f"{res.n_models} models; {res.n_units_run} units trained, "
          f"{res.n_units_skipped} already stored; {res.wall_seconds:.1f} s "
          f"(train {res.train_seconds:.1f} s, evaluate {res.eval_seconds:.1f} s)")
    print(f"measures: {res.out / 'measures.parquet'}")
    if not args.no_analysis:
        from measurelab.lab.study.analysis import analyze

        an = analyze(res.out, problems=sorted(res.measures["problem"].unique()),
                     seed=args.seed)
        an.write(res.out / "analysis")
        print(f"analysis: {res.out / 'analysis'}")
        import pandas as pd

        with pd.option_context("display.width", 160, "display.max_columns", 20):
            print("\nnormalized score per algorithm (best on validation per measure):")
            print(an.tables["algorithms"].round(3).to_string())
            print("\nmodel selection by measure (normalized test scores):")
            print(an.tables["selection"].round(3).to_string())
    return 0
