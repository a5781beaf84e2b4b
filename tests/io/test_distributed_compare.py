"""Comparing classifiers on the session's Dask cluster (issue 41): ``measurelab versus
FOLDER --scheduler`` on a 4-part Parquet folder, and compare_classifiers on Dask
collections, equal the one-machine comparison — values exactly, intervals to 1e-9 — and
the Poisson bootstrap is the same whoever runs the parts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import measurelab as ml
from measurelab.cli import main
from measurelab.exceptions import MeasurelabError
from measurelab.io.distributed import compare_parquet
from tests.inference.test_partitioned import assert_same_json

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.filterwarnings("ignore")

N = 12_000   # the influence method is the default of ap, brier and mxe from 10,000 cases


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """Four Parquet parts (one in a sub-folder, one written in two row groups) of 12,000
    cases, about 3,600 positive, two models' rounded probabilities and weights."""
    rng = np.random.default_rng(41)
    y = rng.random(N) < 0.3
    df = pd.DataFrame({
        "label": y.astype(int),
        "lr": np.round(1 / (1 + np.exp(-rng.normal(1.2 * (2 * y - 1), 1.3))), 3),
        "gb": np.round(1 / (1 + np.exp(-rng.normal(0.9 * (2 * y - 1), 1.3))), 3),
        "w": rng.uniform(0.2, 3.0, N),
    })
    return write_parts(df, tmp_path_factory.mktemp("versus-parts")), df


def write_parts(df: pd.DataFrame, d: Path) -> Path:
    """``df`` (12,000 rows) as four Parquet parts under ``d``, one in a sub-folder, one
    written in two row groups."""
    (d / "sub").mkdir()
    for i, (lo, hi) in enumerate([(0, 2500), (2500, 6100), (6100, 9000), (9000, N)]):
        where = d / "sub" if i == 2 else d
        pq.write_table(pa.Table.from_pandas(df.iloc[lo:hi], preserve_index=False),
                       where / f"part-{i}.parquet", row_group_size=2000)
    return d


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("extra", [[], ["--stratify", "--threshold", "0.4"]])
def test_versus_on_the_cluster_equals_the_local_run(dask_cluster, folder, capsys,
                                                    extra: list[str]) -> None:
    d, _df = folder
    argv = ["versus", str(d), "--score-col", "lr", "--score-col", "gb", "--label-col",
            "label", "--json", *extra]
    local = _run(capsys, argv)
    remote = _run(capsys, [*argv, "--scheduler", dask_cluster.scheduler_address])
    methods = {e["method"].split()[0] for m in json.loads(remote)["models"].values()
               for e in m.values()}
    assert methods == {"delong-logit", "influence", "dirichlet-posterior", "wilson"}
    assert_same_json(local, remote)


def test_versus_text_on_the_cluster(dask_cluster, folder, capsys) -> None:
    d, _df = folder
    out = _run(capsys, ["versus", str(d), "--score-col", "lr", "--score-col", "gb",
                        "--measures", "auc,brier,acc", "--scheduler",
                        dask_cluster.scheduler_address])
    assert out.startswith("DistributedComparison of 2 models (lr, gb) on 12,000 cases")
    assert "lr is better than gb on auc" in out
    assert "calibration test is left out" in out


def test_weighted_influence_on_the_cluster(dask_cluster, folder) -> None:
    d, df = folder
    kw = dict(measures=["auc", "ap", "brier", "f1"], ci_method="influence")
    r = compare_parquet(d, scheduler=dask_cluster.scheduler_address, score_cols=["lr", "gb"],
                        label_col="label", weight_col="w", **kw)
    whole = ml.compare_classifiers(df.label, {"lr": df.lr, "gb": df.gb}, sample_weight=df.w,
                                   **kw)
    assert_same_json(whole.to_json(), r.to_json(), values_tol=1e-12)


def test_poisson_bootstrap_on_the_cluster_equals_it_in_process(dask_cluster, folder) -> None:
    """The replicates are drawn per part and replicate, and merged in the same tree: the
    cluster's run is the in-process run's to the last bit."""
    d, _df = folder
    kw = dict(score_cols=["lr", "gb"], label_col="label", measures=["auc", "mcc"],
              ci_method="bootstrap-bca", n_boot=200, random_state=3)
    here = compare_parquet(d, scheduler=None, **kw)
    there = compare_parquet(d, scheduler=dask_cluster.scheduler_address, **kw)
    assert here.to_json() == there.to_json()
    assert any("Poisson bootstrap" in n for n in there.notes)


def test_compare_classifiers_on_dask_collections(dask_cluster, folder) -> None:
    dd = pytest.importorskip("dask.dataframe")
    d, df = folder
    whole = ml.compare_classifiers(df.label, {"lr": df.lr, "gb": df.gb})
    with distributed.Client(dask_cluster) as _client:
        frame = dd.read_parquet(str(d))
        r = ml.compare_classifiers(frame.label, {"lr": frame.lr, "gb": frame.gb})
    assert type(r).__name__ == "DistributedComparison"
    assert_same_json(whole.to_json(), r.to_json())


def test_what_the_cluster_does_not_do_is_refused(dask_cluster, folder, capsys) -> None:
    d, _df = folder
    addr = dask_cluster.scheduler_address
    for extra, msg in ((["--html", str(d / "x.html")], "--html draws"),
                       (["--group-col", "label"], "--group-col and --by-col"),
                       (["--format", "csv"], "compares Parquet data sets")):
        assert main(["versus", str(d), "--score-col", "lr", "--scheduler", addr,
                     *extra]) == 2
        assert msg in capsys.readouterr().err
    assert main(["versus", str(d), "--proba-cols", "lr,gb", "--scheduler", addr]) == 2
    assert "(3 or more) of probability columns" in capsys.readouterr().err
    with pytest.raises(MeasurelabError, match="no column 'nope'"):
        compare_parquet(d, scheduler=None, score_cols=["lr", "nope"], label_col="label")
