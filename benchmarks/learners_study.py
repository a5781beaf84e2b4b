"""Simulation study: do the tests of ``compare_learners`` hold their level, and do its
intervals cover what they claim?

**Size.** Two learners of equal expected performance — the same randomized decision tree
(a random subset of √p features per split, leaves of at least 5 cases) with two seeds drawn
anew for every data set — on data sets drawn anew each time (scikit-learn's
``make_classification``, features shuffled, so no seed is favoured). Two seeds fixed for a
data set make two slightly different algorithms on it, equal only on average over data
sets; a second cell ("fresh") gives each learner fresh randomness at every fit (its seed a
hash of the training set and of the learner's own seed), so the two are the same algorithm
and the null holds on every data set. Every offered test is
run at level 0.05 on acc, auc and brier: the corrected repeated k-fold t (stratified 10-fold
× 10), nested cross-validation (the same folds; acc and brier, the measures that are means
over cases), Dietterich's 5×2cv paired t and Alpaydin's combined 5×2cv F. Beside them, the
plain t that the library does not offer: over the 100 folds of 10 × 10 and over the 10
folds of one 10-fold run (Dietterich's setting). Under the null every rejection rate should
be at most 0.05 up to Monte Carlo error.

**Coverage.** Logistic regression on a logistic model (x ~ N(0, I₁₀), logit P(y = 1 | x) =
0.5·(x₁ + … + x₅)) at n = 100, 300 and 1,000; the error rate (err) and the Brier score of
the model. Two targets: Err_XY, the error of the model fitted on the data at hand
(computed on 200,000 fresh cases, with the expectation over y taken exactly), and Err, its
mean over training sets (the mean of Err_XY over the cell's data sets). Three intervals:
nested CV (10 folds × 10 repetitions), the library's corrected t of the fold scores, and the
naive CV interval mean(e) ± z·sd(e)/√n of one 10-fold run (what the usual practice
reports). Levels 0.90 (the literature's) and 0.95.

Every unit (a cell's block of data sets) is written atomically to ``--cache`` as JSON and a
rerun resumes; data set i of a cell always gets the same seed, so a resumed run gives the
same table. The report (``--out``) is docs/learners_study.md.

Run (the full study; about an hour on one core, longer on a shared machine)::

    nice -n 15 .venv/bin/python benchmarks/learners_study.py --size-sims 1000 \\
        --fresh-sims 300 --coverage-sims 300 --out docs/learners_study.md

A tiny check of the harness::

    .venv/bin/python benchmarks/learners_study.py --size-sims 4 --fresh-sims 2 --coverage-sims 4 \\
        --coverage-n 100 --per-unit 2 --out /tmp/learners.md --cache /tmp/learners-cache
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")  # one core per run: the fits are small

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from measurelab import compare_learners  # noqa: E402
from measurelab.inference.learners.cvstats import corrected_t  # noqa: E402
from measurelab.io.files import atomic_write_text  # noqa: E402
from measurelab.progress import progress_bar  # noqa: E402

SIZE_MEASURES = ("acc", "auc", "brier")
NESTED_MEASURES = ("acc", "brier")
COVER_MEASURES = ("err", "brier")
LEVELS = (0.90, 0.95)
ALPHA = 0.05
#: the size study's data sets: cases, features
SIZE_N, SIZE_P = 200, 10
#: the coverage study's model: features, informative ones, their coefficient
COVER_P, COVER_INFORMATIVE, COVER_BETA = 10, 5, 0.5
FRESH = 200_000


# ------------------------------------------------------------------------- size
def _tree(seed: int) -> Any:
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(max_features="sqrt", min_samples_leaf=5, random_state=seed)


class FreshTree:
    """The randomized tree drawing fresh randomness at every fit: its seed is a hash of
    the training set and of ``base`` (so runs repeat, yet two learners with different
    ``base`` are one algorithm)."""

    _estimator_type = "classifier"

    def __init__(self, base: int = 0) -> None:
        self.base = base

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {"base": self.base}

    def set_params(self, **params: Any) -> FreshTree:
        self.base = params.get("base", self.base)
        return self

    def fit(self, X: np.ndarray, y: np.ndarray) -> FreshTree:
        import zlib

        h = zlib.crc32(np.ascontiguousarray(X).tobytes()) ^ zlib.crc32(y.tobytes())
        seed = int(np.random.SeedSequence([self.base, h]).generate_state(1)[0])
        self.tree_ = _tree(seed).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        return self.tree_.predict_proba(X)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.tree_.predict(X)


def _trees(rng: np.random.Generator, fresh: bool) -> dict[str, Any]:
    sa, sb = (int(s) for s in rng.integers(0, 2**31 - 1, size=2))
    make = FreshTree if fresh else _tree
    return {"a": make(sa), "b": make(sb)}


def size_one(seed: int, fresh: bool = False) -> dict[str, float]:
    """The p-values of every test on one data set."""
    from scipy import stats
    from sklearn.datasets import make_classification

    rng = np.random.default_rng(seed)
    X, y = make_classification(n_samples=SIZE_N, n_features=SIZE_P, n_informative=4,
                               n_redundant=2, flip_y=0.05, class_sep=1.0,
                               random_state=int(rng.integers(2**31 - 1)))
    ests = _trees(rng, fresh)
    out: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        split_seed = int(rng.integers(2**31 - 1))
        r = compare_learners(ests, X, y, measures=list(SIZE_MEASURES), method="nested-cv",
                             random_state=split_seed, progress=False)
        t = r.tests()
        for m in NESTED_MEASURES:
            out[f"nested-cv|{m}"] = float(t.loc[t.measure == m, "p"].iloc[0])
        f = r.fold_scores()
        ratio = float((f.n_test / f.n_train).mean())
        for m in SIZE_MEASURES:
            sa = f[(f.learner == "a") & (f.measure == m)].value.to_numpy()
            sb = f[(f.learner == "b") & (f.measure == m)].value.to_numpy()
            d = sa - sb
            out[f"corrected-t|{m}"] = corrected_t(d, test_train_ratio=ratio).pvalue
            out[f"plain t, 10x10|{m}"] = _plain_t(d, stats)
            out[f"plain t, 10-fold|{m}"] = _plain_t(d[:10], stats)
        r5 = compare_learners(ests, X, y, cv="5x2", measures=list(SIZE_MEASURES),
                              random_state=split_seed, progress=False)
        t5 = r5.tests()
        for row in t5.itertuples(index=False):
            out[f"{row.method}|{row.measure}"] = float(row.p)
    return out


def _plain_t(d: np.ndarray, stats: Any) -> float:
    if np.all(d == d[0]):
        return 1.0 if d[0] == 0 else 0.0
    return float(stats.ttest_1samp(d, 0.0).pvalue)


# --------------------------------------------------------------------- coverage
def _draw(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X = rng.standard_normal((n, COVER_P))
    p = 1.0 / (1.0 + np.exp(-COVER_BETA * X[:, :COVER_INFORMATIVE].sum(axis=1)))
    return X, (rng.random(n) < p).astype(int), p


_FRESH: tuple[np.ndarray, np.ndarray] | None = None


def _fresh() -> tuple[np.ndarray, np.ndarray]:
    global _FRESH
    if _FRESH is None:
        X, _y, p = _draw(FRESH, np.random.default_rng(2**20))
        _FRESH = (X, p)
    return _FRESH


def coverage_one(n: int, seed: int) -> dict[str, Any]:
    """One data set: the intervals and the error of the model fitted on it."""
    from scipy import stats
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    rng = np.random.default_rng(seed)
    X, y, _p = _draw(n, rng)
    est = LogisticRegression()
    out: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = compare_learners({"lr": est, "prior": DummyClassifier()}, X, y,
                             measures=list(COVER_MEASURES), method="nested-cv",
                             random_state=int(rng.integers(2**31 - 1)), progress=False)
        iv = r.intervals().set_index(["learner", "measure"])
        # the usual practice: one 10-fold run, mean(e) ± z·sd(e)/√n of the per-case losses
        q_cv = cross_val_predict(est, X, y, method="predict_proba", cv=StratifiedKFold(
            10, shuffle=True, random_state=int(rng.integers(2**31 - 1))))[:, 1]
        losses = {"err": ((q_cv > 0.5) != y).astype(float), "brier": (q_cv - y) ** 2}
        Xf, pf = _fresh()
        q = est.fit(X, y).predict_proba(Xf)[:, 1]
    out["err_xy|err"] = float(np.mean(np.where(q > 0.5, 1.0 - pf, pf)))
    out["err_xy|brier"] = float(np.mean(pf * (1 - q) ** 2 + (1 - pf) * q**2))
    df = r.n_repeats * (r.n_folds or 0) - 1
    for m in COVER_MEASURES:
        row = iv.loc[("lr", m)]
        assert row["method"] == "nested-cv"
        # the corrected t of the same fold scores (the library's default interval)
        s = r.fold_scores()
        s = s[(s.learner == "lr") & (s.measure == m)]
        ratio = float((s.n_test / s.n_train).mean())
        e = losses[m]
        for level in LEVELS:
            z = float(stats.norm.ppf(0.5 + level / 2))
            out[f"nested-cv|{m}|{level}"] = [row["value"] - z * row["se"],
                                             row["value"] + z * row["se"]]
            c = corrected_t(s.value.to_numpy(), test_train_ratio=ratio, ci=level)
            assert c.df == df
            out[f"corrected-t|{m}|{level}"] = [c.lo, c.hi]
            half = z * float(e.std(ddof=1)) / math.sqrt(e.size)
            out[f"naive CV|{m}|{level}"] = [float(e.mean()) - half, float(e.mean()) + half]
    return out


# ------------------------------------------------------------------------ units
def units(args: argparse.Namespace) -> list[tuple[str, int, int]]:
    """(study, n, first data set) of every unit."""
    out = [("size", SIZE_N, i) for i in range(0, args.size_sims, args.per_unit)]
    out += [("size-fresh", SIZE_N, i) for i in range(0, args.fresh_sims, args.per_unit)]
    out += [("coverage", n, i) for n in args.coverage_n
            for i in range(0, args.coverage_sims, args.per_unit)]
    return out


STUDIES = {"size": 0, "coverage": 1, "size-fresh": 2}


def _sims(args: argparse.Namespace, study: str) -> int:
    return {"size": args.size_sims, "size-fresh": args.fresh_sims,
            "coverage": args.coverage_sims}[study]


def run_unit(study: str, n: int, first: int, count: int, seed: int) -> list[dict[str, Any]]:
    rows = []
    for i in range(first, first + count):
        s = int(np.random.SeedSequence([seed, STUDIES[study], n, i]).generate_state(1)[0])
        rows.append(coverage_one(n, s) if study == "coverage" else
                    size_one(s, fresh=study == "size-fresh"))
    return rows


def _unit_path(cache: Path, study: str, n: int, first: int, count: int, seed: int) -> Path:
    return cache / f"{study}-n{n}-seed{seed}-{first:05d}-{count}.json"


# ----------------------------------------------------------------------- report
def _mc(rate: float, m: int) -> float:
    return math.sqrt(max(rate * (1 - rate), 1e-12) / m) if m else math.nan


def report(cache: Path, args: argparse.Namespace, elapsed: dict[str, float]) -> str:
    loaded: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for study, n, first in units(args):
        count = min(args.per_unit, _sims(args, study) - first)
        p = _unit_path(cache, study, n, first, count, args.seed)
        if p.exists():
            loaded.setdefault((study, n), []).extend(json.loads(p.read_text())["rows"])
    lines = ["# Comparing learning algorithms: size and coverage by simulation", "",
             "What `compare_learners` claims, measured. Made by "
             "`benchmarks/learners_study.py` (its docstring states the design):", "",
             "```sh", f"nice -n 15 .venv/bin/python benchmarks/learners_study.py "
             f"--size-sims {args.size_sims} --fresh-sims {args.fresh_sims} "
             f"--coverage-sims {args.coverage_sims} "
             f"--coverage-n {' '.join(map(str, args.coverage_n))} --seed {args.seed} "
             f"--out docs/learners_study.md", "```", ""]
    lines += _size_table(loaded.get(("size", SIZE_N), []),
                         "two seeds fixed per data set (equal on average over data sets)")
    lines += _size_table(loaded.get(("size-fresh", SIZE_N), []),
                         "fresh randomness at every fit (the null holds on every data set)")
    lines += _coverage_tables({n: loaded.get(("coverage", n), []) for n in args.coverage_n})
    took = ", ".join(f"{k} {v / 60:.0f} min" for k, v in elapsed.items() if v > 0)
    if took:
        lines += ["", f"Compute time of this run's new units (one process): {took}."]
    return "\n".join(lines) + "\n"


def _size_table(rows: list[dict[str, float]], what: str) -> list[str]:
    m = len(rows)
    out = [f"## Size: two learners of equal expected performance, {what}", "",
           f"{m} data sets of {SIZE_N} cases ({SIZE_P} features); rejection rate at "
           f"α = {ALPHA} (± its Monte Carlo standard error). Offered tests first; the plain t "
           "is not offered and shown for what it costs. \"both 5x2cv\": both 5×2cv tests "
           "reject, which is when the summary calls a 5×2 difference significant.", "",
           "| test | " + " | ".join(SIZE_MEASURES) + " |",
           "|---|" + "---|" * len(SIZE_MEASURES)]
    if not m:
        return [*out, "", "(no data sets yet)", ""]
    tests = ["corrected-t", "nested-cv", "5x2cv-paired-t", "5x2cv-combined-F",
             "plain t, 10x10", "plain t, 10-fold"]
    for r in rows:
        for meas in SIZE_MEASURES:
            r[f"both 5x2cv|{meas}"] = max(r[f"5x2cv-paired-t|{meas}"],
                                          r[f"5x2cv-combined-F|{meas}"])
    tests.insert(4, "both 5x2cv")
    for t in tests:
        cells = []
        for meas in SIZE_MEASURES:
            ps = [r[f"{t}|{meas}"] for r in rows if f"{t}|{meas}" in r]
            ps = [p for p in ps if p == p]
            if not ps:
                cells.append("—")
                continue
            rate = float(np.mean(np.asarray(ps) < ALPHA))
            cells.append(f"{rate:.3f} ± {_mc(rate, len(ps)):.3f}")
        label = t if not t.startswith("plain") else f"{t} (not offered)"
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return [*out, ""]


def _coverage_tables(by_n: dict[int, list[dict[str, Any]]]) -> list[str]:
    out = ["## Coverage: the error of logistic regression", "",
           f"Logistic model, {COVER_P} features ({COVER_INFORMATIVE} informative); each cell "
           "the share of data sets whose interval contains the target (± Monte Carlo "
           "standard error), and the mean width. Err_XY: the fitted model's error on fresh "
           "cases; Err: its mean over the cell's data sets.", ""]
    methods = ("nested-cv", "corrected-t", "naive CV")
    for meas in COVER_MEASURES:
        for level in LEVELS:
            out += [f"### {meas}, {round(100 * level)}% intervals", "",
                    "| n | data sets | Err | interval | covers Err_XY | covers Err | "
                    "mean width |", "|---|---|---|---|---|---|---|"]
            for n, rows in by_n.items():
                if not rows:
                    continue
                xy = np.array([r[f"err_xy|{meas}"] for r in rows])
                err = float(xy.mean())
                for meth in methods:
                    iv = np.array([r[f"{meth}|{meas}|{level}"] for r in rows], dtype=float)
                    c_xy = float(np.mean((iv[:, 0] <= xy) & (xy <= iv[:, 1])))
                    c_e = float(np.mean((iv[:, 0] <= err) & (err <= iv[:, 1])))
                    width = float(np.mean(iv[:, 1] - iv[:, 0]))
                    out.append(f"| {n} | {len(rows)} | {err:.4f} | {meth} | "
                               f"{c_xy:.3f} ± {_mc(c_xy, len(rows)):.3f} | "
                               f"{c_e:.3f} ± {_mc(c_e, len(rows)):.3f} | {width:.4f} |")
            out.append("")
    return out


# ------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-sims", type=int, default=1000)
    ap.add_argument("--fresh-sims", type=int, default=300)
    ap.add_argument("--coverage-sims", type=int, default=300)
    ap.add_argument("--coverage-n", type=int, nargs="+", default=[100, 300, 1000])
    ap.add_argument("--per-unit", type=int, default=10, help="data sets per cached unit")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default="out/learners-study")
    ap.add_argument("--out", default=None, help="write the report here (else print it)")
    ap.add_argument("--only", choices=tuple(STUDIES), nargs="+", default=None,
                    help="run only this study's units (two processes can share the cache)")
    ap.add_argument("--reverse", action="store_true",
                    help="run the units last first (a second process sharing the cache)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    todo = []
    for study, n, first in units(args):
        count = min(args.per_unit, _sims(args, study) - first)
        if args.only and study not in args.only:
            continue
        if not _unit_path(cache, study, n, first, count, args.seed).exists():
            todo.append((study, n, first, count))
    if args.reverse:
        todo.reverse()
    elapsed = dict.fromkeys(STUDIES, 0.0)
    bar = progress_bar(len(todo), desc="learners study", unit="unit",
                       enabled=not args.no_progress)
    for study, n, first, count in todo:
        if _unit_path(cache, study, n, first, count, args.seed).exists():
            bar.update(1)  # another process sharing the cache made it meanwhile
            continue
        t0 = time.perf_counter()
        rows = run_unit(study, n, first, count, args.seed)
        elapsed[study] += time.perf_counter() - t0
        atomic_write_text(_unit_path(cache, study, n, first, count, args.seed),
                          json.dumps({"study": study, "n": n, "first": first, "rows": rows}))
        bar.update(1)
    bar.close()
    text = report(cache, args, elapsed)
    if args.out:
        atomic_write_text(Path(args.out), text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
