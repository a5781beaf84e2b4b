"""``measurelab evaluate``: output equals the Python API, every bad input gives one line on
standard error and exit status 2 (never a traceback)."""

from __future__ import annotations

import io
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, matthews_corrcoef, roc_auc_score

import measurelab as ml
from measurelab.cli import main
from tests.conftest import make_binary


def perf_text(y, s) -> str:
    return "".join(f"{a} {b!r}\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))


def run_cli(capsys, *argv: str, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["evaluate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def from_json(out: str) -> dict:
    def num(v):
        if v is None:  # undefined values are JSON null
            return math.nan
        return float(v) if v in ("inf", "-inf") else v

    return {k: num(v) for k, v in json.loads(out).items()}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and math.isnan(a[k]) and math.isnan(b[k]))
        for k in a
    )


@pytest.fixture
def preds(tmp_path, rng):
    s = np.round(rng.random(1500), 2)  # heavy ties, calibrated labels
    y = (rng.random(1500) < s).astype(np.int64)
    f = tmp_path / "preds.txt"
    f.write_text(perf_text(y, s))
    return f, y, s


def test_json_equals_api_and_keys_are_registry_names(capsys, preds):
    f, y, s = preds
    code, out, err = run_cli(capsys, str(f), "--json")
    assert code == 0 and err == ""
    got = from_json(out)
    want = from_json(json.dumps(ml.evaluate(y, s).to_dict()))
    assert same(got, want)
    assert set(got) - {"dp_band"} == {m.name for m in ml.registry if m.in_default_set}
    assert got["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert got["f1"] == pytest.approx(f1_score(y, s > 0.5), abs=1e-12)
    assert got["mcc"] == pytest.approx(matthews_corrcoef(y, s > 0.5), abs=1e-12)


def test_table_output_lists_the_chosen_measures(capsys, preds):
    f, y, s = preds
    code, out, _ = run_cli(capsys, str(f), "--measures", "auc,f_beta@2,lift@0.1,auc:acc")
    assert code == 0
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[2:]}
    assert list(rows) == ["auc", "f_beta@2", "lift@0.1", "auc:acc"]
    assert float(rows["auc"]) == pytest.approx(roc_auc_score(y, s), abs=1e-6)
    r = ml.evaluate(y, s, measures=["f_beta@2"])
    assert float(rows["f_beta@2"]) == pytest.approx(r["f_beta@2"], abs=1e-6)


def test_threshold_and_inclusive(capsys, preds):
    f, y, s = preds
    t = float(np.median(s))  # a score that occurs: > and >= differ
    _, out, _ = run_cli(capsys, str(f), "--measures", "acc", "--threshold", str(t), "--json")
    assert json.loads(out)["acc"] == pytest.approx(np.mean((s > t) == (y == 1)), abs=1e-15)
    _, out, _ = run_cli(capsys, str(f), "--measures", "acc", "--threshold", str(t),
                        "--inclusive", "--json")
    assert json.loads(out)["acc"] == pytest.approx(np.mean((s >= t) == (y == 1)), abs=1e-15)


def test_formats_and_stdin_give_identical_json(capsys, monkeypatch, preds, tmp_path):
    f, y, s = preds
    df = pd.DataFrame({"truth": np.where(y == 1, "pos", "neg"), "p": s})
    csv = tmp_path / "p.csv"
    df.to_csv(csv, index=False)
    pq = tmp_path / "p.parquet"
    df.to_parquet(pq)
    outs = [
        run_cli(capsys, str(f), "--json")[1],
        run_cli(capsys, str(f), "--json", "--chunk-rows", "7")[1],
        run_cli(capsys, str(csv), "--json", "--label-col", "truth", "--score-col", "p",
                "--pos-label", "pos")[1],
        run_cli(capsys, str(pq), "--json", "--label-col", "truth", "--pos-label", "pos",
                "--chunk-rows", "100")[1],
        run_cli(capsys, "-", "--json", stdin=f.read_bytes(), monkeypatch=monkeypatch)[1],
        run_cli(capsys, "-", "--json", "--pos-label", "pos", stdin=csv.read_bytes(),
                monkeypatch=monkeypatch)[1],
    ]
    assert all(o == outs[0] for o in outs), [o[:80] for o in outs]


def test_counts_equal_evaluate_counts(capsys):
    code, out, err = run_cli(capsys, "--counts", "1242", "390", "189", "740", "--json")
    assert code == 0 and err == ""
    want = ml.evaluate_counts(tp=1242, fp=390, fn=189, tn=740).to_dict()
    assert json.loads(out) == json.loads(json.dumps(want))
    assert {m.name for m in ml.registry if m.kind == "threshold" and m.in_default_set} \
        <= set(json.loads(out))
    # the measures computed only when named (the confusion-matrix catalogue) when named
    code, named, err = run_cli(capsys, "--counts", "1242", "390", "189", "740", "--json",
                               "--measures", "dor,jaccard,scott_pi")
    assert code == 0 and err == ""
    assert json.loads(named) == json.loads(json.dumps(ml.evaluate_counts(
        tp=1242, fp=390, fn=189, tn=740, measures=["dor", "jaccard", "scott_pi"]).to_dict()))
    assert json.loads(named)["dor"] == pytest.approx(1242 * 740 / (390 * 189), rel=1e-15)
    # Sokolova 2006 Table 2 (SVM): accuracy from the counts by hand
    assert json.loads(out)["acc"] == pytest.approx((1242 + 740) / (1242 + 390 + 189 + 740))


def test_single_class_auc_warns_in_one_line(capsys, monkeypatch):
    code, out, err = run_cli(capsys, "-", "--measures", "auc,acc", "--json",
                             stdin=b"1 0.2\n1 0.9\n", monkeypatch=monkeypatch)
    assert code == 0
    assert json.loads(out) == {"auc": None, "acc": 0.5}
    assert err.count("\n") == 1 and "warning" in err and "AUC is undefined" in err
    assert "Traceback" not in err and "UndefinedMeasureWarning" not in err


BAD_STDIN = [
    (b"1 0.5\n0 nan\n", "line 2"),
    (b"1 0.5\n0 inf\n", "line 2"),
    (b"1 0.5\n0 x1\n", "line 2"),
    (b"1 0.5\n\n0\n", "line 3"),
    (b"", "empty"),
    (b"1 .5\n0 .2\n3 .1\n", "line 3: a third class 3"),
]


@pytest.mark.parametrize(("text", "where"), BAD_STDIN)
def test_bad_input_one_line_exit_2(capsys, monkeypatch, text, where):
    code, out, err = run_cli(capsys, "-", stdin=text, monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and where in err and err.startswith("measurelab evaluate: error")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.txt"], "missing.txt: no such file"),
        (["{f}", "--measures", "aucc"], "did you mean 'auc'"),
        (["{f}", "--measures", "auc,rms"], "rms is a probability measure"),
        (["{f}", "--pos-label", "yes"], "pos_label='yes' is not a valid label"),
        (["{f}", "--counts", "1", "2", "3", "4"], "either FILE or --counts"),
        (["--counts", "1", "-2", "3", "4"], "FP must be a non-negative count"),
        ([], "give a FILE"),
        (["{f}", "--chunk-rows", "0"], "at least 1"),
        (["{f}", "--format", "csv", "--score-col", "p"], "cannot tell which column"),
    ],
)
def test_bad_arguments_one_line_exit_2(capsys, tmp_path, argv, message):
    f = tmp_path / "p.txt"
    f.write_text("1 1.5\n0 0.2\n")
    argv = [a.replace("{f}", str(f)) for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_probability_measures_skipped_without_explicit_request(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("1 1.5\n0 0.2\n1 3\n")
    code, out, _ = run_cli(capsys, str(f), "--json")
    got = json.loads(out)
    assert code == 0 and got["auc"] == 1.0 and "rms" not in got and "cal" not in got


def test_scheduler_calls_distributed_evaluate_parquet(capsys, monkeypatch, tmp_path, rng):
    import measurelab.io.distributed as dist

    y, s, _ = make_binary(rng, 200)
    pd.DataFrame({"target": y, "score": s}).to_parquet(tmp_path / "a.parquet")
    seen = {}

    def fake(path, **kw):
        seen.update(kw, path=path)
        return ml.evaluate(y, s, measures=kw["measures"])

    monkeypatch.setattr(dist, "evaluate_parquet", fake)
    code, out, _ = run_cli(capsys, str(tmp_path), "--scheduler", "tcp://h:1", "--measures",
                           "auc", "--json")
    assert code == 0 and json.loads(out) == {"auc": ml.metrics.auc(y, s)}
    assert seen["scheduler"] == "tcp://h:1"
    assert (seen["label_col"], seen["score_col"]) == ("target", "score")


def test_scheduler_without_distributed_module_is_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "measurelab.io.distributed", None)  # import fails
    pd.DataFrame({"target": [0, 1], "score": [0.1, 0.9]}).to_parquet(tmp_path / "a.parquet")
    code, _, err = run_cli(capsys, str(tmp_path), "--scheduler", "tcp://h:1")
    assert code == 2 and "distributed evaluation is unavailable" in err
    assert err.count("\n") == 1


def test_console_script_subprocess(preds):
    f, y, s = preds
    exe = Path(sys.executable).with_name("measurelab")
    cmd = [str(exe)] if exe.exists() else [shutil.which("measurelab") or "measurelab"]
    ok = subprocess.run([*cmd, "evaluate", "-", "--json", "--measures", "auc,apr"],
                        input=f.read_bytes(), capture_output=True, check=False)
    assert ok.returncode == 0
    assert json.loads(ok.stdout) == dict(ml.evaluate(y, s, measures=["auc", "apr"]))
    bad = subprocess.run([*cmd, "evaluate", "-"], input=b"1 0.5\n0 nan\n",
                         capture_output=True, check=False)
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.decode().count("\n") == 1 and b"Traceback" not in bad.stderr


def test_direction_of_a_target_measure_in_listing_and_tables(capsys):
    """`measurelab measures` and `evaluate`'s table say 'closer to 0' for spiegelhalter_z;
    the JSON listing too; EvaluationResult.to_frame() and the page's arrow agree."""
    from measurelab.measures._result_page import arrow, rows

    assert main(["measures", "--kind", "probability"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("spiegelhalter_z"))
    assert "closer to 0" in line
    assert main(["measures", "--json"]) == 0
    entries = {e["name"]: e for e in json.loads(capsys.readouterr().out)}
    assert entries["spiegelhalter_z"]["direction"] == "closer to 0"
    assert entries["auc"]["direction"] == "higher" and entries["rms"]["direction"] == "lower"
    r = ml.evaluate([0, 1, 0, 1, 1], [0.2, 0.7, 0.4, 0.9, 0.6],
                    measures=["auc", "brier", "spiegelhalter_z"])
    assert r.to_frame()["direction"].to_dict() == {"auc": "higher", "brier": "lower",
                                                    "spiegelhalter_z": "closer to 0"}
    assert [x[-1] for x in rows(r)] == ["↑", "↓", "→0"]
    assert arrow(ml.registry.get("spiegelhalter_z")) == "→0"
    from measurelab.cli.evaluate import format_table

    assert "closer to 0" in format_table(r)
    fig = r.plot()
    assert "→0 closer to 0" in fig.axes[0].get_title()
    import matplotlib.pyplot as plt

    plt.close(fig)
