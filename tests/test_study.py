"""The metric-space study: kill + resume, Dask cluster, same seed, analyses of a tiny run.

Every test uses the ``tiny`` grid (14 models per problem) on two small shipped problems with
small splits, so a whole study takes a few seconds. Tables are compared exactly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from measurelab.study import run_study
from measurelab.study.store import ResultStore

PROBLEMS = ["sonar", "ionosphere"]
SIZES = ["--n-train", "120", "--n-valid", "40", "--n-test", "200"]
KW = {"grid_name": "tiny", "n_train": 120, "n_valid": 40, "n_test": 200, "seed": 3,
      "progress": False}


def _cmd(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "measurelab.cli", "study", "--problems", *PROBLEMS,
            "--grid", "tiny", "--seed", "3", *SIZES, "--out", str(out), "--no-progress",
            *extra]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("MEASURELAB_STUDY_DELAY", None)
    env.update(extra)
    return env


def _unit_files(out: Path) -> list[Path]:
    return sorted(f for f in (out / "units").glob("*/*.parquet")
                  if not f.name.endswith(".pred.parquet"))


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    """Every stored table of a study folder, keyed by relative path (timings excluded)."""
    tabs = {"measures.parquet": pd.read_parquet(out / "measures.parquet")}
    for f in sorted((out / "units").glob("*/*.parquet")):
        tabs[str(f.relative_to(out))] = pd.read_parquet(f)
    for f in sorted((out / "analysis").glob("*.csv")):
        tabs[str(f.relative_to(out))] = pd.read_csv(f)
    idx = ResultStore(out).index()
    tabs["index"] = idx[["problem", "unit", "algo", "n_models"]]
    return tabs


def _assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    assert sorted(a) == sorted(b)
    for k in a:
        pd.testing.assert_frame_equal(a[k], b[k], check_exact=True, obj=k)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run of the command, in this process's interpreter."""
    out = tmp_path_factory.mktemp("ref") / "study"
    r = subprocess.run(_cmd(out, "--workers", "1"), env=_env(), capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "28 models; 18 units trained, 0 already stored" in r.stdout
    return out


def test_reference_store_is_complete(reference: Path) -> None:
    m = pd.read_parquet(reference / "measures.parquet")
    assert sorted(m["problem"].unique()) == sorted(PROBLEMS)
    # 14 models per problem, each on the validation and the test split
    assert m.groupby("problem")["model"].nunique().tolist() == [14, 14]
    assert len(m) == 2 * 2 * 14
    assert len(_unit_files(reference)) == 18
    # the stored measures are the measures of the stored predictions (independent route:
    # scikit-learn's accuracy and ROC AUC)
    from sklearn.metrics import accuracy_score, roc_auc_score

    pred = ResultStore(reference).predictions("sonar")
    for (model, split), g in pred.groupby(["model", "split"]):
        row = m[(m["problem"] == "sonar") & (m["model"] == model) & (m["split"] == split)]
        assert len(row) == 1
        assert row["acc"].iloc[0] == pytest.approx(
            accuracy_score(g["y"], g["score"] > 0.5), abs=1e-12)
        assert row["auc"].iloc[0] == pytest.approx(roc_auc_score(g["y"], g["score"]),
                                                   abs=1e-12)
    # the validation split of the prepared data matches the stored predictions
    with np.load(reference / "problems" / "sonar" / "data.npz") as z:
        # 208 rows cannot hold 120 + 40 and a quarter for testing: 50 % / 20 % / 30 %
        assert (z["y_train"].size, z["y_valid"].size) == (104, 41)
        y_test = z["y_test"]
    one = pred[(pred["split"] == "test") & (pred["model"] == pred["model"].iloc[0])]
    np.testing.assert_array_equal(one.sort_values("row")["y"].to_numpy(), y_test)


def test_sigkill_mid_run_then_resume_equals_uninterrupted(reference: Path,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "study"
    # the test hook sleeps after each stored unit, so the kill lands mid-study
    proc = subprocess.Popen(_cmd(out, "--workers", "1"),
                            env=_env(MEASURELAB_STUDY_DELAY="0.7"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(_unit_files(out)) < 3:
            assert proc.poll() is None, "the study ended before it could be killed"
            assert time.monotonic() < deadline, "no units stored in time"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    done = len(_unit_files(out))
    assert 3 <= done < 18
    assert not (out / "measures.parquet").exists()

    # the same command again (here with two local processes) resumes
    r = subprocess.run(_cmd(out, "--workers", "2"), env=_env(), capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"{18 - done} units trained, {done} already stored" in r.stdout
    assert not list(out.rglob(".*.tmp*"))
    _assert_same(_tables(out), _tables(reference))


def test_rerun_of_finished_study_trains_nothing(reference: Path, tmp_path: Path) -> None:
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(reference, out)
    r = run_study(PROBLEMS, out=out, workers=1, **KW)
    assert (r.n_units_run, r.n_units_skipped) == (0, 18)
    pd.testing.assert_frame_equal(r.measures, pd.read_parquet(reference / "measures.parquet"),
                                  check_exact=True)


def test_other_settings_in_same_folder_refused(reference: Path, tmp_path: Path) -> None:
    import shutil

    from measurelab._validation import MeasurelabError

    out = tmp_path / "copy"
    shutil.copytree(reference, out)
    with pytest.raises(MeasurelabError, match="seed=3"):
        run_study(PROBLEMS, out=out, workers=1, **{**KW, "seed": 4})


def test_same_seed_same_numbers_other_seed_other_numbers(reference: Path,
                                                         tmp_path: Path) -> None:
    a = run_study(PROBLEMS, out=tmp_path / "a", workers=1, **KW)
    ref = pd.read_parquet(reference / "measures.parquet")
    pd.testing.assert_frame_equal(a.measures, ref, check_exact=True)
    for p in PROBLEMS:
        pd.testing.assert_frame_equal(ResultStore(tmp_path / "a").predictions(p),
                                      ResultStore(reference).predictions(p), check_exact=True)
    b = run_study(["sonar"], out=tmp_path / "b", workers=1, **{**KW, "seed": 4})
    sa = a.measures[a.measures["problem"] == "sonar"].reset_index(drop=True)
    assert not np.allclose(sa["rms"], b.measures["rms"])


def test_dask_local_cluster_equals_local_run(reference: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  host="127.0.0.1", protocol="tcp://",
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        r = run_study(PROBLEMS, out=tmp_path / "dask", scheduler=client, **KW)
        assert r.n_units_run == 18
        # and through an address string, resuming a half-deleted store
        for f in _unit_files(tmp_path / "dask")[::2]:
            f.unlink()
        r2 = run_study(PROBLEMS, out=tmp_path / "dask", scheduler=cluster.scheduler_address,
                       **KW)
        assert r2.n_units_run == 9
    from measurelab.study.analysis import analyze

    analyze(tmp_path / "dask", seed=3, figures=False).write(tmp_path / "dask" / "analysis")
    _assert_same(_tables(tmp_path / "dask"), _tables(reference))


def test_analysis_tables_of_tiny_run(reference: Path) -> None:
    from measurelab.compare import metric_space as msp
    from measurelab.study.analysis import COLUMNS, analyze
    from measurelab.study.zoo import MEASURES

    an = analyze(reference, seed=3, figures=False)
    norm = an.normalized
    # baseline → 0 and best → 1 (recomputed here from the stored raw values)
    m = pd.read_parquet(reference / "measures.parquet")
    higher = msp.directions(MEASURES)
    for p in PROBLEMS:
        test = m[(m["problem"] == p) & (m["split"] == "test")].set_index("model")
        with np.load(reference / "problems" / p / "data.npz") as z:
            y = z["y_test"]
        n = norm[norm["problem"] == p].set_index("model").loc[test.index]
        for c in ["acc", "auc", "rms"]:
            base = float(np.mean(y == (y.mean() > 0.5))) if c == "acc" else None
            best = test[c].max() if higher[c] else test[c].min()
            if c == "auc":
                base = 0.5
            if c == "rms":
                base = float(np.sqrt(np.mean((y - y.mean()) ** 2)))
            expect = (test[c] - base) / (best - base)
            np.testing.assert_allclose(n[c].to_numpy(), expect.to_numpy(), atol=1e-12)
        assert n["cal"].mean() == pytest.approx(0.0, abs=1e-9)  # CAL: mean baseline
        kept = n["kept"].to_numpy()
        below = (n[[c for c in COLUMNS if c != "cal"]] < 0).any(axis=1).to_numpy()
        np.testing.assert_array_equal(kept, ~below)
    sel = an.tables["selection"]
    assert set(sel.index) == set(COLUMNS)
    rc = an.tables["rank_correlation"]
    np.testing.assert_allclose(np.diag(rc[COLUMNS].to_numpy()), 1.0)
    st = an.tables["mds_stress"]
    assert (st.diff().dropna() <= 1e-6).all().all()  # stress never rises with dimension


def test_problem_info_and_settings(reference: Path) -> None:
    s = json.loads((reference / "study.json").read_text())
    assert s["problems"] == PROBLEMS and s["grid"] == "tiny" and s["seed"] == 3
    info = json.loads((reference / "problems" / "sonar" / "info.json").read_text())
    # sonar has 208 rows: too few for 120 + 40 + a quarter, so 50 % / 20 % / 30 %
    assert (info["train"], info["valid"], info["test"]) == (104, 41, 63)
    info = json.loads((reference / "problems" / "ionosphere" / "info.json").read_text())
    assert (info["train"], info["valid"], info["test"]) == (120, 40, 351 - 160)


def test_cli_study_with_scheduler_address_equals_local_run(reference: Path,
                                                           tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "cli-dask"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  host="127.0.0.1", protocol="tcp://",
                                  dashboard_address=None) as cluster:
        r = subprocess.run(_cmd(out, "--scheduler", cluster.scheduler_address,
                                "--no-analysis"),
                           env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "18 units trained, 0 already stored" in r.stdout
    pd.testing.assert_frame_equal(pd.read_parquet(out / "measures.parquet"),
                                  pd.read_parquet(reference / "measures.parquet"),
                                  check_exact=True)
