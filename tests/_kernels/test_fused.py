"""The compiled routes (fused walk of the score table; linear-time table build and merge)
against the numpy routes and against straightforward loops from the definitions.

Exact equality where the arithmetic is on whole numbers (counts, AUC numerator, BEP, lift,
11-point AP, unweighted tables); elsewhere the sums are added in another order, so they
agree to a few units of rounding: relative 1e-12 (docs/DECISIONS.md).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab._kernels import routing
from measurelab.io import TableAccumulator
from measurelab.measures import _fused
from measurelab.measures._rules import TABLE_WALK
from measurelab.measures.compute import compute_measures
from measurelab.stats import scoretable as st
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable
from tests._kernels.test_routing import force_routes

REL = 1e-12


def _tables(seed: int, count: int):
    """Random tables: ties (rounded scores), integer or real weights, one class, zeros."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.integers(1, 40))
        s = np.round(rng.random(n), int(rng.integers(0, 4)))
        y = rng.random(n) < [0.0, 1.0, 0.3, 0.7][i % 4] if i % 5 == 0 else rng.random(n) < 0.4
        w = None
        if i % 3 == 1:
            w = rng.integers(0, 5, n).astype(float)
        elif i % 3 == 2:
            w = rng.integers(1, 5, n) * 0.1
        t = ScoreTable.from_arrays(y, s, w)
        if t.total > 0:
            yield t, w is None or bool(np.all(w == np.round(w)))


def _evaluate(t: ScoreTable, fused: bool, monkeypatch, threshold: float = 0.5) -> dict:
    force_routes(monkeypatch, fused, ["fused_walk"])
    fresh = ScoreTable(t.scores, t.pos, t.neg)  # no sums kept from an earlier run
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dict(compute_measures(BinaryStats(table=fresh, threshold=threshold), None))


def test_fused_and_numpy_routes_agree_on_every_measure(monkeypatch):
    exact_on_integers = {"auc", "bep", "lift", "ap11", "cal"} | set(
        ml.registry.names(kind="threshold"))
    for t, integer in _tables(0, 150):
        thr = float(t.scores[len(t.scores) // 2])
        want = _evaluate(t, False, monkeypatch, thr)
        got = _evaluate(t, True, monkeypatch, thr)
        assert set(got) == set(want)
        for k, v in want.items():
            a, b = float(got[k]), float(v)
            if math.isnan(b):
                assert math.isnan(a), (k, a, b, t)
            elif integer and k in exact_on_integers:
                assert a == b, (k, a, b, t)
            else:
                assert a == pytest.approx(b, rel=REL, abs=1e-15), (k, a, b, t)


def _reference_sums(t: ScoreTable, ks: list[float], k_top: int, n_bins: int) -> dict:
    """The walk's sums by plain loops over the expanded cases / groups."""
    S, P, N = t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    G = len(S)
    auc = sum(P[i] * N[j] * (1.0 if S[i] > S[j] else 0.5 if S[i] == S[j] else 0.0)
              for i in range(G) for j in range(G))
    ap = apr = cp = cn = 0.0
    tp_at = {}
    for j in reversed(range(G)):
        a, pa = cp + cn, cp
        cp, cn = cp + P[j], cn + N[j]
        m = P[j] + N[j]
        if P[j] > 0:
            ap += P[j] * cp / (cp + cn)
            # expected precision at each positive's rank, ties in random order
            if m == 1:
                apr += (pa + 1) / (a + 1)
            else:
                apr += P[j] / m * sum((pa + 1 + (q - 1) * (P[j] - 1) / (m - 1)) / (a + q)
                                      for q in range(1, int(m) + 1))
        for k in ks:
            if k > 0 and k not in tp_at and a + m >= k:
                tp_at[k] = pa + (k - a) * P[j] / m
    sq = sum(P[i] * (1 - S[i]) ** 2 + N[i] * S[i] ** 2 for i in range(G))
    ws, wp = np.zeros(n_bins), np.zeros(n_bins)
    for i in range(G):
        b = min(math.floor(S[i] * n_bins), n_bins - 1)
        ws[b] += (P[i] + N[i]) * S[i]
        wp[b] += P[i]
    top = slice(G - k_top, G)
    return {"auc_num": auc, "ap_sum": ap, "apr_sum": apr, "sq_sum": sq,
            "tp_at": tp_at, "ws": ws, "wp": wp,
            "tp": float(sum(P[top])) if k_top else 0.0,
            "fp": float(sum(N[top])) if k_top else 0.0}


def test_fused_sums_match_loops_from_the_definitions():
    for t, integer in _tables(1, 120):
        ks = [t.n_pos, 0.25 * t.total, 0.1 * t.total]
        thr = 0.5
        k_top = t.size - int(np.searchsorted(t.scores, thr, side="right"))
        ref = _reference_sums(t, ks, k_top, 10)
        got = _fused.run(ScoreTable(t.scores, t.pos, t.neg), ks=ks, threshold=thr)
        close = (lambda a, b: a == b) if integer else (
            lambda a, b: a == pytest.approx(b, rel=REL, abs=1e-13))
        assert close(got["auc_num"], ref["auc_num"])
        for k in ks:
            if k > 0:
                assert close(got[("tp_at", float(k))], ref["tp_at"].get(k, t.n_pos))
        c = got[("counts", thr, False)]
        assert close(c.tp, ref["tp"]) and close(c.fp, ref["fp"])
        assert c.fn == t.n_pos - c.tp and c.tn == t.n_neg - c.fp
        for key in ("ap_sum", "sq_sum"):
            assert got[key] == pytest.approx(ref[key], rel=REL, abs=1e-13), key
        if integer and t.n_pos > 0:
            assert got["apr_sum"] == pytest.approx(ref["apr_sum"], rel=REL)
        ws, wp = got[("ece", 10)]
        np.testing.assert_allclose(ws, ref["ws"], rtol=REL, atol=1e-13)
        np.testing.assert_allclose(wp, ref["wp"], rtol=REL, atol=1e-13)


def test_fused_walk_of_an_empty_table_is_all_zero():
    got = _fused.run(ScoreTable.empty(), ks=[1.0], threshold=0.5)
    assert got["auc_num"] == got["ap_sum"] == got["sq_sum"] == 0.0
    assert got[("tp_at", 1.0)] == 0.0
    assert got[("counts", 0.5, False)] == ml.BinaryCounts(0.0, 0.0, 0.0, 0.0)
    assert not _fused.use_fused(ScoreTable.empty())


def test_measures_called_one_by_one_on_a_large_table_use_the_walk(monkeypatch):
    force_routes(monkeypatch, True, ["fused_walk"])
    rng = np.random.default_rng(5)
    y = rng.random(3000) < 0.3
    s = rng.random(3000)
    t = ScoreTable.from_arrays(y, s)
    assert ml.measures.ranking.auc(t) == ml.metrics.auc(y, s)
    assert TABLE_WALK in t.memo  # the sums are in the table's memo, its fields unchanged


def _force_compiled(monkeypatch, on: bool) -> None:
    force_routes(monkeypatch, on, ["scoretable"])
    monkeypatch.setattr(st, "_mostly_tied", lambda s: not on)  # ties through both routes


def test_compiled_build_and_merge_equal_the_numpy_routes(monkeypatch):
    rng = np.random.default_rng(2)
    for i in range(200):
        n = int(rng.integers(0, 60))
        y = rng.random(n) < rng.random()
        s = np.round(rng.random(n), int(rng.integers(0, 4)))
        w = None if i % 2 else rng.integers(0, 4, n) * rng.choice([1.0, 0.1])
        wp = None if w is None else w[::-1]
        _force_compiled(monkeypatch, False)
        want = ScoreTable.from_arrays(y, s, w)
        half = n // 2
        a = ScoreTable.from_arrays(y[:half], s[:half], None if w is None else w[:half])
        b = ScoreTable.from_arrays(y[half:], s[half:], None if w is None else w[half:])
        merged = a + b
        _force_compiled(monkeypatch, True)
        assert ScoreTable.from_arrays(y, s, w) == want
        assert ScoreTable.from_arrays(y[::-1], s[::-1], wp) == want  # order-independent
        assert a + b == merged
        assert ScoreTable.from_class_scores([s[y][:2], s[y][2:]], [s[~y]]) == \
            ScoreTable.from_arrays(y, s)


def test_accumulator_of_raw_rows_equals_whole_data(monkeypatch):
    monkeypatch.setattr(TableAccumulator, "RAW_ROWS", 50)
    rng = np.random.default_rng(3)
    for decimals in (1, 12):  # tied (tables per chunk) and distinct (class scores kept)
        y = rng.random(400) < 0.4
        s = np.round(rng.random(400), decimals)
        acc = TableAccumulator()
        for lo in range(0, 400, 30):
            acc.add_rows(y[lo:lo + 30], s[lo:lo + 30])
        assert acc.result() == ScoreTable.from_arrays(y, s)


def test_compiled_pair_counter_equals_brute_force_and_the_sorted_route(monkeypatch):
    from measurelab.metaeval import pairs

    rng = np.random.default_rng(4)
    for i in range(40):
        K = int(rng.integers(2, 120))
        a = rng.integers(0, int(rng.integers(1, 30)), K) / 7.0
        b = rng.integers(0, int(rng.integers(1, 30)), K) / 3.0
        if i % 4 == 0:
            a = rng.random(K)  # distinct values
        monkeypatch.setattr(pairs, "_TABLE_CELLS", 0)  # never the contingency table
        force_routes(monkeypatch, True, ["pair_tree"])
        tree = pairs.pair_counts(a, b)
        force_routes(monkeypatch, False, ["pair_tree"])
        assert tree == pairs.pair_counts(a, b) == pairs.pair_counts_brute(a.tolist(), b.tolist())


def test_route_depends_on_the_table_alone(tmp_path):
    """The same table gives the same bits whether or not the process loaded the compiled
    walk before (the route is chosen by the table's size only)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys, json, warnings\n"
        "import numpy as np\n"
        "from measurelab.metrics.evaluation import compute_measures\n"
        "from measurelab.stats.bundle import BinaryStats\n"
        "from measurelab.stats.scoretable import ScoreTable\n"
        "warnings.simplefilter('ignore')\n"
        "g = np.random.default_rng(3)\n"
        "def table(n):\n"
        "    y = g.random(n) < 0.3\n"
        "    return ScoreTable.from_arrays(y, 1 / (1 + np.exp(-g.normal(y * 1.0, 1.0))))\n"
        "small = table(5000)\n"
        "if sys.argv[1] == 'warm':\n"
        "    compute_measures(BinaryStats(table=table(1 << 18)), None)  # loads the walk\n"
        "r = compute_measures(BinaryStats(table=small), None)\n"
        "print(json.dumps({k: float(v).hex() for k, v in r.items()}))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cold, warm = (subprocess.run([sys.executable, "-c", code, arg], capture_output=True,
                                 text=True, env=env, check=True).stdout for arg in
                  ("cold", "warm"))
    assert cold == warm


def test_command_line_on_a_small_file_loads_no_heavy_module(tmp_path):
    import os
    import subprocess
    import sys

    f = tmp_path / "p.txt"
    f.write_text("".join(f"{i % 2} {i / 500:.4f}\n" for i in range(500)))
    code = (
        "import sys, contextlib, io\n"
        "from measurelab.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['evaluate', {str(f)!r}, '--json']) == 0\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['evaluate', {str(f)!r}]) == 0\n"
        "print(sorted(m for m in ('pandas', 'scipy', 'pyarrow', 'numba', 'sklearn')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                         check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_apr_of_large_tie_groups_compiled_equals_numpy_and_the_definition(monkeypatch):
    """A few rows holding many cases (tied scores): apr sums its tie groups with the
    walk's compiled loop; it agrees with the numpy expansion and with the expected
    precision written from the definition (exact fractions on a small group)."""
    import itertools
    from fractions import Fraction

    from measurelab._kernels.fused import apr_group
    from measurelab.measures import ranking

    g = np.random.default_rng(5)
    scores = np.round(np.sort(g.random(300)), 6)
    scores = np.unique(scores)
    pos = g.integers(0, 2000, scores.size).astype(np.float64)
    neg = g.integers(0, 2000, scores.size).astype(np.float64)
    t = ScoreTable(scores, pos, neg)
    assert routing.use_compiled("apr_groups", t.total)
    compiled = ranking.apr(t)
    force_routes(monkeypatch, False, ["apr_groups"])
    numpy_route = ranking.apr(ScoreTable(scores, pos, neg))
    assert compiled == pytest.approx(numpy_route, rel=REL)
    # the definition on one tie group of 3 positives among 5 cases behind 2 cases (1 pos):
    # a positive at place q of the group sees (1 + its rank among the positives) / (2 + q)
    exact = Fraction(0)
    orders = list(itertools.permutations([1, 1, 1, 0, 0]))
    for order in orders:
        seen = 1
        for q, y in enumerate(order, start=1):
            if y:
                seen += 1
                exact += Fraction(seen, 2 + q)
    exact /= len(orders)
    assert apr_group(3.0, 5.0, 1.0, 2.0) == pytest.approx(float(exact), rel=1e-15)
