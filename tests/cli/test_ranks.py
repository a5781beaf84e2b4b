"""``measurelab ranks``: Demšar's analysis over many data sets from a CSV, with the
Bayesian signed-rank verdicts and a page (issues 20 and 22)."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main


@pytest.fixture
def wide(tmp_path):
    g = np.random.default_rng(2)
    n = 12
    base = g.uniform(0.6, 0.9, n)
    df = pd.DataFrame({"dataset": [f"d{i}" for i in range(n)],
                       "nb": base.round(4),
                       "tree": (base + g.normal(0.02, 0.01, n)).round(4),
                       "knn": (base + g.normal(0.0, 0.02, n)).round(4)})
    p = tmp_path / "scores.csv"
    df.to_csv(p, index=False)
    return p, df


def run(capsys, *argv):
    code = main(["ranks", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_equals_the_api(capsys, wide):
    p, df = wide
    code, out, _ = run(capsys, p, "--json")
    assert code == 0
    got = json.loads(out)
    res = ml.demsar(df.set_index("dataset"))
    assert got["avg_ranks"] == pytest.approx(res.avg_ranks.to_dict())
    assert got["friedman"]["p"] == pytest.approx(res.friedman.pvalue)
    assert got["cd"] == pytest.approx(res.cd)
    assert len(got["pairs"]) == 3


def test_bayes_and_page(capsys, wide, tmp_path):
    p, df = wide
    html = tmp_path / "r.html"
    code, out, _ = run(capsys, p, "--bayes", "--rope", "0.01", "--json", "--html", html)
    assert code == 0
    got = json.loads(out)
    api = ml.demsar(df.set_index("dataset")).bayes(rope=0.01, random_state=0)
    assert [r["verdict"] for r in got["bayes"]] == api["verdict"].tolist()
    assert [r["p_b_better"] for r in got["bayes"]] == pytest.approx(
        api["p_b_better"].tolist())
    page = html.read_text()
    assert "Critical difference diagram" in page and "Bayesian verdicts" in page
    assert (tmp_path / "r-cd.png").exists() and not (tmp_path / "r-cd.svg").exists()
    assert page.index("<img") < page.index("<table")


def test_text_long_format_and_stdin(capsys, wide, monkeypatch):
    _p, df = wide
    long = df.melt(id_vars="dataset", var_name="model", value_name="score")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        long.to_csv(index=False).encode())))
    code, out, _ = run(capsys, "-", "--long")
    assert code == 0 and out.startswith("Average ranks over 12 data sets")
    assert "Friedman's test" in out


def test_lower_is_better_flips_ranks(capsys, wide):
    p, df = wide
    code, out, _ = run(capsys, p, "--json", "--lower-is-better")
    assert code == 0
    res = ml.demsar(df.set_index("dataset"), higher_is_better=False)
    assert json.loads(out)["avg_ranks"] == pytest.approx(res.avg_ranks.to_dict())


@pytest.mark.parametrize("argv,message", [
    (["--bayes"], "--bayes needs --rope"),
    (["--rope", "0.01"], "--rope applies with --bayes"),
    (["--bayes", "--rope", "x"], "--rope must be a number"),
    (["--alpha", "x"], "--alpha must be a number"),
    (["--decimals", "1.5"], "--decimals must be an integer"),
    (["--long"], "no column 'model'"),
    (["--html", "/"], "is a folder"),
])
def test_bad_input(capsys, wide, argv, message):
    p, _ = wide
    code, out, err = run(capsys, p, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_non_numeric_column_named(capsys, tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("dataset,a,b\nd1,0.5,x\nd2,0.6,0.7\n")
    code, _out, err = run(capsys, p)
    assert code == 2 and "column 'b' is not numeric" in err


def test_demsar_page_api_and_literal_names(tmp_path):
    t = pd.DataFrame({"$a$": [.9, .8, .85, .7, .9], "b<": [.8, .7, .8, .6, .8]})
    res = ml.demsar(t)
    page = res.to_html(tmp_path / "d.html").read_text()
    assert "$a$" in page and "b&lt;" in page
    texts = [t.get_text() for t in res.plot().texts]
    assert any(x.startswith(r"\$a\$") for x in texts)
    assert "<img" in res._repr_html_()


def test_scores_read_correctly_rounded(tmp_path):
    """The scores table reads each number as Python's ``float`` of its text (17-digit
    decimals that pandas 2's default converter reads an ulp or two off)."""
    import argparse

    from measurelab.cli.ranks import read_table

    g = np.random.default_rng(4)
    vals = np.concatenate([[0.08333333333333333, 0.16666666666666666], g.random(58)])
    vals = vals.reshape(20, 3)
    p = tmp_path / "s.csv"
    p.write_text("dataset,a,b,c\n" + "".join(
        f"d{i}," + ",".join(repr(v) for v in row) + "\n" for i, row in enumerate(vals.tolist())))
    args = argparse.Namespace(file=str(p), long=False, fold_col=None, measure=None,
                              dataset_col=None, model_col=None, value_col=None, run_col=None)
    assert read_table(args).to_numpy().tolist() == vals.tolist()


def test_measure_orders_the_scores(capsys, tmp_path):
    """--measure spiegelhalter_z ranks by |z| (the API's ranks); with --lower-is-better it
    is refused before any work."""
    g = np.random.default_rng(9)
    df = pd.DataFrame({"dataset": [f"d{i}" for i in range(8)], "cal": g.normal(0, 1, 8),
                       "cautious": g.normal(-5, 1, 8)})
    p = tmp_path / "z.csv"
    df.to_csv(p, index=False)
    code, out, _ = run(capsys, p, "--measure", "spiegelhalter_z", "--json")
    assert code == 0
    got = json.loads(out)
    want = ml.demsar(df.set_index("dataset"), measure="spiegelhalter_z")
    assert got["avg_ranks"] == pytest.approx(want.avg_ranks.to_dict())
    assert got["direction"] == "closer to 0" and next(iter(got["avg_ranks"])) == "cal"
    code, _, err = run(capsys, p, "--measure", "spiegelhalter_z", "--lower-is-better")
    assert code == 2 and "give --measure or --lower-is-better, not both" in err
    code, _, err = run(capsys, p, "--measure", "spiegelhaltr_z")
    assert code == 2 and "did you mean 'spiegelhalter_z'" in err
