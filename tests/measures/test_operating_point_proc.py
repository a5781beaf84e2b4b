"""The partial AUC, its standardised form and the best threshold against R's pROC: its
numbers stored in tests/data/r/ and run live through ``Rscript`` (marker ``r``, ``make
test-r``, which installs Debian's r-cran-proc; tests/r_references.py).

pROC's partial AUC with ``partial.auc = c(1, 1 − f), partial.auc.focus = "specificity"``
is the area over FPR [0, f] (``pauc@f``); with ``partial.auc.correct = TRUE`` it is
McClish's standardised form (``spauc@f``). ``coords(x = "best")`` returns every threshold
of the best value; its thresholds are midpoints between adjacent distinct scores, with
``direction = "<"`` a case positive iff its score is at least the threshold, so the
library's threshold (the highest score predicted negative, positive iff above it) must be
the score just below pROC's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import measurelab as ml
from tests.r_references import SOURCES, reference, run_r

FS = (0.05, 0.1, 0.2, 0.5, 0.9)
#: pROC's best.weights (cost of a false negative relative to a false positive, prevalence)
WEIGHTS = ((3.0, 0.2), (0.5, 0.6))

R_CODE = r"""
put <- function(key, x) cat(sprintf("%s=%.17g\n", key, as.numeric(x)), sep = "")
one <- function(tag, y, s) {
  r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
  for (f in c(FS)) {
    put(sprintf("%s_pauc_%g", tag, f), auc(r, partial.auc = c(1, 1 - f),
        partial.auc.focus = "specificity", partial.auc.correct = FALSE))
    put(sprintf("%s_spauc_%g", tag, f), auc(r, partial.auc = c(1, 1 - f),
        partial.auc.focus = "specificity", partial.auc.correct = TRUE))
  }
  best <- function(key, ...) {
    b <- coords(r, "best", ret = c("threshold", "sensitivity", "specificity"),
                transpose = FALSE, ...)
    b <- b[order(-b$threshold), , drop = FALSE]   # the largest threshold first
    put(paste0(key, "_n"), nrow(b))
    put(paste0(key, "_t"), b$threshold[1]); put(paste0(key, "_se"), b$sensitivity[1])
    put(paste0(key, "_sp"), b$specificity[1])
  }
  best(paste0(tag, "_youden"), best.method = "youden")
  best(paste0(tag, "_topleft"), best.method = "closest.topleft")
  WEIGHTED
}
rd <- function(name) read.csv(file.path("TMP", paste0(name, ".csv")))
data(aSAH)
for (p in c("s100b", "wfns")) one(paste0("asah", p), as.integer(aSAH$outcome == "Poor"),
                                  as.numeric(aSAH[[p]]))
for (name in NAMES) { d <- rd(name); one(name, d$y, d$s) }
write.csv(data.frame(y = as.integer(aSAH$outcome == "Poor"), s100b = aSAH$s100b,
                     wfns = as.numeric(aSAH$wfns)), file.path("TMP", "asah.csv"),
          row.names = FALSE)
"""


def _datasets() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    out = {}
    for seed, (n, grid) in enumerate([(60, 10), (250, 40), (500, None), (1000, 7)]):
        g = np.random.default_rng(4200 + seed)
        y = g.random(n) < g.uniform(0.2, 0.6)
        s = g.normal(1.0 * y, 1.0)
        if grid is not None:
            s = np.round(s * grid / 4) / (grid / 4)  # ties within and across the classes
        out[f"d{seed}"] = (y, s)
    return out


def r_operating_point(tmp: Path) -> dict:
    """pROC's partial AUCs and best thresholds on :func:`_datasets` and aSAH, and the aSAH
    data it exported."""
    data = _datasets()
    for name, (y, s) in data.items():
        np.savetxt(tmp / f"{name}.csv", np.c_[y, s], delimiter=",", header="y,s",
                   comments="", fmt="%.17g")
    weighted = "\n".join(
        f'  best(paste0(tag, "_cost{i}"), best.method = "youden", '
        f"best.weights = c({c!r}, {p!r}))" for i, (c, p) in enumerate(WEIGHTS))
    code = (R_CODE.replace("c(FS)", "c(" + ", ".join(map(repr, FS)) + ")")
            .replace("WEIGHTED", weighted).replace("TMP", tmp.as_posix())
            .replace("NAMES", "c(" + ", ".join(f'"{k}"' for k in data) + ")"))
    out = run_r(code, tmp)
    raw = np.genfromtxt(tmp / "asah.csv", delimiter=",", names=True)
    return {"r": out, "asah": {k: raw[k].tolist() for k in ("y", "s100b", "wfns")}}


@pytest.fixture(scope="module", params=SOURCES)
def proc(request, tmp_path_factory: pytest.TempPathFactory):
    got = reference("operating_point", request.param, tmp_path_factory.mktemp("oppoint"))
    data = _datasets()
    y = np.array(got["asah"]["y"]).astype(bool)
    data["asahs100b"] = (y, np.array(got["asah"]["s100b"], float))
    data["asahwfns"] = (y, np.array(got["asah"]["wfns"], float))
    return got["r"], data


TAGS = ["asahs100b", "asahwfns", "d0", "d1", "d2", "d3"]


@pytest.mark.parametrize("tag", TAGS)
def test_partial_auc_equals_proc(proc, tag):
    r, data = proc
    y, s = data[tag]
    for f in FS:
        got = ml.evaluate(y, s, measures=[f"pauc@{f}", f"spauc@{f}"])
        assert got[f"pauc@{f}"] == pytest.approx(r[f"{tag}_pauc_{f:g}"], abs=1e-9)
        assert got[f"spauc@{f}"] == pytest.approx(r[f"{tag}_spauc_{f:g}"], abs=1e-9)


def _check_best(r, key, y, s, b) -> None:
    """Sens and spec equal pROC's at its largest best threshold; that threshold (a
    midpoint) lies between ours and the next distinct score above ours."""
    assert b.sens == pytest.approx(r[f"{key}_se"], abs=1e-9)
    assert b.spec == pytest.approx(r[f"{key}_sp"], abs=1e-9)
    scores = np.unique(s)
    above = scores[scores > b.threshold]
    upper = above[0] if above.size else np.inf
    assert b.threshold < r[f"{key}_t"] < upper or b.threshold == r[f"{key}_t"] == -np.inf


@pytest.mark.parametrize("tag", TAGS)
def test_best_thresholds_equal_proc(proc, tag):
    r, data = proc
    y, s = data[tag]
    _check_best(r, f"{tag}_youden", y, s, ml.best_threshold(y, s, "youden"))
    _check_best(r, f"{tag}_topleft", y, s, ml.best_threshold(y, s, "closest_topleft"))
    for i, (cost, prev) in enumerate(WEIGHTS):
        b = ml.best_threshold(y, s, "cost", cost_fn=cost, cost_fp=1.0, prevalence=prev)
        _check_best(r, f"{tag}_cost{i}", y, s, b)
