"""``measurelab ranks`` on fold-level files (cli/_ranks_folds.py): the columns it used, the
runs read from the file, Demšar on the fold means, the correlated t per data set and the
hierarchical model over data sets × folds."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main


def _folds(n_datasets=4, runs=2, k=3, seed=0):
    g = np.random.default_rng(seed)
    rows = []
    for d in range(n_datasets):
        base = g.uniform(0.6, 0.9)
        for r in range(runs):
            for f in range(k):
                for m, shift in (("lr", 0.03), ("nb", 0.0), ("tree", -0.02)):
                    for meas in ("acc", "brier"):
                        v = base + shift + g.normal(0, 0.01)
                        rows.append((f"d{d}", m, meas, r, f, v if meas == "acc" else 1 - v))
    return pd.DataFrame(rows, columns=["dataset", "learner", "measure", "repeat", "fold",
                                       "value"])


def run(capsys, *argv):
    code = main(["ranks", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_fold_level_file_says_its_columns_and_ranks_the_means(tmp_path, capsys):
    df = _folds()
    p = tmp_path / "folds.csv"
    df.to_csv(p, index=False)
    code, out, err = run(capsys, p, "--measure", "acc", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["columns"] == {"dataset": "dataset", "model": "learner", "value": "value",
                              "fold": "fold", "run": "repeat", "measure": "measure"}
    assert (got["measure"], got["runs"], got["folds"]) == ("acc", 2, 3)
    means = df[df.measure == "acc"].groupby(["dataset", "learner"]).value.mean().unstack()
    assert got["avg_ranks"] == pytest.approx(ml.demsar(means).avg_ranks.to_dict())
    code, out, _ = run(capsys, p, "--measure", "acc")
    assert out.splitlines()[0] == (
        f"{p}: fold scores from columns data set 'dataset', model 'learner', score 'value', "
        "fold 'fold', run 'repeat' (2 runs); 3 folds per run, measure 'acc' of column "
        "'measure'.")


def test_a_loss_ranks_lowest_first(tmp_path, capsys):
    p = tmp_path / "folds.csv"
    _folds().to_csv(p, index=False)
    _code, out, _ = run(capsys, p, "--measure", "brier", "--json")
    got = json.loads(out)
    assert got["higher_is_better"] is False
    assert list(got["avg_ranks"]) == ["lr", "nb", "tree"]  # lr's brier is the smallest
    code, _out, err = run(capsys, p, "--measure", "acc", "--lower-is-better")
    assert code == 2 and "higher is better" in err


def test_bayes_per_data_set_and_hierarchical(tmp_path, capsys, monkeypatch):
    from measurelab.inference import bayes as bayes_module

    real = bayes_module.bayes_compare
    seen = []

    def spy(a, b, **kw):
        seen.append((np.shape(a), kw["method"], kw["runs"]))
        if kw["method"] == "hierarchical":  # the model itself is tested in test_bayes
            kw.update(method="signed-rank", runs=1)
            return real(np.mean(a, axis=1), np.mean(b, axis=1), **kw)
        return real(a, b, **kw)

    monkeypatch.setattr(bayes_module, "bayes_compare", spy)
    df = _folds()
    p = tmp_path / "folds.csv"
    df.to_csv(p, index=False)
    code, out, err = run(capsys, p, "--measure", "acc", "--bayes", "--rope", "0.01", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["bayes_method"] == "hierarchical" and len(got["bayes"]) == 3
    per = pd.DataFrame(got["bayes_per_dataset"])
    assert len(per) == 3 * 4 and set(per.dataset) == {"d0", "d1", "d2", "d3"}
    assert ((4, 6), "hierarchical", 2) in seen and ((6,), "correlated-t", 2) in seen
    # the correlated t of one data set, from the API
    a = df[(df.measure == "acc") & (df.dataset == "d1") & (df.learner == "lr")].value
    b = df[(df.measure == "acc") & (df.dataset == "d1") & (df.learner == "nb")].value
    ref = real(a.to_numpy(), b.to_numpy(), rope=0.01, method="correlated-t", runs=2)
    row = per[(per.dataset == "d1") & (per.a == "lr") & (per.b == "nb")].iloc[0]
    assert row.p_a_better == pytest.approx(ref.p_a_better, abs=1e-12)
    code, out, _ = run(capsys, p, "--measure", "acc", "--bayes", "--rope", "0.01")
    assert "correlated t-test per data set" in out and "hierarchical model" in out


@pytest.mark.parametrize(("edit", "argv", "message"), [
    (lambda d: d, [], "column 'measure' holds acc, brier; choose one with --measure"),
    (lambda d: d, ["--measure", "auc"], "--measure 'auc' is not in column 'measure'"),
    (lambda d: d.drop(columns="repeat"), ["--measure", "acc"],
     "appear twice (runs of cross-validation need a run column: --run-col)"),
    (lambda d: d.drop(index=4), ["--measure", "acc"], "every model needs every fold"),
    (lambda d: d.assign(value=d.value.astype(object).where(d.index != 2, "x")),
     ["--measure", "acc"], "is not a finite number"),
    (lambda d: d, ["--measure", "acc", "--fold-col", "fld"], "no column 'fld' (--fold-col"),
])
def test_bad_fold_files(tmp_path, capsys, edit, argv, message):
    p = tmp_path / "folds.csv"
    edit(_folds()).to_csv(p, index=False)
    code, _out, err = run(capsys, p, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_long_file_without_folds_points_to_the_fold_column(tmp_path, capsys):
    df = _folds(runs=1)
    df = df[df.measure == "acc"].drop(columns=["measure", "repeat", "fold"])
    p = tmp_path / "long.csv"
    df.rename(columns={"learner": "model", "value": "score"}).to_csv(p, index=False)
    code, _out, err = run(capsys, p, "--long")
    assert code == 2 and "--fold-col" in err
