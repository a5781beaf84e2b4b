"""Benchmark of a comparison's page (a script, not a test).

A hold-out comparison of three models at n = 1,000 (binary, and a 3-class one): the
comparison's own compute (values, intervals, paired tests, summary with its calibration
test), then ``to_html``; the page's time is split into building the figures (their
matplotlib artists and the numbers they draw: curve bands, reliability bands, decision
curves) and rendering them (once each, as the PNG the page embeds and writes beside it).
Target (issue 45): the binary page in at most 2x the comparison's own time + 2 s; printed
as the ratio page / (2 x compute + 2 s), which should be at most 1.

Run: ``nice .venv/bin/python benchmarks/bench_page.py``.
"""

from __future__ import annotations

import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import measurelab as ml
from measurelab import pages
from measurelab.inference._figures import pyplot
from measurelab.inference.classifiers import _report as report


def _models(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, dict]:
    if k == 2:
        y = rng.integers(0, 2, n)
        z = y * 1.2 + rng.normal(size=(3, n))
        p = 1 / (1 + np.exp(-(z - 0.6) * np.array([[1.0], [0.6], [1.6]])))
        return y, {"lr": np.c_[1 - p[0], p[0]], "gb": p[1], "rf": p[2]}
    y = rng.integers(0, k, n)
    out = {}
    for name, s in (("lr", 1.0), ("gb", 0.6), ("rf", 1.6)):
        logits = s * (np.eye(k)[y] * 1.5 + rng.normal(size=(n, k)))
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        out[name] = e / e.sum(axis=1, keepdims=True)
    return y, out


def _timed(fn, box: list[float]):
    def wrapped(*a, **kw):
        t0 = time.perf_counter()
        try:
            return fn(*a, **kw)
        finally:
            box[0] += time.perf_counter() - t0
    return wrapped


def run(k: int) -> None:
    rng = np.random.default_rng(1)
    y, models = _models(rng, 1000, k)
    pyplot()  # matplotlib's import is not the page's
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        cmp = ml.compare_classifiers(y, models, progress=False)
        cmp.intervals()
        cmp.tests()
        cmp.summary()
        compute = time.perf_counter() - t0
        build, render = [0.0], [0.0]
        figures, figure_bytes = report.figures, pages.figure_bytes
        report.figures = _timed(figures, build)  # timed inside to_html itself
        pages.figure_bytes = _timed(figure_bytes, render)
        try:
            with tempfile.TemporaryDirectory() as d:
                t0 = time.perf_counter()
                cmp.to_html(Path(d) / "page.html")
                page = time.perf_counter() - t0
        finally:
            report.figures, pages.figure_bytes = figures, figure_bytes
    budget = 2 * compute + 2.0
    print(f"{k} classes, 3 models, n = 1,000: comparison {compute:.2f} s; page {page:.2f} s "
          f"(figures built {build[0]:.2f} s, rendered once as PNG {render[0]:.2f} s); "
          f"page / comparison {page / compute:.2f}x; page / (2 x comparison + 2 s) "
          f"{page / budget:.2f} (target <= 1)")


if __name__ == "__main__":
    run(2)
    run(3)
