"""Issue 12's small things: layering (no upward imports of the moved helpers), the
`measures` table width, JSON null for undefined values, umask-respecting atomic writes,
progress lines when standard error is not a terminal, big integers in tables."""

from __future__ import annotations

import ast
import io
import json
import os
from pathlib import Path

import pytest

from measurelab.cli import main

SRC = Path(__file__).resolve().parents[1] / "src" / "measurelab"


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_measure_functions_work_without_importing_api_in_registry() -> None:
    import measurelab as ml

    assert ml.metrics.acc([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1]) == 0.75


def test_measures_table_fits_100_columns(capsys: pytest.CaptureFixture) -> None:
    from measurelab.measures.base import registry

    assert main(["measures"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(ln) for ln in lines) <= 100
    assert len(lines) == len(registry) + 2  # header, rows, the -v hint
    assert main(["measures", "-v"]) == 0
    out = capsys.readouterr().out
    assert all(m.source in out for m in registry)  # full sources with -v


def test_json_writes_undefined_values_as_null(capsys: pytest.CaptureFixture,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import measurelab as ml

    with pytest.warns(ml.UndefinedMeasureWarning):
        d = ml.evaluate([1, 1], [0.2, 0.9], measures=["auc", "acc"]).to_dict()
    assert d == {"auc": None, "acc": 0.5}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 0.2\n1 0.9\n")))
    assert main(["evaluate", "-", "--measures", "auc,lr_pos", "--json"]) == 0
    text = capsys.readouterr().out
    assert "NaN" not in text and '"nan"' not in text
    assert json.loads(text)["auc"] is None


def test_atomic_writes_respect_the_umask(tmp_path: Path) -> None:
    from measurelab.io.files import atomic_write_bytes, atomic_write_text

    old = os.umask(0o002)
    try:
        atomic_write_text(tmp_path / "a.txt", "x")
        atomic_write_bytes(tmp_path / "b.bin", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o664
    assert (tmp_path / "b.bin").stat().st_mode & 0o777 == 0o664
    assert not list(tmp_path.glob(".*"))  # no temporary file left


def test_periodic_line_when_not_a_terminal(capsys: pytest.CaptureFixture) -> None:
    from measurelab.progress import PeriodicLine, progress_bar

    bar = progress_bar(10, "work", unit="row")  # stderr is captured: not a terminal
    assert isinstance(bar, PeriodicLine)
    bar.every, bar._next = 0.0, 0.0
    bar.update(5)
    err = capsys.readouterr().err
    assert err.startswith("work: 50% (5/10 rows), ") and err.count("\n") == 1


def test_progress_iter_in_a_log_yields_everything_without_carriage_returns(
        capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reproductions iterate through progress_iter: periodic lines in a log (no tqdm
    carriage returns), the items unchanged, nothing when disabled."""
    from measurelab import progress as _progress

    made = []
    real = _progress.PeriodicLine

    def fast(*a, **k):  # a line at every update
        bar = real(*a, **k, every=0.0)
        made.append(bar)
        return bar

    monkeypatch.setattr(_progress, "PeriodicLine", fast)
    assert list(_progress.progress_iter(iter("abc"), "sets", unit="data set", total=3)) == \
        ["a", "b", "c"]
    err = capsys.readouterr().err
    assert "\r" not in err and "sets: 100% (3/3 data sets)" in err and len(made) == 1
    assert list(_progress.progress_iter([1, 2], "off", enabled=False)) == [1, 2]
    assert capsys.readouterr().err == ""


def test_compare_table_abbreviates_big_integers_and_json_is_exact(
        capsys: pytest.CaptureFixture) -> None:
    from measurelab.metaeval.consistency import compare_on_ranked_lists

    args = ["compare-measures", "auc", "acc", "--n", "120", "--pos", "60", "--exact",
            "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "digits)" in out and "--json prints them exactly" in out
    assert main([*args, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    r = compare_on_ranked_lists("auc", "acc", 120, 60, exact=True)
    assert (d["R"], d["S"], d["P"], d["Q"]) == (r.R, r.S, r.P, r.Q)
    assert isinstance(d["R"], int) and d["R"] > 10**30


def test_big_int_abbreviation() -> None:
    from measurelab._util.validation import big_int

    assert big_int(999_999_999_999_999) == "999,999,999,999,999"
    v = 12345 * 10**600
    assert big_int(v) == "1.234e+604 (605 digits)"
    assert len(str(v)) == 605


def test_exact_work_matches_the_rows() -> None:
    from measurelab.metaeval.exact import auc_acc_rows, exact_work

    for n, pos, k in [(6, 3, None), (9, 4, 2), (10, 3, 7), (12, 6, 0)]:
        assert exact_work(n, pos, k) == sum(r.size for _, _, r in auc_acc_rows(n, pos, k))


def test_heartbeat_prints_while_work_runs_when_not_a_terminal(
        capsys: pytest.CaptureFixture) -> None:
    import time

    from measurelab.progress import heartbeat

    with heartbeat("slow work", every=0.05):
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 2 and all(ln.startswith("slow work: still running, ") for ln in lines)
    with heartbeat("off", enabled=False, every=0.01):
        time.sleep(0.05)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("high", [3, 1000, 2**40])
def test_unique_rows_equals_numpy_unique_axis0(high: int) -> None:
    import numpy as np

    from measurelab.metaeval.consistency import _unique_rows

    rng = np.random.default_rng(high % 97)
    cols = [rng.integers(0, high, 5000) for _ in range(4)]
    uniq, inverse = _unique_rows(cols)
    want_u, want_inv = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)
    assert (uniq == want_u).all() and (inverse == np.asarray(want_inv).ravel()).all()
