"""``measurelab ranks`` on a fold-level file: one row per data set, model and fold (and
run), as ``compare_learners(...).fold_scores()`` writes it.

The ranks are of each model's mean over the folds; the runs of cross-validation are read
from the run column (never typed by hand); ``--bayes`` gives the correlated t-test per data
set (Nadeau & Bengio's ρ = 1/k) and the hierarchical model over data sets × folds.

Examples
--------
>>> import argparse, pandas as pd
>>> df = pd.DataFrame({"dataset": ["d"] * 4, "model": ["a", "a", "b", "b"],
...                    "fold": [0, 1, 0, 1], "score": [.8, .7, .6, .65]})
>>> args = argparse.Namespace(dataset_col="dataset", model_col=None, value_col=None,
...                           fold_col=None, run_col=None, measure=None, long=False)
>>> f = fold_file(df, args, "x.csv")
>>> f.means.to_dict(), f.runs, f.folds
({'a': {'d': 0.75}, 'b': {'d': 0.625}}, 1, 2)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError

#: the column names a fold-level file is recognised by, in order of preference
MODEL_COLS = ("model", "learner")
VALUE_COLS = ("score", "value")
RUN_COLS = ("run", "repeat")


def is_fold_level(args: argparse.Namespace, columns: list[str]) -> bool:
    """A fold-level file: ``--fold-col`` given, or a ``fold`` column beside a model one."""
    if args.fold_col is not None:
        return True
    return "fold" in columns and any(c in columns for c in MODEL_COLS)


@dataclass
class FoldFile:
    """What a fold-level file holds: per data set, each model's fold scores in (run, fold)
    order, their means (data sets × models), and which columns said so."""

    name: str
    columns: dict[str, str | None]
    measure: str | None
    cells: dict[str, Any]
    means: Any
    runs: int
    folds: int | None

    def describe(self) -> str:
        c = self.columns
        run = (f"run {c['run']!r} ({self.runs} runs)" if c["run"] else
               "no run column (one run)")
        folds = f"{self.folds} folds per run" if self.folds else "folds that differ by data set"
        meas = f", measure {self.measure!r} of column {c['measure']!r}" if self.measure else ""
        return (f"{self.name}: fold scores from columns data set {c['dataset']!r}, model "
                f"{c['model']!r}, score {c['value']!r}, fold {c['fold']!r}, {run}; {folds}"
                f"{meas}.")

    def higher_is_better(self, lower_flag: bool) -> bool:
        """The direction: the registry's for a measure it knows (``--lower-is-better``
        must agree), else the flag's."""
        from measurelab.measures.base import registry

        if self.measure is None:
            return not lower_flag
        try:
            m = registry.resolve(self.measure)[0]
        except MeasurelabError:
            return not lower_flag
        if lower_flag and m.higher_is_better:
            raise MeasurelabError(f"--lower-is-better: {self.measure} is a measure where "
                                  "higher is better")
        return bool(m.higher_is_better)

    def bayes(self, rope: float, seed: Any, higher: bool) -> tuple[Any, Any]:
        """(the correlated t-test per data set and pair, the hierarchical model per pair)."""
        import pandas as pd

        from measurelab.inference.bayes import bayes_compare

        if self.folds is None:
            raise MeasurelabError(f"{self.name}: the hierarchical model needs the same runs "
                                  "and folds on every data set")
        rng = np.random.default_rng(seed)
        models = list(self.means.columns)
        per, over = [], []
        for i, a in enumerate(models):
            for b in models[i + 1:]:
                for ds, (cells, runs) in self.cells.items():
                    r = bayes_compare(cells[a], cells[b], rope=rope, method="correlated-t",
                                      runs=runs, higher_is_better=higher, names=(a, b),
                                      random_state=rng)
                    per.append((ds, a, b, r.p_a_better, r.p_rope, r.p_b_better, r.verdict()))
                A = np.vstack([c[a] for c, _ in self.cells.values()])
                B = np.vstack([c[b] for c, _ in self.cells.values()])
                r = bayes_compare(A, B, rope=rope, method="hierarchical", runs=self.runs,
                                  higher_is_better=higher, names=(a, b), random_state=rng)
                over.append((a, b, r.p_a_better, r.p_rope, r.p_b_better, r.verdict()))
        cols = ["a", "b", "p_a_better", "p_rope", "p_b_better", "verdict"]
        return (pd.DataFrame(per, columns=["dataset", *cols]), pd.DataFrame(over, columns=cols))


def _pick(df: Any, name: str, flag: str, given: str | None, candidates: tuple[str, ...],
          required: bool = True) -> str | None:
    cols = [str(c) for c in df.columns]
    if given is not None:
        if given not in cols:
            raise MeasurelabError(f"{name}: no column {given!r} ({flag}; columns: "
                                  f"{', '.join(cols)})")
        return given
    for c in candidates:
        if c in cols:
            return c
    if required:
        raise MeasurelabError(f"{name}: no column {' or '.join(map(repr, candidates))} "
                              f"({flag}; columns: {', '.join(cols)})")
    return None


def fold_file(df: Any, args: argparse.Namespace, name: str) -> FoldFile:
    """Read a fold-level table (see the module's description)."""
    import pandas as pd

    cols = {"dataset": _pick(df, name, "--dataset-col", args.dataset_col, ("dataset",)),
            "model": _pick(df, name, "--model-col", args.model_col, MODEL_COLS),
            "value": _pick(df, name, "--value-col", args.value_col, VALUE_COLS),
            "fold": _pick(df, name, "--fold-col", args.fold_col, ("fold",)),
            "run": _pick(df, name, "--run-col", args.run_col, RUN_COLS, required=False)}
    used = set(cols.values())
    cols["measure"] = "measure" if "measure" in df.columns and "measure" not in used else None
    measure = None
    if cols["measure"] is not None:
        found = [str(m) for m in pd.unique(df["measure"])]
        if args.measure is not None:
            if args.measure not in found:
                raise MeasurelabError(f"{name}: --measure {args.measure!r} is not in column "
                                      f"'measure' ({', '.join(found)})")
            measure = args.measure
        elif len(found) == 1:
            measure = found[0]
        else:
            raise MeasurelabError(f"{name}: column 'measure' holds {', '.join(found)}; choose "
                                  "one with --measure")
        df = df[df["measure"].astype(str) == measure]
    values = pd.to_numeric(df[cols["value"]], errors="coerce")
    bad = ~np.isfinite(values.to_numpy(dtype=np.float64))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise MeasurelabError(f"{name}, row {df.index[i] + 2}: the score "
                              f"{df[cols['value']].iloc[i]!r} is not a finite number")
    value_col = cols["value"]
    assert value_col is not None  # a required column
    df = df.assign(**{value_col: values})
    run = cols["run"]
    if run is None:
        df = df.assign(_run=0)
        run = "_run"
    keys = [cols["dataset"], cols["model"], run, cols["fold"]]
    dup = df.duplicated(keys)
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        hint = "" if cols["run"] else " (runs of cross-validation need a run column: --run-col)"
        raise MeasurelabError(
            f"{name}, row {df.index[i] + 2}: data set {df[cols['dataset']].iloc[i]!r}, model "
            f"{df[cols['model']].iloc[i]!r} and fold {df[cols['fold']].iloc[i]!r} appear "
            f"twice{hint}")
    cells: dict[str, Any] = {}
    shapes = set()
    for ds, g in df.groupby(cols["dataset"], sort=False):
        wide = g.pivot(index=[run, cols["fold"]], columns=cols["model"], values=cols["value"])
        missing = wide.isna().to_numpy()
        if missing.any():
            i, j = (int(x) for x in np.argwhere(missing)[0])
            raise MeasurelabError(
                f"{name}: data set {ds!r} has no score of model {wide.columns[j]!r} at run "
                f"{wide.index[i][0]!r}, fold {wide.index[i][1]!r}; every model needs every fold")
        per_run = wide.groupby(level=0).size()
        if per_run.nunique() != 1:
            raise MeasurelabError(f"{name}: data set {ds!r} has runs with different numbers of "
                                  f"folds ({', '.join(map(str, per_run.tolist()))})")
        runs = int(per_run.size)
        shapes.add((runs, int(per_run.iloc[0])))
        cells[str(ds)] = ({str(m): wide[m].to_numpy(dtype=np.float64) for m in wide.columns},
                          runs)
    means = (df.groupby([cols["dataset"], cols["model"]], sort=False)[cols["value"]].mean()
             .unstack())
    means.index = [str(i) for i in means.index]
    means.columns = [str(c) for c in means.columns]
    (r, k), *more = sorted(shapes)
    return FoldFile(name, cols, measure, cells, means, r, None if more else k)
