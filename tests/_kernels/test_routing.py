"""The one routing policy (``_kernels/routing.py``): its table of thresholds, the rule that
only routes giving the same bits may follow what the process loaded, the switch
``MEASURELAB_NO_NUMBA``, and a helper the other tests use to force a route either way."""

from __future__ import annotations

import ast
import dataclasses
import math
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from measurelab._kernels import routing

SRC = Path(__file__).resolve().parents[2] / "src" / "measurelab"


def force_routes(monkeypatch: pytest.MonkeyPatch, compiled: bool,
                 kinds: Iterable[str] | None = None) -> None:
    """Send every route of ``kinds`` (default: all) to the compiled kernel whatever the size
    (``compiled=True``, when numba is there) or to numpy."""
    for kind in routing.ROUTES if kinds is None else kinds:
        route = routing.ROUTES[kind]
        monkeypatch.setitem(routing.ROUTES, kind, dataclasses.replace(
            route, min_size=0 if compiled else math.inf, min_size_loaded=None))


def test_every_route_has_a_kernel_a_threshold_and_a_reason():
    assert set(routing.ROUTES) == {"scoretable", "fused_walk", "block_walk", "apr_groups",
                                   "cal", "cal_block", "loess", "pav", "smece_grid",
                                   "debiased_cells", "pair_values", "pair_tree", "bootstrap_draws"}
    for kind, r in routing.ROUTES.items():
        assert r.kernel.startswith("measurelab._kernels."), kind
        assert (SRC / "_kernels" / (r.kernel.rsplit(".", 1)[1] + ".py")).exists(), kind
        assert r.min_size >= 0 and r.unit and r.reason and "\n" not in r.reason, kind
        if r.min_size_loaded is not None:
            assert r.same_bits and r.min_size_loaded < r.min_size, kind


def test_the_measured_thresholds_are_kept():
    t = {k: (r.min_size, r.min_size_loaded) for k, r in routing.ROUTES.items()}
    assert t == {"scoretable": (2**21, 2**12), "fused_walk": (2**18, None),
                 "block_walk": (0, None), "apr_groups": (2**18, None), "cal": (2**18, None),
                 "cal_block": (1, None), "loess": (2**18, None), "pav": (2**18, None),
                 "smece_grid": (2**18, None), "debiased_cells": (2**18, 2**12),
                 "pair_values": (2**21, 2**16),
                 "pair_tree": (2**16, None), "bootstrap_draws": (2**16, None)}


def test_routes_that_may_differ_in_the_last_bit_depend_on_the_size_alone():
    with pytest.raises(ValueError, match="same_bits"):
        routing.Route("measurelab._kernels.fused", 10, "cases", False, "x", min_size_loaded=1)
    for kind in ("fused_walk", "apr_groups", "cal", "loess", "pav"):
        assert not routing.ROUTES[kind].same_bits
        assert routing.ROUTES[kind].min_size_loaded is None


def test_use_compiled_follows_the_threshold_and_the_loaded_kernel(monkeypatch):
    pytest.importorskip("numba")
    assert not routing.use_compiled("fused_walk", 2**18 - 1)
    assert routing.use_compiled("fused_walk", 2**18)
    assert routing.use_compiled("cal_block", 1) and not routing.use_compiled("cal_block", 0)
    import measurelab._kernels.scoretable  # noqa: F401  (loaded: the lower threshold)

    assert routing.threshold("scoretable") == 2**12
    assert routing.use_compiled("scoretable", 2**12)
    monkeypatch.delitem(sys.modules, "measurelab._kernels.scoretable")
    assert routing.threshold("scoretable") == 2**21
    assert not routing.use_compiled("scoretable", 2**12)


def test_a_missing_kernel_or_the_switch_sends_every_route_to_numpy(monkeypatch):
    monkeypatch.setitem(sys.modules, "measurelab._kernels.fused", None)  # as without numba
    assert not routing.use_compiled("fused_walk", 2**30)
    for value, off in (("1", True), ("yes", True), ("0", False), ("", False)):
        monkeypatch.setenv(routing.NO_NUMBA_ENV, value)
        assert routing.numba_disabled() is off
        if off:
            assert not any(routing.use_compiled(k, 2**40) for k in routing.ROUTES)
            assert not routing.kernel_available("measurelab._kernels.cal")


def test_unknown_route_is_a_key_error():
    with pytest.raises(KeyError, match="no route 'nope'"):
        routing.use_compiled("nope", 1)


def test_the_switch_keeps_numba_out_of_a_large_evaluation(tmp_path):
    code = ("import sys, numpy as np, measurelab as ml\n"
            "g = np.random.default_rng(0); n = 1 << 18\n"
            "y = g.random(n) < 0.3; s = g.random(n)\n"
            "r = ml.evaluate(y, s, measures=['auc', 'ap', 'cal', 'brier'])\n"
            "assert 'numba' not in sys.modules, 'numba loaded'\n")
    env = {**os.environ, routing.NO_NUMBA_ENV: "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env)
    assert out.returncode == 0, out.stderr[-2000:]


def _calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Call)]


@pytest.mark.parametrize("module", ["stats/scoretable.py", "measures/_fused.py",
                                    "measures/ranking.py", "measures/calibration/cal.py",
                                    "metaeval/pairs.py"])
def test_every_route_decision_asks_the_policy(module):
    """No kernel module is imported on a size decided locally: the modules that route call
    ``use_compiled`` and hold no threshold of their own."""
    path = SRC / module
    text = path.read_text(encoding="utf-8")
    assert any("use_compiled(" in c or "_route_compiled(" in c for c in _calls(path))
    for stale in ("COMPILED_MIN", "FUSED_MIN_SIZE", "_MIN_OBJECTS", "kernel_available(",
                  "in sys.modules"):
        assert stale not in text, (module, stale)
