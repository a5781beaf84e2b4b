"""``--group-col`` and ``--by-col`` (issue 31)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main


@pytest.fixture
def csv(tmp_path):
    rng = np.random.default_rng(0)
    n = 240
    cid = np.repeat(np.arange(48), 5)
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"label": y, "a": np.clip(0.3 * y + rng.uniform(0, 0.7, n), 0, 1),
                          "b": rng.uniform(size=n), "patient": [f"p{c}" for c in cid],
                          "sex": rng.choice(["f", "m"], n)})
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    return path, frame


def run(capsys, *argv):
    code = main([*map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_group_col_equals_the_api(capsys, csv):
    path, f = csv
    code, out, _err = run(capsys, "versus", path, "--score-col", "a", "--score-col", "b",
                          "--label-col", "label", "--group-col", "patient", "--measures",
                          "auc,acc", "--n-boot", 200, "--json")
    assert code == 0
    r = ml.compare_classifiers(f["label"], {"a": f["a"], "b": f["b"]}, groups=f["patient"],
                               measures=["auc", "acc"], n_boot=200)
    got = json.loads(out)
    want = r.intervals().set_index(["model", "measure"])
    assert got["models"]["a"]["auc"]["se"] == pytest.approx(want.loc[("a", "auc"), "se"],
                                                            rel=1e-12)
    assert got["models"]["a"]["auc"]["method"].startswith("clustered-delong-logit")
    assert got["pairs"][0]["method"] == "clustered-delong"
    assert got["pairs"][1]["method"] == "clustered-wald"


def test_by_col_prints_groups_and_gaps(capsys, csv):
    path, _f = csv
    code, out, _err = run(capsys, "evaluate", path, "--score-col", "a", "--label-col",
                          "label", "--by-col", "sex", "--ci", "0.95", "--measures",
                          "auc,acc", "--n-boot", 200)
    assert code == 0
    assert "per group" in out and "equalized_odds" in out and "demographic_parity" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--group-col", "nope", "--ci", "0.95"], "has no column 'nope'"),
    (["--group-col", "patient"], "need intervals: add --ci"),
])
def test_bad_group_col(capsys, csv, argv, message):
    path, _f = csv
    code, _out, err = run(capsys, "evaluate", path, "--score-col", "a", "--label-col",
                          "label", *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_by_col_json_has_the_group_tables(capsys, csv):
    path, f = csv
    code, out, _err = run(capsys, "versus", path, "--score-col", "a", "--score-col", "b",
                          "--label-col", "label", "--by-col", "sex", "--measures", "acc",
                          "--n-boot", 200, "--json")
    assert code == 0
    got = json.loads(out)
    r = ml.compare_classifiers(f["label"], {"a": f["a"], "b": f["b"]}, by=f["sex"],
                               measures=["acc"], n_boot=200)
    want = r.gaps()
    assert [g["measure"] for g in got["gaps"]] == want["measure"].tolist()
    assert [g["gap"] for g in got["gaps"]] == pytest.approx(want["gap"].tolist(), rel=1e-12)
    assert {row["group"] for row in got["by_group"]} == {"f", "m"}
