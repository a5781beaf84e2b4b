"""Every measure with the kernel routing forced both ways (``_kernels.routing``): the
compiled kernels (table build, fused walk, APR's tie groups, CAL, the block walk and
block CAL) and their numpy twins give the same values — bit for bit on whole counts where
the walk repeats numpy's order, to rounding elsewhere (docs/DECISIONS.md) — and which
output of the walk a measure reads is data on the measure (``Measure.walk_output``)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.measures import _fused
from measurelab.measures._rules import TABLE_WALK
from measurelab.measures.base import WALK_OUTPUTS, Measure, registry
from measurelab.measures.compute import compute_measures, prime_block
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable
from tests._kernels.test_routing import force_routes
from tests.conftest import make_binary

SPECS = [m.name for m in registry] + ["lift@0.1", "ece@5", "cal@7", "auc:acc"]
#: whole counts: the compiled routes repeat numpy's operations in numpy's order
EXACT = {"auc", "bep", "lift", "lift@0.1", "ap11", "auc:acc"} | set(
    registry.names(kind="threshold"))
REL = 1e-12


def _all(y, s, w, threshold: float) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.evaluate(y, s, sample_weight=w, measures=SPECS, threshold=threshold)
    return {k: float(v) for k, v in r.items()}


@pytest.mark.parametrize("case", range(12))
def test_every_measure_is_the_same_on_both_routes(case, monkeypatch):
    pytest.importorskip("numba")
    g = np.random.default_rng(case)
    y, s, w = make_binary(g, int(g.integers(150, 600)), ties=case % 2 == 0,
                          weighted=case % 4 == 3)
    thr = float(np.median(s))
    force_routes(monkeypatch, False)
    numpy_route = _all(y, s, w, thr)
    force_routes(monkeypatch, True)
    compiled = _all(y, s, w, thr)
    assert compiled.keys() == numpy_route.keys()
    for k, want in numpy_route.items():
        got = compiled[k]
        if math.isnan(want):
            assert math.isnan(got), k
        elif w is None and k in EXACT:
            assert got == want, (k, got, want)
        else:
            assert got == pytest.approx(want, rel=REL, abs=1e-15), (k, got, want)


def _block(seed: int) -> BlockStats:
    g = np.random.default_rng(seed)
    t = ScoreTable.from_arrays(g.random(400) < 0.4, np.round(g.random(400), 2))
    pos = g.poisson(1.0, (30, t.size)) * t.pos
    neg = g.poisson(1.0, (30, t.size)) * t.neg
    return BlockStats(TableBlock(t.scores, pos, neg, integer=True), threshold=0.5)


@pytest.mark.parametrize("seed", range(4))
def test_every_block_formula_is_the_same_on_both_routes(seed, monkeypatch):
    pytest.importorskip("numba")
    measures = [registry.resolve(spec)[0] for spec in SPECS if ":" not in spec]
    out = {}
    for compiled in (False, True):
        force_routes(monkeypatch, compiled)
        bs = _block(seed)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            prime_block(bs, measures)
            out[compiled] = {m.name: m.compute_block(bs) for m in measures}
    for name, want in out[False].items():
        np.testing.assert_allclose(out[True][name], want, rtol=REL, atol=1e-15,
                                   equal_nan=True, err_msg=name)


def test_without_numba_every_route_is_numpy(monkeypatch):
    """``MEASURELAB_NO_NUMBA``: the values are those of the numpy route."""
    g = np.random.default_rng(3)
    y, s, _ = make_binary(g, 300)
    force_routes(monkeypatch, False)
    want = _all(y, s, None, 0.5)
    force_routes(monkeypatch, True)
    monkeypatch.setenv("MEASURELAB_NO_NUMBA", "1")
    assert _all(y, s, None, 0.5) == pytest.approx(want, rel=0, abs=0, nan_ok=True)


def test_the_walk_reads_what_each_measure_declares():
    declared = {m.name: m.walk_output for m in registry if m.walk_output is not None}
    assert declared == {"auc": "auc_num", "apr": "apr_sum", "ap": "ap_sum",
                        "ap11": "ap11_vals", "bep": "tp_at_n_pos", "lift": "tp_at_q",
                        "brier": "sq_sum", "rms": "sq_sum", "ece": "ece"}
    assert set(declared.values()) <= set(WALK_OUTPUTS)
    lift10, ece5 = registry.resolve("lift@0.1")[0], registry.resolve("ece@5")[0]
    assert lift10.walk_output == "tp_at_q"  # a parameter keeps the output
    ks, qs, bep, apr, n_bins = _fused.walk_parameters(
        [lift10, ece5, registry.get("apr"), registry.get("bep"), registry.get("acc")],
        n_pos=40.0, total=100.0)
    assert (ks, qs, bep, apr, n_bins) == ([10.0, 40.0], [0.1], True, True, 5)


def test_a_measure_that_declares_no_walk_output_is_not_walked_for():
    m = Measure("copy_of_lift", registry.get("lift").formula, "rank", "scores", (0, math.inf),
                True, params={"q": 0.5})
    assert _fused.walk_parameters([m], 1.0, 10.0) == ([], [], False, False, 0)


def test_walk_output_must_be_a_known_output():
    with pytest.raises(ml.MeasurelabError, match="walk_output='lift' is not valid"):
        Measure("x", len, "rank", "scores", (0, 1), True, walk_output="lift")  # type: ignore[arg-type]


def test_compute_measures_primes_the_walk_once_for_the_asked_parameters(monkeypatch):
    pytest.importorskip("numba")
    force_routes(monkeypatch, True, ["fused_walk"])
    g = np.random.default_rng(4)
    t = ScoreTable.from_arrays(g.random(500) < 0.3, g.random(500))
    stats = BinaryStats(table=t)
    r = compute_measures(stats, ["lift@0.1", "ece@5", "acc"])
    sums = t.memo[TABLE_WALK]
    assert ("tp_at", 0.1 * t.total) in sums and ("ece", 5) in sums
    assert stats.memo["counts"] == sums[("counts", 0.5, False)]
    force_routes(monkeypatch, False, ["fused_walk"])
    assert dict(compute_measures(BinaryStats(table=ScoreTable(t.scores, t.pos, t.neg)),
                                 ["lift@0.1", "ece@5", "acc"])) == pytest.approx(dict(r))


def test_evaluation_result_plot_page_and_notebook(tmp_path):
    import measurelab as ml
    from measurelab.exceptions import MeasurelabError

    y = [0, 1, 1, 0, 1, 0, 1, 0]
    s = [0.2, 0.7, 0.4, 0.1, 0.8, 0.6, 0.9, 0.3]
    r = ml.evaluate(y, s, measures=["acc", "auc", "mxe"], ci=0.9, n_boot=200)
    fig = r.plot()
    assert [ax.get_yticklabels()[0].get_text() for ax in fig.axes] == ["acc", "auc", "mxe"]
    # the interval is drawn: the line's ends are the interval's ends
    seg = fig.axes[1].collections[0].get_segments()[0]
    iv = r.intervals().set_index("measure")
    assert seg[0][0] == pytest.approx(iv.loc["auc", "lo"])
    assert seg[1][0] == pytest.approx(iv.loc["auc", "hi"])
    with pytest.raises(MeasurelabError, match="'f1' is not in this result"):
        r.plot(measures=["f1"])
    p = r.to_html(tmp_path / "e.html")
    text = p.read_text()
    assert text.startswith("<!DOCTYPE html>") and "data:image/png;base64," in text
    assert "bootstrap" in text or "wilson" in text
    assert "<table" in r._repr_html_()
    P = np.array([[.7, .2, .1], [.1, .8, .1], [.2, .2, .6], [.5, .3, .2]])
    m = ml.evaluate([0, 1, 2, 1], P, measures=["f1"], average=None)
    assert [ax.get_yticklabels()[0].get_text() for ax in m.plot().axes] == \
        ["f1[0]", "f1[1]", "f1[2]"]
