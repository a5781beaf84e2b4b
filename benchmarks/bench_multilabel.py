"""Multi-label evaluation against scikit-learn, and a 3-model comparison (issue 43).

1. **Evaluation**: n cases × L labels, every multi-label measure (hamming_loss,
   subset_acc, jaccard, prec, sens, f1, f_beta@2, acc, auc, ap, lrap, coverage_error,
   ranking_loss) under every average ('micro', 'macro', 'weighted', 'samples', None):
   ``measurelab.evaluate`` (one summary, then every measure and average from it) against
   the scikit-learn calls that give the same numbers (``precision_score``, ``recall_score``,
   ``f1_score``, ``fbeta_score``, ``jaccard_score``, ``roc_auc_score``,
   ``average_precision_score`` per average; ``hamming_loss``, ``accuracy_score``,
   ``label_ranking_average_precision_score``, ``coverage_error``, ``label_ranking_loss``;
   per-label accuracy has no scikit-learn call and is left out of its side). The values
   are checked equal (1e-9) and the ratio printed. The issue's bar: ≥ 5× at
   n = 10⁶, L = 50.
2. **Comparison**: three models, ``compare_classifiers(Y, models, n_boot=B).tests()``
   (every interval and paired test of the default rows). The issue's bar: < 30 s at
   n = 10⁴, L = 20, B = 1000 on two cores.

scikit-learn's samples-averaged AUC and AP and its label-ranking measures loop over the
cases in Python, so its side grows fast with n: ``--n`` smaller on a loaded machine.

Run::

    .venv/bin/python benchmarks/bench_multilabel.py --n 1000000 --labels 50
    .venv/bin/python benchmarks/bench_multilabel.py --skip-eval --cmp-n 10000 --cmp-labels 20
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import measurelab as ml

MEASURES = ["hamming_loss", "subset_acc", "jaccard", "prec", "sens", "f1", "f_beta@2", "acc",
            "auc", "ap", "lrap", "coverage_error", "ranking_loss"]
AVERAGES = ["micro", "macro", "weighted", "samples", None]


def data(n: int, L: int, seed: int = 0, models: int = 1
         ) -> tuple[np.ndarray, list[np.ndarray]]:
    """Correlated labels (a shared case factor) and scores of different quality; every
    case has a true label and a false one (scikit-learn's samples AUC needs both)."""
    g = np.random.default_rng(seed)
    z = g.normal(size=(n, 1))
    base = np.linspace(-1.2, 0.2, L)
    Y = (0.8 * z + g.normal(size=(n, L)) + base) > 0
    Y[~Y.any(axis=1), 0] = True
    Y[Y.all(axis=1), -1] = False
    out = []
    for q in (1.5, 1.1, 0.8)[:models]:
        x = q * Y + g.normal(size=(n, L))
        out.append(np.round(1.0 / (1.0 + np.exp(-(x - q / 2))), 4))   # some ties
    return Y, out


def ours(Y: np.ndarray, S: np.ndarray) -> dict[tuple[str, str | None], float | np.ndarray]:
    from measurelab.measures.multilabel import compute_multilabel
    from measurelab.metrics.multilabel import multilabel_stats

    st = multilabel_stats(Y, S)
    out = {}
    for avg in AVERAGES:
        r = compute_multilabel(st, MEASURES, average=avg)
        for k, v in r.items():
            out[(k, avg)] = v
    return out


def sklearn_side(Y: np.ndarray, S: np.ndarray) -> dict[tuple[str, str | None], object]:
    from sklearn import metrics as skm

    P = S > 0.5
    out: dict[tuple[str, str | None], object] = {}
    for avg in AVERAGES:
        out[("prec", avg)] = skm.precision_score(Y, P, average=avg, zero_division=0)
        out[("sens", avg)] = skm.recall_score(Y, P, average=avg, zero_division=np.nan)
        out[("f1", avg)] = skm.f1_score(Y, P, average=avg, zero_division=0)
        out[("f_beta@2", avg)] = skm.fbeta_score(Y, P, beta=2, average=avg, zero_division=0)
        out[("jaccard", avg)] = skm.jaccard_score(Y, P, average=avg, zero_division=0)
        out[("auc", avg)] = skm.roc_auc_score(Y, S, average=avg)
        out[("ap", avg)] = skm.average_precision_score(Y, S, average=avg)
    out[("hamming_loss", "macro")] = skm.hamming_loss(Y, P)
    out[("subset_acc", "macro")] = skm.accuracy_score(Y, P)
    out[("lrap", "macro")] = skm.label_ranking_average_precision_score(Y, S)
    out[("coverage_error", "macro")] = skm.coverage_error(Y, S)
    out[("ranking_loss", "macro")] = skm.label_ranking_loss(Y, S)
    return out


def bench_eval(n: int, L: int, ours_only: bool = False) -> None:
    Y, (S,) = data(n, L)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0, c0 = time.perf_counter(), time.process_time()
        a = ours(Y, S)
        t_ours, c_ours = time.perf_counter() - t0, time.process_time() - c0
        if ours_only:
            print(f"evaluation n={n:,} L={L}: measurelab {t_ours:.2f} s wall, {c_ours:.2f} s "
                  "CPU (13 measures x 5 averages; scikit-learn not run)")
            return
        t0, c0 = time.perf_counter(), time.process_time()
        b = sklearn_side(Y, S)
        t_sk, c_sk = time.perf_counter() - t0, time.process_time() - c0
    worst = max(float(np.nanmax(np.abs(np.asarray(a[k], float) - np.asarray(v, float))))
                for k, v in b.items())
    print(f"evaluation n={n:,} L={L}: measurelab {t_ours:.2f} s wall / {c_ours:.2f} s CPU "
          f"(13 measures x 5 averages), scikit-learn {t_sk:.2f} s wall / {c_sk:.2f} s CPU "
          f"({len(b)} calls); ratio {t_sk / t_ours:.1f}x wall, {c_sk / c_ours:.1f}x CPU; "
          f"largest difference {worst:.1e}")
    assert worst < 1e-9, worst


def bench_compare(n: int, L: int, n_boot: int, n_jobs: int = 1) -> None:
    Y, S = data(n, L, seed=1, models=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0, c0 = time.perf_counter(), time.process_time()
        r = ml.compare_classifiers(Y, dict(zip("abc", S, strict=True)), n_boot=n_boot,
                                   progress=False, n_jobs=n_jobs)
        r.tests()
        t, c = time.perf_counter() - t0, time.process_time() - c0
    print(f"comparison of 3 models, n={n:,} L={L} B={n_boot} n_jobs={n_jobs}: {t:.1f} s wall, "
          f"{c:.1f} s CPU "
          f"({len(r._names_m)} rows, {len(r.tests())} paired tests)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--labels", type=int, default=50)
    ap.add_argument("--cmp-n", type=int, default=10_000)
    ap.add_argument("--cmp-labels", type=int, default=20)
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--n-jobs", type=int, default=1,
                    help="threads of the comparison's bootstrap (2: both cores)")
    ap.add_argument("--skip-eval", action="store_true")
    ap.add_argument("--skip-compare", action="store_true")
    ap.add_argument("--ours-only", action="store_true",
                    help="time measurelab's evaluation alone (scikit-learn's side is slow)")
    a = ap.parse_args()
    if not a.skip_eval:
        bench_eval(a.n, a.labels, a.ours_only)
    if not a.skip_compare:
        bench_compare(a.cmp_n, a.cmp_labels, a.n_boot, a.n_jobs)


if __name__ == "__main__":
    main()
