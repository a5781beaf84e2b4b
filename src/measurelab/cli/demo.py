"""``measurelab demo``: the main job on bundled data, in well under a minute.

1. Load the bundled UCI ``credit-a`` data (690 credit applications, ``+`` = approved),
   impute and encode it with scikit-learn, split it 2:1 with a fixed seed.
2. Fit logistic regression, naive Bayes and a decision tree; write each model's test
   predictions as a perf-style file (``target prediction`` per line).
3. Evaluate every file with every measure through the same reader ``measurelab evaluate``
   uses, and print one column per model.
4. Write ``demo.md``, ``demo-measures.csv`` and ``demo-curves.png`` (ROC curves,
   precision–recall curves and a reliability diagram).
5. Run the cheap paper reproductions that are installed (an allow-list, see
   :data:`QUICK_REPRODUCTIONS`), print their reports and write them to ``OUT/<name>/``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

#: reproductions cheap enough for the demo (seconds each with quick=True)
QUICK_REPRODUCTIONS: tuple[str, ...] = (
    "sokolova2006",
    "hossin2011-table2",
    "huang2007-table4",
    "ling2003",
)
DATASET = "credit-a"
POSITIVE = "+"
SEED = 0


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "demo",
        help="evaluate three models on bundled data and run the quick reproductions",
        description=(
            "Fit three models on the bundled credit-a data, evaluate their test predictions "
            "with every measure, write a report with figures, then run the quick paper "
            "reproductions."
        ),
    )
    p.add_argument("--out", default="out/demo", metavar="DIR",
                   help="folder for the report (default out/demo)")
    p.add_argument("--no-reproductions", action="store_true",
                   help="skip the paper reproductions")
    return p


def run(args: argparse.Namespace) -> int:
    from measurelab.cli._options import output_folder

    output_folder(args.out, "--out")
    summary = run_demo(Path(args.out), reproductions=not args.no_reproductions)
    print(f"the demo's page: {Path(args.out) / 'demo.html'}")
    if summary["ran"]:
        from measurelab.lab.experiments import citations
        from measurelab.lab.report.site import write_index

        index = write_index(Path(args.out), order=summary["ran"],
                            settings={"settings": "quick (demo)"}, papers=citations())
        print(f"index of the reproductions: {index}")
    return 1 if summary["failed"] else 0


# ----------------------------------------------------------------------------- models
def fit_models(seed: int = SEED) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Test labels (1 = approved) and each model's test scores on credit-a.

    Examples
    --------
    >>> y, scores = fit_models()
    >>> y.shape, sorted(scores)
    ((230,), ['decision tree', 'logistic regression', 'naive Bayes'])
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    from measurelab.io import datasets

    X, target = datasets.load(DATASET)
    y = (target == POSITIVE).to_numpy().astype(np.int64)
    numeric = [c for c in X.columns if pd.api.types.is_numeric_dtype(X[c])]
    categorical = [c for c in X.columns if c not in numeric]
    X[categorical] = X[categorical].astype(object)
    prep = ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), numeric),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore", sparse_output=False)),
         categorical),
    ])
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=1 / 3, stratify=y,
                                              random_state=seed)
    models = {
        "logistic regression": LogisticRegression(max_iter=2000),
        "naive Bayes": GaussianNB(),
        "decision tree": DecisionTreeClassifier(min_samples_leaf=10, random_state=seed),
    }
    scores = {}
    for name, model in models.items():
        pipe = make_pipeline(prep, model).fit(X_tr, y_tr)
        scores[name] = pipe.predict_proba(X_te)[:, 1]
    return y_te, scores


def write_perf(path: Path, y: np.ndarray, s: np.ndarray) -> None:
    """Write ``target prediction`` lines (shortest round-trip text of each score)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(f"{a} {b!r}\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))
    from measurelab.io.files import atomic_write_text

    atomic_write_text(path, text)


# ----------------------------------------------------------------------------- figure
def curves_figure(y: np.ndarray, scores: dict[str, np.ndarray]) -> Any:
    """ROC curves, precision–recall curves and a reliability diagram, one line per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from measurelab.curves import precision_recall_curve, roc_curve
    from measurelab.stats.scoretable import ScoreTable

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    roc, pr, rel = axes
    for name, s in scores.items():
        t = ScoreTable.from_arrays(y == 1, s)
        fpr, tpr, _ = roc_curve(t)
        auc = float(np.trapezoid(tpr, fpr))
        roc.plot(fpr, tpr, lw=1.8, label=f"{name} (AUC {auc:.3f})")
        precision, recall, _ = precision_recall_curve(t)  # from (recall 0, precision 1)
        pr.step(recall[::-1], precision[::-1], where="post", lw=1.8, label=name)
        # reliability: ten equal-width bins of the predicted probability
        bins = np.minimum((s * 10).astype(int), 9)
        n = np.bincount(bins, minlength=10)
        ok = n > 0
        mean_p = np.bincount(bins, weights=s, minlength=10)[ok] / n[ok]
        frac = np.bincount(bins, weights=(y == 1), minlength=10)[ok] / n[ok]
        rel.plot(mean_p, frac, "o-", lw=1.5, ms=4, label=name)
    roc.plot([0, 1], [0, 1], ls="--", c="grey", lw=1, label="chance")
    roc.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC",
            xlim=(0, 1), ylim=(0, 1.01))
    prior = float(np.mean(y == 1))
    pr.axhline(prior, ls="--", c="grey", lw=1, label=f"prevalence {prior:.2f}")
    pr.set(xlabel="recall", ylabel="precision", title="Precision–recall",
           xlim=(0, 1), ylim=(0, 1.01))
    rel.plot([0, 1], [0, 1], ls="--", c="grey", lw=1, label="perfect calibration")
    rel.set(xlabel="mean predicted probability (10 bins)", ylabel="fraction positive",
            title="Reliability", xlim=(0, 1), ylim=(0, 1.01))
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
        ax.set_aspect("equal")
    fig.suptitle(f"credit-a test set (n = {y.size}), three models", fontsize=12)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- demo
def evaluate_models(files: dict[str, Path]) -> pd.DataFrame:
    """Every measure of every prediction file: rows = measures, one column per model."""
    from measurelab.io import evaluate_file
    from measurelab.measures.base import registry

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 measures are NaN; the table shows them
        cols = {name: dict(evaluate_file(f)) for name, f in files.items()}
    df = pd.DataFrame(cols)
    meta = registry.to_frame().reindex(df.index)
    df.insert(0, "kind", meta["kind"])
    df.insert(1, "better", meta["direction"])
    df.index.name = "measure"
    return df


def run_demo(
    out: Path,
    *,
    reproductions: bool | tuple[str, ...] = True,
    file: IO[str] | None = None,
) -> dict[str, Any]:
    """Run the demo into ``out``; returns the measure table, the files written and the
    reproductions run or failed.

    Examples
    --------
    >>> import tempfile, io
    >>> res = run_demo(Path(tempfile.mkdtemp()), reproductions=False, file=io.StringIO())
    >>> sorted(p.name for p in res["written"])  # doctest: +NORMALIZE_WHITESPACE
    ['decision-tree.txt', 'demo-comparison.html', 'demo-curves.png', 'demo-measures.csv',
     'demo.html', 'demo.md', 'logistic-regression.txt', 'naive-Bayes.txt']
    """
    from measurelab.cli._options import output_folder

    file = file or sys.stdout
    out = output_folder(out, "out")
    if not (isinstance(reproductions, bool) or (isinstance(reproductions, tuple) and all(
            isinstance(n, str) for n in reproductions))):
        from measurelab.exceptions import MeasurelabTypeError

        raise MeasurelabTypeError(f"reproductions must be True, False or a tuple of names, "
                                  f"got {reproductions!r:.60}")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    y, scores = fit_models()
    files = {}
    for name, s in scores.items():
        f = out / "predictions" / f"{name.replace(' ', '-')}.txt"
        write_perf(f, y, s)
        files[name] = f
    table = evaluate_models(files)
    print(f"== {DATASET}: {y.size} test cases ({int(y.sum())} positive), "
          f"predictions in {out / 'predictions'}", file=file)
    with pd.option_context("display.width", 200, "display.max_rows", 200):
        print(table.to_string(float_format=lambda v: f"{v:.4f}"), file=file)
    print(file=file)

    from measurelab.io.files import atomic_write_text

    written = [*files.values()]
    csv = out / "demo-measures.csv"
    atomic_write_text(csv, table.to_csv())
    fig = curves_figure(y, scores)
    png = out / "demo-curves.png"
    from measurelab.io.files import atomic_write_with

    atomic_write_with(png, lambda tmp: fig.savefig(tmp, format="png", dpi=110,
                                                   bbox_inches="tight"))
    import matplotlib.pyplot as plt

    plt.close(fig)
    written += [csv, png]
    comparison, page, summary_text = compare_demo_models(y, scores, out, file)
    written.append(page)

    ran, failed = _run_reproductions(out, reproductions, file)
    md = out / "demo.md"
    atomic_write_text(md, _markdown(table, y, files, out, ran, failed, comparison))
    written.append(md)
    html_page = out / "demo.html"
    atomic_write_text(html_page, _html(table, y, ran, failed, summary_text))
    written.append(html_page)
    print(f"demo written to {out} in {time.perf_counter() - t0:.1f} s", file=file)
    return {"table": table, "written": written, "ran": ran, "failed": failed}


#: measures of the demo's comparison (one of each family; every measure is in the table)
COMPARE_MEASURES = ("acc", "f1", "mcc", "auc", "apr", "rms", "mxe", "cal")


def compare_demo_models(y: np.ndarray, scores: dict[str, np.ndarray], out: Path,
                        file: IO[str]) -> tuple[str, Path, str]:
    """Compare the three models honestly (docs/METHODS.md#comparing): intervals, paired tests with
    Holm,
    verdicts; print the tests, write ``demo-comparison.html``, return a markdown section,
    the page and the comparison's summary in words."""
    from measurelab.inference.classifiers.compare import compare_classifiers

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = compare_classifiers(y, scores, measures=list(COMPARE_MEASURES), ci=0.95,
                                  n_boot=1000, random_state=SEED, progress=False)
        tests = cmp.tests().drop(columns=["se", "z"])
        prefs = cmp.preferences()
        ivs = cmp.intervals()
        verdicts = cmp.verdicts()
        page = cmp.to_html(out / "demo-comparison.html", title=f"{DATASET}: three models")
        summary_text = cmp.summary()
    fmt = {"float_format": lambda v: f"{v:.4f}"}
    print("== paired tests (diff = a - b, 95% intervals, p Holm-adjusted over all rows)",
          file=file)
    print(tests.to_string(index=False, **fmt), file=file)
    print(file=file)
    ivs["interval"] = [f"{v:.3f} [{lo:.3f}, {hi:.3f}]"
                       for v, lo, hi in zip(ivs["value"], ivs["lo"], ivs["hi"], strict=True)]
    wide = ivs.pivot(index="measure", columns="model", values="interval").reindex(
        list(COMPARE_MEASURES))[list(scores)]
    methods = ivs.drop_duplicates("measure").set_index("measure")["method"]
    wide.insert(0, "method", methods.reindex(wide.index))
    n_sig = int(prefs["significant"].sum())
    best = prefs.loc[prefs["prefers"] != "", "prefers"].unique().tolist()
    lines = [
        "## Are the differences real?",
        "",
        "95% intervals (the method column names each: Wilson for accuracy, the posterior of "
        "the confusion cells for the other measures of the counts, DeLong on the logit scale "
        "for AUC, a BCa bootstrap of the cases, 1000 replicates, for the rest):",
        "",
        wide.to_markdown(),
        "",
        "Paired tests for every pair of models (DeLong for AUC, McNemar's score test for "
        "accuracy, the posterior of the joint confusion cells for the other measures of "
        "the counts, a paired bootstrap otherwise), Holm-adjusted over all rows:",
        "",
        tests.to_markdown(index=False, floatfmt=".4f"),
        "",
        "Which model each measure prefers:",
        "",
        prefs.to_markdown(index=False, floatfmt=".4f"),
        "",
        (f"Every measure prefers {best[0]}" if len(best) == 1 else
         f"The measures disagree: they prefer {', '.join(best)}")
        + f"; against the runner-up the preference is significant (Holm) for {n_sig} of "
        f"{len(prefs)} measures. The `beats` column lists the models each preferred one is "
        "significantly better than.",
        "",
        "Likelihood verdicts and discriminant-power bands (Sokolova 2006):",
        "",
        verdicts.to_markdown(index=False, floatfmt=".3f"),
        "",
        "All of it on one page, with ROC and precision–recall bands and a reliability "
        "diagram: [demo-comparison.html](demo-comparison.html).",
    ]
    return "\n".join(lines), page, summary_text


def _run_reproductions(
    out: Path, which: bool | tuple[str, ...], file: IO[str]
) -> tuple[list[str], list[str]]:
    if which is False:
        return [], []
    from measurelab.lab import experiments

    names = QUICK_REPRODUCTIONS if which is True else tuple(which)
    present = set(experiments.available())
    ran, failed = [], []
    for name in names:
        if name not in present:
            continue  # module not written yet
        try:
            from measurelab.progress import heartbeat

            t0 = time.perf_counter()
            with heartbeat(f"measurelab demo: {name}"):
                report = experiments.get(name)(out / name, quick=True, full=False,
                                               progress=False)
            report.seconds = time.perf_counter() - t0
            for key, value in (("quick", True), ("full", False)):
                report.meta.setdefault(key, value)  # every run states how it ran
            report.print(file)
            report.write(out / name)
            ran.append(name)
        except Exception as exc:  # one reproduction's failure must not hide the others
            msg = " ".join(str(exc).split())
            print(f"measurelab demo: reproduction {name} failed: {type(exc).__name__}: {msg}",
                  file=sys.stderr)
            failed.append(name)
    return ran, failed


def _html(table: pd.DataFrame, y: np.ndarray, ran: list[str], failed: list[str],
          summary: str) -> str:
    """The demo's own page, in the shared look: what was run, the comparison's answer in
    words, every measure per model, the curves, and links to the comparison page and the
    reproductions."""
    from measurelab import pages

    esc = pages.escape
    parts = [
        f"<p class='lead'>Bundled UCI data set <code>{esc(DATASET)}</code> (credit approval; "
        f"positive class <code>{esc(POSITIVE)}</code>), split 2:1 with seed {SEED}: "
        f"{y.size} test cases, {int(y.sum())} positive; three scikit-learn models.</p>",
        "<h2>Are the differences real?</h2>",
        "<ul class='summary'>" + "".join(f"<li>{esc(x)}</li>" for x in summary.splitlines())
        + "</ul>",
        "<p>Intervals, paired tests, curves and confusion matrices: "
        "<a href='demo-comparison.html'>the comparison page</a>.</p>",
        "<h2>Curves</h2>", pages.figure("demo-curves.png", "ROC, precision-recall and "
                                        "reliability curves of the three models"),
        "<h2>Every measure</h2>",
        pages.details(f"Every measure, one column per model ({len(table)} rows)",
                      pages.table(table, sortable=True)),
    ]
    if ran or failed:
        parts.append("<h2>Paper reproductions (quick settings)</h2>")
        parts.append("<p><a href='index.html'>All reproductions</a>: "
                     + ", ".join(f"<a href='{esc(n)}/{esc(n)}.html'>{esc(n)}</a>" for n in ran)
                     + "".join(f"; {esc(n)} failed" for n in failed) + ".</p>")
    return pages.document("measurelab demo", "\n".join(parts))


def _markdown(table: pd.DataFrame, y: np.ndarray, files: dict[str, Path], out: Path,
              ran: list[str], failed: list[str], comparison: str = "") -> str:
    rel = {n: f.relative_to(out).as_posix() for n, f in files.items()}
    lines = [
        "# measurelab demo",
        "",
        f"Bundled UCI data set `{DATASET}` (credit approval; positive class `{POSITIVE}`), "
        f"split 2:1 with seed {SEED}: {y.size} test cases, {int(y.sum())} positive. "
        "Numeric features: median imputation and standardisation; categorical: most "
        "frequent value and one-hot encoding. Hard predictions: score > 0.5.",
        "",
        "Predictions (perf format, `target prediction`): "
        + ", ".join(f"[{n}]({p})" for n, p in rel.items())
        + ". Evaluate one again with `measurelab evaluate FILE`.",
        "",
        "## Every measure, one column per model",
        "",
        table.to_markdown(floatfmt=".4f"),
        "",
        "`better` tells the direction; `nan` marks a measure undefined for the input "
        "(for example a likelihood ratio with 0/0).",
        "",
        "## Curves",
        "",
        "![ROC, precision–recall and reliability](demo-curves.png)",
        "",
    ]
    if comparison:
        lines += [comparison, ""]
    if ran or failed:
        lines += ["## Paper reproductions (quick settings)", ""]
        lines += [f"- [{n}]({n}/)" for n in ran]
        lines += [f"- {n}: failed (see the terminal output)" for n in failed]
        lines.append("")
    return "\n".join(lines)
