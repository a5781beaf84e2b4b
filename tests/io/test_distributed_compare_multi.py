"""k-class comparisons on the session's Dask cluster (issue 41): ``measurelab versus FOLDER
--proba-cols ... --scheduler`` on a 4-part Parquet folder of 3 classes, and
compare_classifiers on Dask collections of probabilities, equal the one-machine
comparison — values exactly (weighted: to 1e-12, the order of the weight sums), interval
ends to 1e-9 — and what is not offered is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main
from measurelab.exceptions import MeasurelabError
from measurelab.io.distributed import compare_parquet_multi
from tests.inference.test_partitioned import assert_same_json
from tests.io.test_distributed_compare import N, write_parts

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.filterwarnings("ignore")

# N = 12,000 cases: the influence method is the k-class default from 10,000 cases
CLASSES = ("cat", "dog", "fox")


def _model(rng: np.random.Generator, y: np.ndarray, skill: float) -> np.ndarray:
    z = rng.normal(0.0, 1.0, (y.size, 3))
    z[np.arange(y.size), y] += skill
    p = np.round(np.exp(z) / np.exp(z).sum(axis=1, keepdims=True), 3)
    return p / p.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """Four Parquet parts (one in a sub-folder, one in two row groups) of 12,000 cases of
    3 classes, two models' probabilities (lr_*, rf_*) and weights."""
    rng = np.random.default_rng(4141)
    y = rng.choice(3, N, p=[0.5, 0.3, 0.2])
    cols = {"label": np.array(CLASSES, dtype=object)[y]}
    for name, skill in (("lr", 1.4), ("rf", 1.1)):
        P = _model(rng, y, skill)
        cols.update({f"{name}_{c}": P[:, i] for i, c in enumerate(CLASSES)})
    df = pd.DataFrame({**cols, "w": rng.uniform(0.2, 3.0, N)})
    return write_parts(df, tmp_path_factory.mktemp("versus-k-parts")), df


def _argv(d: Path, *extra: str) -> list[str]:
    return ["versus", str(d), "--proba-cols", "lr_cat,lr_dog,lr_fox", "--proba-cols",
            "rf_cat,rf_dog,rf_fox", "--label-col", "label", "--json", *extra]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("extra", [[], ["--stratify", "--average", "none",
                                        "--measures", "f1,auc,brier"]])
def test_k_class_versus_on_the_cluster_equals_the_local_run(dask_cluster, folder, capsys,
                                                            extra: list[str]) -> None:
    d, _df = folder
    local = _run(capsys, _argv(d, *extra))
    remote = _run(capsys, [*_argv(d, *extra), "--scheduler", dask_cluster.scheduler_address])
    methods = {e["method"].split()[0] for m in json.loads(remote)["models"].values()
               for e in m.values()}
    assert "influence" in methods
    assert_same_json(local, remote)


def test_weighted_k_class_versus_on_the_cluster(dask_cluster, folder, capsys) -> None:
    d, _df = folder
    argv = _argv(d, "--weight-col", "w", "--measures", "acc,f1,mcc,auc,mxe,brier,ap")
    local = _run(capsys, argv)
    remote = _run(capsys, [*argv, "--scheduler", dask_cluster.scheduler_address])
    models = json.loads(remote)["models"]
    assert {e["method"].split()[0] for e in models["lr"].values()} == {"influence"}
    assert_same_json(local, remote, values_tol=1e-12)


def test_k_class_compare_classifiers_on_dask_collections(dask_cluster, folder) -> None:
    dd = pytest.importorskip("dask.dataframe")
    d, df = folder
    lr, rf = ([f"{m}_{c}" for c in CLASSES] for m in ("lr", "rf"))
    whole = ml.compare_classifiers(df.label, {"lr": df[lr].to_numpy(),
                                              "rf": df[rf].to_numpy()})
    with distributed.Client(dask_cluster) as _client:
        frame = dd.read_parquet(str(d))
        r = ml.compare_classifiers(frame.label, {"lr": frame[lr], "rf": frame[rf]})
    assert type(r).__name__ == "DistributedMultiComparison"
    assert_same_json(whole.to_json(), r.to_json())


def test_k_class_poisson_bootstrap_on_the_cluster(dask_cluster, folder) -> None:
    """Forced resampling: the Poisson bootstrap, drawn per part and replicate and merged
    in the same tree — the cluster's run is the in-process run's to the last bit — and
    its width the influence interval's (to the bootstrap's own noise, 100 replicates:
    about 7 %)."""
    d, _df = folder
    kw = dict(proba_groups=[("lr", ["lr_cat", "lr_dog", "lr_fox"]),
                            ("rf", ["rf_cat", "rf_dog", "rf_fox"])],
              label_col="label", measures=["f1", "auc"], n_boot=100,
              random_state=3)
    here = compare_parquet_multi(d, scheduler=None, ci_method="bootstrap-bca", **kw)
    there = compare_parquet_multi(d, scheduler=dask_cluster.scheduler_address,
                                  ci_method="bootstrap-bca", **kw)
    assert here.to_json() == there.to_json()
    assert any("Poisson bootstrap" in n for n in there.notes)
    infl = compare_parquet_multi(d, scheduler=None, ci_method="influence", **kw)
    width = lambda r: (r.tests().hi - r.tests().lo).to_numpy()   # noqa: E731
    np.testing.assert_allclose(width(there), width(infl), rtol=0.25)


def test_what_a_k_class_comparison_on_the_cluster_does_not_do_is_refused(
        dask_cluster, folder, capsys) -> None:
    d, df = folder
    addr = dask_cluster.scheduler_address
    for extra, msg in ((["--html", str(d / "x.html")], "--html draws"),
                       (["--threshold", "0.3"], "--threshold does not apply"),
                       (["--group-col", "label"], "--group-col and --by-col"),
                       (["--measures", "top_k_acc", "--ci-method", "bootstrap-bca"],
                        "reads every case's probability row")):
        assert main([*_argv(d, *extra), "--scheduler", addr]) == 2
        err = capsys.readouterr().err
        assert msg in err and len(err.strip().splitlines()) == 1, err
    small = compare_parquet_multi(d, scheduler=None, label_col="label", ci=None,
                                  proba_groups=[("lr", ["lr_cat", "lr_dog", "lr_fox"])])
    with pytest.raises(MeasurelabError, match="curve_bands"):
        small.curve_bands()
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(df, npartitions=2)
    lr = [f"lr_{c}" for c in CLASSES]
    with pytest.raises(MeasurelabError, match="groups= and by= apply to in-memory input"):
        ml.compare_classifiers(frame.label, {"lr": frame[lr]}, groups=frame.w)
