"""The study store survives damage and company (issue 12): SIGKILL at random moments,
truncation of each kind of file, two concurrent runs on one folder, a killed driver's
workers, a failed start, the umask. Every damage is followed by a rerun whose tables equal
those of an uninterrupted run (the tiny grid on one small problem keeps this fast)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from measurelab.lab.study import run_study
from measurelab.lab.study.store import ResultStore

PROBLEMS = ["sonar"]
SRC = str(Path(__file__).resolve().parents[3] / "src")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref")
    run_study(PROBLEMS, out=out, grid_name="tiny", workers=1, progress=False)
    return out


def _measures(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "measures.parquet")


def _predictions(out: Path) -> pd.DataFrame:
    p = ResultStore(out).predictions(PROBLEMS[0])
    return p.sort_values(["model", "split", "row"]).reset_index(drop=True)


def _same_as_reference(out: Path, reference: Path) -> None:
    pd.testing.assert_frame_equal(_measures(out), _measures(reference))
    pd.testing.assert_frame_equal(_predictions(out), _predictions(reference))


def _cli(out: Path, *extra: str, **env: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "measurelab.cli", "study", "--problems", *PROBLEMS,
           "--grid", "tiny", "--out", str(out), "--no-progress", "--no-analysis", *extra]
    penv = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
            **env}
    return subprocess.Popen(cmd, env=penv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _unit_files(out: Path) -> list[Path]:
    return sorted(f for f in out.glob("units/*/*.parquet") if ".pred." not in f.name)


def _truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


# ------------------------------------------------------------------ truncation
@pytest.mark.parametrize("target", [
    "unit", "pred", "study.json", "data.npz", "info.json", "index.sqlite", "empty-unit",
    "index.sqlite-truncated",
])
def test_truncated_file_is_repaired_and_rerun_equals_uninterrupted(
        target: str, reference: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "s"
    shutil.copytree(reference, out)
    (out / "measures.parquet").unlink()
    units = _unit_files(out)
    path = {
        "unit": units[1],
        "empty-unit": units[2],
        "pred": units[0].with_name(units[0].name.replace(".parquet", ".pred.parquet")),
        "study.json": out / "study.json",
        "data.npz": out / "problems" / "sonar" / "data.npz",
        "info.json": out / "problems" / "sonar" / "info.json",
        "index.sqlite": out / "index.sqlite",
        "index.sqlite-truncated": out / "index.sqlite",
    }[target]
    if target == "empty-unit":
        path.write_bytes(b"")
    elif target == "index.sqlite":
        data = path.read_bytes()
        path.write_bytes(data[:100] + b"\xff" * (len(data) - 100))  # header kept, pages gone
    else:
        _truncate(path)
    capsys.readouterr()
    r = run_study(PROBLEMS, out=out, grid_name="tiny", workers=1, progress=False)
    err = capsys.readouterr().err
    _same_as_reference(out, reference)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("measurelab study: "), err
    if target in ("unit", "pred", "empty-unit"):
        assert r.n_units_run == 1 and "trained again" in lines[0]
    elif target == "data.npz":
        assert "prepared again" in lines[0]
        assert r.n_units_run == 0  # the same split and preprocessing: units stay valid
    else:
        assert "rebuilt" in lines[0] or "prepared again" in lines[0]
        assert r.n_units_run == 0
    assert len(ResultStore(out).index()) == len(units)


def test_study_json_and_index_both_damaged_is_reported_in_one_line(
        reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "s"
    shutil.copytree(reference, out)
    _truncate(out / "study.json")
    (out / "index.sqlite").write_bytes(b"not a database")
    proc = _cli(out, "--workers", "1")
    _, err = proc.communicate(timeout=300)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 2
    assert "Traceback" not in err.decode()
    assert lines[-1].startswith("measurelab study: error: ")
    assert "study.json is damaged" in lines[-1] and "remove it" in lines[-1]


# ------------------------------------------------------------------ SIGKILL
def test_sigkill_at_random_moments_then_rerun_equals_uninterrupted(
        reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed"
    rng = random.Random(12)
    for _ in range(3):
        proc = _cli(out, "--workers", "1", MEASURELAB_STUDY_DELAY="0.05")
        time.sleep(rng.uniform(0.5, 4.0))  # start-up, preparing, training, writing
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    again = _cli(out, "--workers", "1")
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0, err.decode()
    _same_as_reference(out, reference)
    assert not list(out.rglob(".*.tmp*"))


# ------------------------------------------------------------------ company
def test_two_concurrent_runs_cooperate(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "shared"
    a = _cli(out, "--workers", "1", MEASURELAB_STUDY_DELAY="0.05")
    b = _cli(out, "--workers", "1", MEASURELAB_STUDY_DELAY="0.05")
    ra, rb = a.communicate(timeout=300), b.communicate(timeout=300)
    assert a.returncode == 0, ra[1].decode()
    assert b.returncode == 0, rb[1].decode()
    assert "Traceback" not in ra[1].decode() + rb[1].decode()
    _same_as_reference(out, reference)
    n_units = len(_unit_files(out))
    trained = [int(r[0].decode().split(";")[1].split()[0]) for r in (ra, rb)]
    assert sorted(trained) == [0, n_units]  # one run trained everything, the other read it


def _children(pid: int) -> list[int]:
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(d.name))
    return kids


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_workers_end_when_the_driver_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "w"
    proc = _cli(out, "--workers", "2", MEASURELAB_STUDY_DELAY="1")
    deadline = time.monotonic() + 120
    kids: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        kids = [k for k in _children(proc.pid)
                if "spawn" in Path(f"/proc/{k}/cmdline").read_bytes().decode(errors="replace")]
        if len(kids) >= 2 and _unit_files(out):
            break
        time.sleep(0.1)
    assert proc.poll() is None and kids, "the workers never started"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(Path(f"/proc/{k}").exists() for k in kids):
        time.sleep(0.1)
    alive = [k for k in kids if Path(f"/proc/{k}").exists()
             and " Z " not in Path(f"/proc/{k}/stat").read_text()]
    assert not alive, f"workers {alive} outlived the driver"


# ------------------------------------------------------------------ starting
def test_failed_start_leaves_nothing_behind(tmp_path: Path) -> None:
    from measurelab.exceptions import MeasurelabError

    out = tmp_path / "new"
    with pytest.raises(MeasurelabError, match="unknown problem 'nosuch'"):
        run_study(["sonar", "nosuch"], out=out, grid_name="tiny", workers=1, progress=False)
    assert not out.exists()
    with pytest.raises(MeasurelabError, match="grid='huge' is not valid"):
        run_study(["sonar"], out=out, grid_name="huge", workers=1, progress=False)
    assert not out.exists()


def test_files_respect_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        out = tmp_path / "u"
        run_study(PROBLEMS, out=out, grid_name="tiny", workers=1, progress=False)
    finally:
        os.umask(old)
    modes = {f.relative_to(out).as_posix(): f.stat().st_mode & 0o777
             for f in out.rglob("*") if f.is_file()}
    assert modes and all(m == 0o640 for m in modes.values()), modes


def test_cli_accepts_problems_separated_by_commas_or_spaces(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture
                                                            ) -> None:
    from measurelab.cli import main

    args = ["--grid", "tiny", "--workers", "1", "--no-progress", "--no-analysis"]
    assert main(["study", "--problems", "sonar,vote", "--out", str(tmp_path / "a"), *args]) == 0
    assert main(["study", "--problems", "sonar", "vote", "--out", str(tmp_path / "a"),
                 *args]) == 0
    assert "0 units trained" in capsys.readouterr().out
