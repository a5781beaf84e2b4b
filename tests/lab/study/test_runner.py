"""The study: problems and splits, the zoo, the store (resume after SIGKILL, determinism),
local processes and a Dask LocalCluster giving the same numbers, and the analyses."""

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
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

from measurelab.exceptions import MeasurelabError
from measurelab.lab.study import run_study
from measurelab.lab.study.analysis import COLUMNS, analyze
from measurelab.lab.study.problems import load_problem, make_split, prepare, seed_for
from measurelab.lab.study.store import ResultStore
from measurelab.lab.study.zoo import ALGORITHMS, Unit, fit_unit, grid

PROBLEMS = ["sonar", "vote"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted tiny study, run in this process."""
    out = tmp_path_factory.mktemp("ref")
    run_study(PROBLEMS, out=out, grid_name="tiny", workers=1, progress=False)
    return out


def _measures(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "measures.parquet")


# ---------------------------------------------------------------- problems and splits
def test_letter_and_cover_type_targets_follow_the_paper() -> None:
    from measurelab.io import datasets

    _, y = datasets.load("letter")
    p1, p2 = load_problem("letter.p1"), load_problem("LETTER.P2")
    assert p1.y.sum() == (y == "O").sum()
    assert p2.y.sum() == y.isin(list("ABCDEFGHIJKLM")).sum()
    _, yc = datasets.load("covertype")
    ct = load_problem("cover_type")
    assert ct.y.sum() == yc.value_counts().max()
    assert load_problem("adult").positive == ">50K"


def test_every_binary_shipped_dataset_is_a_problem() -> None:
    from measurelab.lab.study.problems import binary_datasets, known_problems

    names = binary_datasets()
    assert "sonar" in names and "german" in names
    assert set(names) - {"adult"} <= set(known_problems())
    with pytest.raises(MeasurelabError, match="unknown problem"):
        load_problem("letter")  # 26 classes: not binary


def test_split_is_stratified_disjoint_and_seeded() -> None:
    y = np.r_[np.ones(300, bool), np.zeros(700, bool)]
    a = make_split(y, n_train=400, n_valid=100, n_test=300, seed=3)
    b = make_split(y, n_train=400, n_valid=100, n_test=300, seed=3)
    c = make_split(y, n_train=400, n_valid=100, n_test=300, seed=4)
    assert [len(a[k]) for k in ("train", "valid", "test")] == [400, 100, 300]
    assert [int(y[a[k]].sum()) for k in ("train", "valid", "test")] == [120, 30, 90]
    allidx = np.concatenate([a["train"], a["valid"], a["test"]])
    assert len(np.unique(allidx)) == allidx.size
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["train"], c["train"])


def test_user_csv_problem_with_target(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x1": rng.normal(size=120), "colour": rng.choice(["r", "g"], 120),
                       "label": rng.choice(["yes", "no"], 120, p=[0.3, 0.7])})
    df.loc[3, "x1"] = np.nan
    f = tmp_path / "mine.csv"
    df.to_csv(f, index=False)
    p = load_problem(str(f), target="label")
    assert p.positive == "yes" and p.y.sum() == (df.label == "yes").sum()
    d = prepare(p, make_split(p.y, seed=0))
    assert np.isfinite(d.X_train).all() and d.X_train.shape[1] == 3  # x1 + 2 one-hot
    with pytest.raises(MeasurelabError, match="--target"):
        load_problem(str(f))
    with pytest.raises(MeasurelabError, match="not a column"):
        load_problem(str(f), target="nope")


# ---------------------------------------------------------------- zoo
def test_every_algorithm_gives_probabilities_and_is_deterministic() -> None:
    p = load_problem("sonar")
    d = prepare(p, make_split(p.y, seed=1))
    units = grid("quick", "sonar")
    assert {u.algo for u in units} == set(ALGORITHMS)
    seen = set()
    for u in units:
        if u.algo in seen:
            continue
        seen.add(u.algo)
        f1, f2 = fit_unit(u, d, 7), fit_unit(u, d, 7)
        assert len(f1.models) == u.n_models
        for (pa, va, ta), (pb, vb, tb) in zip(f1.models, f2.models, strict=True):
            assert pa == pb
            assert np.array_equal(ta, tb) and np.array_equal(va, vb)
            assert ta.shape == d.y_test.shape and va.shape == d.y_valid.shape
            assert ((ta >= 0) & (ta <= 1)).all()


def test_knn_matches_scikit_learn_classifier() -> None:
    from sklearn.neighbors import KNeighborsClassifier

    p = load_problem("ionosphere")
    d = prepare(p, make_split(p.y, seed=0))
    for w in ("uniform", "distance"):
        u = Unit("ionosphere", "knn", (("weights", w),), ((("k", 1),), (("k", 7),)))
        for (params, _, pt) in fit_unit(u, d, 0).models:
            ref = KNeighborsClassifier(params["k"], weights=w).fit(d.X_train, d.y_train)
            assert np.allclose(pt, ref.predict_proba(d.X_test)[:, 1])


def test_grid_sizes() -> None:
    assert 30 <= sum(u.n_models for u in grid("quick", "x")) <= 80
    assert sum(u.n_models for u in grid("full", "x")) >= 300
    with pytest.raises(MeasurelabError, match="grid="):
        grid("huge", "x")


# ---------------------------------------------------------------- store
def test_stored_measures_agree_with_scikit_learn(reference: Path) -> None:
    store = ResultStore(reference)
    m = _measures(reference)
    assert set(m["problem"]) == set(PROBLEMS)
    assert len(m) == 2 * sum(u.n_models for p in PROBLEMS for u in grid("tiny", p))
    preds = store.predictions("vote")
    for model, g in preds[preds.split == "test"].groupby("model"):
        row = m[(m.problem == "vote") & (m.model == model) & (m.split == "test")].iloc[0]
        y, s = g["y"].to_numpy(), g["score"].to_numpy()
        assert row["acc"] == pytest.approx(accuracy_score(y, s > 0.5))
        assert row["fsc"] == pytest.approx(f1_score(y, s > 0.5, zero_division=0))
        assert row["auc"] == pytest.approx(roc_auc_score(y, s))
        assert row["rms"] == pytest.approx(np.sqrt(np.mean((s - y) ** 2)))
        sar = (row["acc"] + row["auc"] + 1 - row["rms"]) / 3
        assert row["sar"] == pytest.approx(sar)
    idx = store.index()
    assert len(idx) == len(m[["problem", "unit"]].drop_duplicates())
    assert set(idx["algo"]) == set(m["algo"])


def test_rerun_skips_finished_units_and_rejects_other_settings(reference: Path) -> None:
    before = _measures(reference)
    r = run_study(PROBLEMS, out=reference, grid_name="tiny", workers=1, progress=False)
    assert r.n_units_run == 0 and r.n_units_skipped > 0
    pd.testing.assert_frame_equal(before, r.measures)
    with pytest.raises(MeasurelabError, match="seed"):
        run_study(PROBLEMS, out=reference, grid_name="tiny", seed=1, workers=1,
                  progress=False)


def _cli(out: Path, **env: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "measurelab.cli", "study", "--problems", *PROBLEMS,
           "--grid", "tiny", "--out", str(out), "--workers", "1", "--no-progress",
           "--no-analysis"]
    return subprocess.Popen(cmd, env={**os.environ, **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def test_sigkill_mid_run_then_rerun_gives_identical_tables(reference: Path,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "killed"
    total = sum(len(grid("tiny", p)) for p in PROBLEMS)
    proc = _cli(out, MEASURELAB_STUDY_DELAY="0.4")
    done: list[Path] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = [f for f in out.glob("units/*/*.parquet") if ".pred." not in f.name]
        if len(done) >= 3:
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    finished = [f for f in out.glob("units/*/*.parquet") if ".pred." not in f.name]
    assert 3 <= len(finished) < total
    assert not (out / "measures.parquet").exists()

    again = _cli(out)
    stdout, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr.decode()
    assert f"{len(finished)} already stored" in stdout.decode()
    pd.testing.assert_frame_equal(_measures(out), _measures(reference))
    a, b = analyze(out, figures=False), analyze(reference, figures=False)
    for name in a.tables:
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name])


def test_local_processes_equal_in_process(reference: Path, tmp_path: Path) -> None:
    r = run_study(PROBLEMS, out=tmp_path / "two", grid_name="tiny", workers=2,
                  progress=False)
    pd.testing.assert_frame_equal(r.measures, _measures(reference))


def test_dask_local_cluster_equals_local_run(reference: Path, tmp_path: Path,
                                             dask_cluster) -> None:
    from distributed import Client

    with Client(dask_cluster) as client:
        r = run_study(PROBLEMS, out=tmp_path / "dask", grid_name="tiny", scheduler=client,
                      progress=False)
    pd.testing.assert_frame_equal(r.measures, _measures(reference))
    s1, s2 = ResultStore(tmp_path / "dask"), ResultStore(reference)
    for p in PROBLEMS:
        p1 = s1.predictions(p).sort_values(["model", "split", "row"]).reset_index(drop=True)
        p2 = s2.predictions(p).sort_values(["model", "split", "row"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(p1, p2)


# ---------------------------------------------------------------- analyses
def test_normalized_scores_map_baseline_to_zero_and_best_to_one(reference: Path) -> None:
    an = analyze(reference, figures=False)
    norm = an.normalized
    raw = _measures(reference)
    for p in PROBLEMS:
        n = norm[norm.problem == p].set_index("model")[COLUMNS]
        r = raw[(raw.problem == p) & (raw.split == "test")].set_index("model")[COLUMNS]
        base = an.tables["baselines"].loc[p]
        with np.load(reference / "problems" / p / "data.npz") as z:
            pos = float(z["y_test"].mean())
        # independent route for the baseline: constant predictions at the positive rate
        assert base.loc["auc", "baseline"] == 0.5
        assert base.loc["acc", "baseline"] == pytest.approx(max(pos, 1 - pos))
        assert base.loc["rms", "baseline"] == pytest.approx(np.sqrt(pos * (1 - pos)))
        h = -(pos * np.log2(pos) + (1 - pos) * np.log2(1 - pos))
        assert base.loc["mxe", "baseline"] == pytest.approx(h)
        for m in COLUMNS:
            hib = bool(base.loc[m, "higher_is_better"])
            best = r[m].max() if hib else r[m].min()
            b0 = r[m].mean() if m == "cal" else base.loc[m, "baseline"]
            assert np.allclose(n[m], (r.loc[n.index, m] - b0) / (best - b0))
            assert n[m].max() == pytest.approx(1.0)
        kept = norm[norm.problem == p].set_index("model")["kept"]
        below = (n.drop(columns="cal") < 0).any(axis=1)
        assert (kept == ~below).all()
    assert an.tables["problems"]["kept"].sum() == norm["kept"].sum()


def test_selection_table_by_brute_force(reference: Path) -> None:
    an = analyze(reference, figures=False)
    raw = _measures(reference)
    higher = {c: c not in ("rms", "mxe", "cal") for c in COLUMNS}
    want = {}
    for sel in COLUMNS:
        vals = []
        for p in PROBLEMS:
            v = raw[(raw.problem == p) & (raw.split == "valid")].sort_values("model")
            best = v[sel].max() if higher[sel] else v[sel].min()
            chosen = v[v[sel] == best]["model"].iloc[0]
            n = an.normalized[(an.normalized.problem == p) & (an.normalized.model == chosen)]
            vals.append(n[COLUMNS].iloc[0])
        want[sel] = pd.concat(vals, axis=1).mean(axis=1)
    got = an.tables["selection"][COLUMNS]
    for sel in COLUMNS:
        assert np.allclose(got.loc[sel].to_numpy(float), want[sel].to_numpy(float))


def test_analysis_figures_and_files(reference: Path, tmp_path: Path) -> None:
    an = analyze(reference)
    written = an.write(tmp_path / "an")
    names = {p.name for p in written}
    for fig in ("mds_maps", "mds_stress", "rank_correlation", "algorithms", "selection"):
        assert f"{fig}.png" in names
    st = an.tables["mds_stress"]
    assert (st.diff().dropna() <= 1e-6).all().all()  # more dimensions never worse
    rc = an.tables["rank_correlation"]
    assert np.allclose(np.diag(rc[COLUMNS]), 1.0)


def test_cli_study_writes_results_and_analysis(tmp_path: Path) -> None:
    from measurelab.cli import main

    assert main(["study", "--problems", "sonar", "--grid", "tiny", "--out",
                 str(tmp_path / "s"), "--workers", "1", "--no-progress"]) == 0
    assert (tmp_path / "s" / "analysis" / "selection.csv").exists()
    settings = json.loads((tmp_path / "s" / "study.json").read_text())
    assert settings["grid"] == "tiny" and settings["n_train"] == 4000
    assert main(["study", "--problems", "nosuch", "--grid", "tiny", "--out",
                 str(tmp_path / "t"), "--workers", "1"]) == 2


def test_run_unit_seed_does_not_depend_on_order() -> None:
    assert seed_for(0, "sonar", "ann_hidden=4") == seed_for(0, "sonar", "ann_hidden=4")


def test_extend_study_repeats_a_unit_exactly_and_adds_models(reference: Path,
                                                             tmp_path: Path) -> None:
    """A unit named like one of the study's reproduces its models bit for bit (same seed);
    its later variants are new models, which the analysis takes in with ``extra=``."""
    from measurelab.lab.experiments.caruana2004_why import longer_ann_units
    from measurelab.lab.study.runner import extend_study

    study = ResultStore(reference).measures()
    units = longer_ann_units(study, factors=(3,))
    assert [u.problem for u in units] == sorted(PROBLEMS)
    rows = extend_study(reference, units, out=tmp_path / "ext", workers=1, progress=False)
    top = max(dict(v)["epochs"] for u in grid("tiny", PROBLEMS[0]) if u.algo == "ann"
              for v in u.variants)
    for u in units:
        old_id, new_id = u.model_ids()
        assert json.loads(old_id.partition(" ")[2])["epochs"] == top
        old = study[(study["problem"] == u.problem) & (study["model"] == old_id)]
        again = rows[(rows["problem"] == u.problem) & (rows["model"] == old_id)]
        pd.testing.assert_frame_equal(old[COLUMNS].reset_index(drop=True),
                                      again[COLUMNS].reset_index(drop=True))
        # the chosen setting has the best validation SAR among the nets at `top` epochs
        nets = study[(study["problem"] == u.problem) & (study["algo"] == "ann")
                     & (study["split"] == "valid") & study["model"].str.contains(
                         f'"epochs": {top},')]
        assert old[old["split"] == "valid"]["sar"].iloc[0] == nets["sar"].max()
        assert ((rows["problem"] == u.problem) & (rows["model"] == new_id)).sum() == 2
    # resumable: a second call trains nothing and returns the same rows
    again = extend_study(reference, units, out=tmp_path / "ext", workers=1, progress=False)
    pd.testing.assert_frame_equal(rows, again)
    base = analyze(reference, figures=False)
    more = analyze(reference, figures=False, extra=rows)
    assert len(more.normalized) == len(base.normalized) + len(units)
    assert more.tables["problems"]["models"].sum() == \
        base.tables["problems"]["models"].sum() + len(units)
    with pytest.raises(MeasurelabError, match="no study"):
        extend_study(tmp_path / "nothing", units, out=tmp_path / "x", workers=1,
                     progress=False)
    # the same folder asked for other variants of a stored unit: refused, not reused
    other = [Unit(u.problem, u.algo, u.params, u.variants[:1]) for u in units]
    with pytest.raises(MeasurelabError, match="with other models"):
        extend_study(reference, other, out=tmp_path / "ext", workers=1, progress=False)
    # extra rows: repeated rows and problems the study does not have are left out
    foreign = rows.assign(problem="nope")
    twice = analyze(reference, figures=False, extra=pd.concat([rows, rows, foreign]))
    assert twice.normalized.equals(more.normalized)


def test_extension_of_another_study_is_refused(reference: Path, tmp_path: Path) -> None:
    from measurelab.lab.study.runner import extend_study

    other = tmp_path / "other"
    run_study(["sonar"], out=other, grid_name="tiny", workers=1, progress=False)
    u = [x for x in grid("tiny", "sonar") if x.algo == "nb"]
    extend_study(reference, u, out=tmp_path / "ext", workers=1, progress=False)
    with pytest.raises(MeasurelabError, match="extension of the study"):
        extend_study(other, u, out=tmp_path / "ext", workers=1, progress=False)


def test_per_problem_tables_average_to_the_overall_ones(reference: Path) -> None:
    an = analyze(reference, figures=False)
    alg = an.tables["algorithms_by_problem"].groupby(level="algo").mean()
    pd.testing.assert_frame_equal(alg.sort_index(),
                                  an.tables["algorithms"][alg.columns].sort_index(),
                                  check_names=False)
    sel = an.tables["selection_by_problem"].groupby(level="selected_by").mean()
    pd.testing.assert_frame_equal(sel.loc[COLUMNS, COLUMNS],
                                  an.tables["selection"].loc[COLUMNS, COLUMNS],
                                  check_names=False)


def test_caruana_longer_nets_and_stored_cost(reference: Path, tmp_path: Path) -> None:
    """The follow-up of caruana2004 on a tiny study: nets read off at 1, 2 and 4 times the
    grid's epochs, the rerun's per-algorithm table, and the cost summed from the indexes."""
    from measurelab.lab.experiments import caruana2004 as c4

    (alg, epochs), table = c4._longer_nets(reference, ResultStore(reference).measures(),
                                           tmp_path / "ann-longer-tiny", 1, False)
    top = max(dict(v)["epochs"] for u in grid("tiny", "sonar") if u.algo == "ann"
              for v in u.variants)
    assert epochs == [top, 2 * top, 4 * top]
    assert len(table) == 3 * len(PROBLEMS) and set(table["epochs"]) == set(epochs)
    assert "ann" in alg.index and np.isfinite(alg.loc["ann", "mean"])
    cost = c4._stored_cost(reference, tmp_path / "ann-longer-tiny")
    idx = ResultStore(reference).index()
    assert cost["study_units"] == len(idx)
    assert cost["study_train_cpu_seconds"] == round(float(idx["train_seconds"].sum()), 1)
    assert cost["ann_longer_units"] == len(PROBLEMS)
    assert c4._stored_cost(reference, tmp_path / "none").keys() == {
        "study_train_cpu_seconds", "study_units"}


# ------------------------------------------------------------------ issue 23
def test_a_problem_too_small_or_a_stray_option_writes_nothing(tmp_path: Path) -> None:
    small = tmp_path / "tiny.csv"
    small.write_text("f,t\n1,a\n2,b\n3,a\n")
    out = tmp_path / "new"
    with pytest.raises(MeasurelabError, match="problem 'tiny' is too small for a study"):
        run_study([str(small)], out=out, target="t", grid_name="tiny", workers=1,
                  progress=False)
    with pytest.raises(MeasurelabError, match="--target 'y' names the label column"):
        run_study(["sonar"], out=out, target="y", grid_name="tiny", workers=1,
                  progress=False)
    with pytest.raises(MeasurelabError, match="is not a class of sonar"):
        run_study(["sonar"], out=out, pos_label="nosuch", grid_name="tiny", workers=1,
                  progress=False)
    with pytest.raises(MeasurelabError, match="workers must be a positive integer"):
        run_study(["sonar"], out=out, grid_name="tiny", workers=0, progress=False)
    with pytest.raises(MeasurelabError, match="out is empty"):
        run_study(["sonar"], out="", grid_name="tiny", workers=1, progress=False)
    assert not out.exists()


def test_a_shipped_data_set_takes_a_positive_class() -> None:
    assert load_problem("sonar", pos_label="Mine").positive == "Mine"
    with pytest.raises(MeasurelabError, match=r"does not apply to letter\.p1"):
        load_problem("letter.p1", pos_label="A")
