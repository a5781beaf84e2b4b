"""Distributed evaluation of partitioned Parquet data equals single-machine evaluate exactly."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import measurelab as ml
from measurelab.cli import main
from measurelab.exceptions import MeasurelabError
from measurelab.io.distributed import evaluate_parquet, parquet_parts
from tests.conftest import make_binary

distributed = pytest.importorskip("distributed")


def _same(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for k in a:
        va, vb = a[k], b[k]
        if isinstance(va, float) and math.isnan(va):
            assert isinstance(vb, float) and math.isnan(vb), k
        else:
            assert va == vb, (k, va, vb)  # exactly


@pytest.fixture
def cluster(dask_cluster):
    """The session's cluster (tests/conftest.py)."""
    return dask_cluster


def _write_parts(folder: Path, df: pd.DataFrame, cuts: list[int], row_group: int) -> None:
    """Files at the ``cuts`` (one empty file included), each in row groups of
    ``row_group`` rows, one in a sub-folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sub").mkdir()
    bounds = [0, *cuts, len(df)]
    for i, (a, b) in enumerate(itertools.pairwise(bounds)):
        t = pa.Table.from_pandas(df.iloc[a:b], preserve_index=False)
        where = folder / "sub" if i == 1 else folder
        pq.write_table(t, where / f"part-{i:03d}.parquet", row_group_size=row_group)
    pq.write_table(pa.Table.from_pandas(df.iloc[:0], preserve_index=False),
                   folder / "part-999.parquet")
    (folder / "_SUCCESS").write_text("")  # marker files are skipped


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    rng = np.random.default_rng(4)  # 10 tied score values, 42 % above 0.5
    y, s, _ = make_binary(rng, 3000, ties=True)
    # integer (frequency) weights: every measure is defined and sums are exact
    w = rng.integers(1, 5, size=y.size).astype(float)
    df = pd.DataFrame({"y": y, "p": s, "w": w, "other": 1})
    folder = tmp_path_factory.mktemp("parts") / "ds"
    _write_parts(folder, df, [700, 1500, 2999], row_group=256)
    return folder, df


def test_layout_has_many_row_groups(data: tuple[Path, pd.DataFrame]) -> None:
    folder, df = data
    parts = parquet_parts(folder)
    assert len({f for f, _ in parts}) == 5  # four data files (one nested) + one empty
    assert len(parts) >= 10
    rows = sum(pq.ParquetFile(f).metadata.row_group(g).num_rows for f, g in parts)
    assert rows == len(df)


@pytest.mark.parametrize("weighted", [False, True])
def test_cluster_equals_single_machine(data, cluster, weighted: bool) -> None:
    folder, df = data
    kw = {"weight_col": "w"} if weighted else {}
    got = evaluate_parquet(folder, scheduler=cluster.scheduler_address, label_col="y",
                           score_col="p", **kw)
    want = ml.evaluate(df["y"].to_numpy(), df["p"].to_numpy(),
                       sample_weight=df["w"].to_numpy() if weighted else None)
    _same(dict(got), dict(want))
    assert len(dict(want)) > 20
    assert not any(math.isnan(v) for v in dict(want).values())
    # and without a cluster, in this process
    _same(dict(evaluate_parquet(folder, scheduler=None, label_col="y", score_col="p", **kw)),
          dict(want))


def test_cluster_threshold_measures_and_client(data, cluster) -> None:
    folder, df = data
    ms = ["acc", "f1", "auc", "apr", "lift@0.25", "rms", "mxe", "cal", "sar"]
    with distributed.Client(cluster) as client:
        got = evaluate_parquet(folder, scheduler=client, label_col="y", score_col="p",
                               measures=ms, threshold=0.4, inclusive=True)
    want = ml.evaluate(df["y"], df["p"], measures=ms, threshold=0.4, inclusive=True)
    _same(dict(got), dict(want))
    # independent route for two of them
    from sklearn.metrics import accuracy_score, roc_auc_score

    assert got["acc"] == pytest.approx(accuracy_score(df["y"], df["p"] >= 0.4), abs=1e-15)
    assert got["auc"] == pytest.approx(roc_auc_score(df["y"], df["p"]), abs=1e-12)


def test_string_labels_and_single_file(tmp_path: Path, cluster) -> None:
    rng = np.random.default_rng(3)
    y, s, _ = make_binary(rng, 500, labels=("neg", "pos"))
    df = pd.DataFrame({"label": y, "score": s})
    f = tmp_path / "one.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), f, row_group_size=64)
    got = evaluate_parquet(f, scheduler=cluster.scheduler_address, label_col="label",
                           score_col="score", pos_label="pos")
    _same(dict(got), dict(ml.evaluate(df["label"], df["score"], pos_label="pos")))
    with pytest.raises(MeasurelabError, match="pos_label"):
        evaluate_parquet(f, scheduler=cluster.scheduler_address, label_col="label",
                         score_col="score", pos_label="yes")
    with pytest.raises(MeasurelabError, match="column 'nope'"):
        evaluate_parquet(f, scheduler=None, label_col="nope", score_col="score")


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> SimpleNamespace:
    """``measurelab *argv`` in this process, as ``subprocess.run`` would report it."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return SimpleNamespace(returncode=code, stdout=out, stderr=err)


def test_cli_scheduler_equals_api(data, cluster, capsys) -> None:
    folder, df = data
    r = _cli(capsys, "evaluate", str(folder), "--scheduler", cluster.scheduler_address,
             "--label-col", "y", "--score-col", "p", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    want = ml.evaluate(df["y"].to_numpy(), df["p"].to_numpy()).to_dict()
    _same(got, json.loads(json.dumps(want)))
    # the local reader of the same folder agrees too
    r2 = _cli(capsys, "evaluate", str(folder), "--label-col", "y", "--score-col", "p",
              "--json")
    assert r2.returncode == 0, r2.stderr
    _same(json.loads(r2.stdout), got)


def test_every_reader_reads_the_same_files_of_a_folder(tmp_path: Path) -> None:
    """One rule decides which files a folder holds, for the tasks of the cluster and for
    the local readers: names beginning with '.' or '_' (files and folders) are left out,
    any other file counts whatever its suffix."""
    from measurelab.io import evaluate_file, evaluate_multi_file
    from measurelab.io.distributed import evaluate_parquet_multi

    rng = np.random.default_rng(8)
    y, s, _ = make_binary(rng, 400, ties=True)
    df = pd.DataFrame({"y": y, "p": s, "q": 1.0 - s})
    folder = tmp_path / "ds"
    (folder / "_temporary").mkdir(parents=True)
    (folder / "sub").mkdir()
    df[:100].to_parquet(folder / "a.parquet")
    df[100:250].to_parquet(folder / "sub" / "b.parq")
    df[250:].to_parquet(folder / "000000_0")  # Hive: no suffix
    df.to_parquet(folder / "_temporary" / "left-over.parquet")  # an unfinished write
    df.to_parquet(folder / ".hidden.parquet")
    (folder / "_SUCCESS").write_text("")
    files = sorted({Path(f).relative_to(folder).as_posix() for f, _ in parquet_parts(folder)})
    assert files == ["000000_0", "a.parquet", "sub/b.parq"]
    cols = {"label_col": "y", "score_col": "p", "measures": ["acc", "auc", "apr", "rms"]}
    want = dict(ml.evaluate(y, s, measures=cols["measures"]))
    _same(dict(evaluate_parquet(folder, scheduler=None, **cols)), want)
    _same(dict(evaluate_file(folder, **cols)), want)
    multi = dict(evaluate_multi_file(folder, label_col="y", proba_cols=["q", "p"],
                                     classes=["0", "1"], measures=["acc", "mxe"]))
    assert multi == dict(evaluate_parquet_multi(folder, scheduler=None, label_col="y",
                                                proba_cols=["q", "p"], classes=["0", "1"],
                                                measures=["acc", "mxe"]))
    assert multi["acc"] == pytest.approx(float(np.mean((s > 0.5) == (y == 1))), abs=1e-15)
    # a file that is not Parquet is an error for every reader, not left out by one
    (folder / "notes.txt").write_text("not parquet")
    with pytest.raises(MeasurelabError, match=r"notes\.txt"):
        parquet_parts(folder)
    with pytest.raises(MeasurelabError, match="Parquet"):
        evaluate_file(folder, **cols)
