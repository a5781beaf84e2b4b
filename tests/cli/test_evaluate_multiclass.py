"""``measurelab evaluate --proba-cols``: k-class files through the chunked reader (CSV,
Parquet file and folder, standard input) and ``--scheduler`` equal the Python API; bad
input is one line and exit status 2."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import measurelab as ml
from measurelab.cli import main

COLS = ["c0", "c1", "c2"]


def run_cli(capsys, *argv: str, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["evaluate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def frame(rng):
    n, k = 900, 3
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.3 * np.eye(k)[y]
    P = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), 2)  # ties
    P[:, -1] = np.round(1 - P[:, 0] - P[:, 1], 2)
    P = np.clip(P, 0, 1)
    w = rng.integers(1, 5, n).astype(float)  # frequency weights: sums are exact
    df = pd.DataFrame({"y": y, "c0": P[:, 0], "c1": P[:, 1], "c2": P[:, 2], "w": w})
    return df


def _api(df, average="macro", weighted=True):
    return ml.evaluate(df["y"].to_numpy(), df[COLS].to_numpy(), labels=[0, 1, 2],
                       sample_weight=df["w"].to_numpy() if weighted else None,
                       average=average)


def _exact(got: dict, want: dict) -> None:
    """Equal values, per-class values compared in class order (the names differ: the API's
    labels 0, 1, 2 versus the file's column names)."""
    assert list(got) == list(want)
    for k in want:
        a, b = got[k], want[k]
        assert (list(a.values()) if isinstance(a, dict) else a) == (
            list(b.values()) if isinstance(b, dict) else b), k


def _close(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for k in want:
        a, b = got[k], want[k]
        if isinstance(b, dict):
            assert list(a.values()) == pytest.approx(list(b.values()), abs=1e-12), k
        elif isinstance(b, str):
            assert a == b, k
        else:
            assert a == pytest.approx(b, abs=1e-12), k


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "none"])
def test_csv_equals_api_and_chunked_equals_whole(capsys, tmp_path, frame, average):
    f = tmp_path / "mc.csv"
    frame.to_csv(f, index=False)
    argv = [str(f), "--label-col", "y", "--proba-cols", "c0,c1,c2", "--weight-col", "w",
            "--average", average, "--json"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    got = json.loads(out)
    want = json.loads(json.dumps(_api(frame, None if average == "none" else average).to_dict()))
    _close(got, want)
    assert {"mxe", "brier", "rms", "ece", "top_k_acc", "auc", "acc"} <= set(got)
    if average == "none":  # per-class values: {class: value}, classes from the column names
        assert list(got["prec"]) == COLS and isinstance(got["acc"], float)
    code, out2, err = run_cli(capsys, *argv, "--chunk-rows", "64")
    assert code == 0, err
    assert json.loads(out2) == got  # chunked merge is exact


def test_parquet_folder_and_stdin_equal_api(capsys, tmp_path, frame, monkeypatch):
    d = tmp_path / "parts"
    d.mkdir()
    for i, (a, b) in enumerate([(0, 300), (300, 301), (301, 900)]):
        pq.write_table(pa.Table.from_pandas(frame.iloc[a:b], preserve_index=False),
                       d / f"part-{i}.parquet", row_group_size=128)
    want = _api(frame, None).to_dict()
    code, out, err = run_cli(capsys, str(d), "--proba-cols", "c0,c1,c2", "--weight-col", "w",
                             "--average", "none", "--json")
    assert code == 0, err
    got = json.loads(out)
    _exact(got, json.loads(json.dumps(want)))  # Parquet keeps the floats: exact
    code, out, err = run_cli(capsys, str(d / "part-0.parquet"), "--proba-cols", "c0,c1,c2",
                             "--json", "--chunk-rows", "50")
    assert code == 0, err
    _close(json.loads(out), json.loads(json.dumps(_api(frame.iloc[:300], weighted=False)
                                                  .to_dict())))
    text = frame.to_csv(index=False).encode()
    code, out, err = run_cli(capsys, "-", "--proba-cols", "c0,c1,c2", "--weight-col", "w",
                             "--average", "none", "--json", "--chunk-rows", "100",
                             stdin=text, monkeypatch=monkeypatch)
    assert code == 0, err
    _close(json.loads(out), json.loads(json.dumps(want)))


def test_class_names_from_classes_flag_and_prefix(capsys, tmp_path, frame):
    names = np.array(["setosa", "versicolor", "virginica"])
    df = frame.assign(y=names[frame["y"]]).rename(
        columns={"c0": "p_setosa", "c1": "p_versicolor", "c2": "p_virginica"})
    f = tmp_path / "iris.csv"
    df.to_csv(f, index=False)
    want = _api(frame, None).to_dict()
    cols = "p_setosa,p_versicolor,p_virginica"
    code, out, err = run_cli(capsys, str(f), "--proba-cols", cols, "--weight-col", "w",
                             "--average", "none", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert list(got["f1"]) == cols.split(",")  # labels matched without the 'p_' prefix
    _close(got, json.loads(json.dumps(want)))
    df2 = df.rename(columns={"p_setosa": "A", "p_versicolor": "B", "p_virginica": "C"})
    df2.to_csv(f, index=False)
    code, out, err = run_cli(capsys, str(f), "--proba-cols", "A,B,C", "--classes",
                             "setosa,versicolor,virginica", "--weight-col", "w",
                             "--average", "none", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert list(got["f1"]) == list(names)
    _close(got, json.loads(json.dumps(want)))
    code, out, err = run_cli(capsys, str(f), "--proba-cols", "A,B,C", "--classes",
                             "setosa,versicolor,virginica", "--average", "none")
    assert code == 0, err
    assert "f1[versicolor]" in out  # the text table names each class's row


def test_rows_not_summing_to_one_warn_with_the_row(capsys, tmp_path, frame):
    bad = frame.copy()
    bad.loc[41, "c0"] = 0.0  # row 42 of the data now sums to less than 1
    f = tmp_path / "mc.csv"
    bad.to_csv(f, index=False)
    code, _out, err = run_cli(capsys, str(f), "--proba-cols", "c0,c1,c2", "--json",
                             "--measures", "mxe,acc", "--chunk-rows", "10")
    assert code == 0
    assert "do not sum to 1" in err and "data row 42," in err


@pytest.mark.parametrize(
    ("edit", "argv", "match"),
    [
        (None, ["--proba-cols", "c0,c1,c9"], "no column 'c9'"),
        (None, ["--proba-cols", "c0"], "--proba-cols names 1 column"),
        ("extra_class", ["--proba-cols", "c0,c1,c2"],
         "row 5: the label 7 in column 'y' has no probability column"),
        ("negative", ["--proba-cols", "c0,c1,c2"],
         "row 3: the probability -0.2 in column 'c1' is negative"),
        (None, ["--proba-cols", "c0,c1,c2", "--classes", "a,b"], "--classes names 2 classes"),
        (None, ["--proba-cols", "c0,c1,c2", "--score-col", "c0"], "either --score-col"),
        ("two_models", ["--proba-cols", "c0,c1"], "the two --proba-cols sum to"),
        ("two_models", ["--proba-cols", "c0,c1"], "several --score-col"),
        ("no_label", ["--proba-cols", "c0,c1,c2"], "cannot tell which column holds the labels"),
        (None, ["--proba-cols", "c0,c1,c2", "--threshold", "0.3"], "--threshold does not apply"),
        (None, ["--proba-cols", "c0,,c2"], "has an empty name"),
        (None, ["--proba-cols", "c0,c1,c0"], "names 'c0' twice"),
        (None, ["--classes", "a,b,c"], "--classes needs --proba-cols"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, frame, edit, argv, match):
    df = frame.copy()
    if edit == "extra_class":
        df.loc[4, "y"] = 7
    elif edit == "negative":
        df.loc[2, "c1"] = -0.2
    elif edit == "two_models":
        df = df.assign(y=df["y"] % 2)
    elif edit == "no_label":
        df = df.rename(columns={"y": "truth_value"})
    f = tmp_path / "mc.csv"
    df.to_csv(f, index=False)
    code, out, err = run_cli(capsys, str(f), *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and match in err, err


def test_average_on_a_binary_file_is_refused(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("1 0.5\n0 0.2\n")
    code, out, err = run_cli(capsys, str(f), "--average", "none")
    assert code == 2 and out == "" and "--average applies to multi-class input" in err


def test_perf_text_and_empty_stdin_are_not_multiclass(capsys, tmp_path, monkeypatch):
    f = tmp_path / "p.txt"
    f.write_text("1 0.5\n0 0.2\n")
    code, _, err = run_cli(capsys, str(f), "--proba-cols", "a,b")
    assert code == 2 and "must be CSV or Parquet" in err
    code, _, err = run_cli(capsys, "-", "--proba-cols", "a,b", stdin=b"1 0.5\n",
                           monkeypatch=monkeypatch)
    assert code == 2 and "must be CSV with a header" in err
    code, _, err = run_cli(capsys, "-", "--proba-cols", "a,b", stdin=b"\n",
                           monkeypatch=monkeypatch)
    assert code == 2 and "<stdin> is empty" in err


def test_scheduler_equals_local_reader(capsys, tmp_path, frame, dask_cluster):
    d = tmp_path / "parts"
    d.mkdir()
    for i, (a, b) in enumerate([(0, 450), (450, 900)]):
        pq.write_table(pa.Table.from_pandas(frame.iloc[a:b], preserve_index=False),
                       d / f"part-{i}.parquet", row_group_size=100)
    bad = frame.copy()
    bad.loc[10, "c2"] = bad.loc[10, "c2"] / 2
    bad.loc[610, ["c1", "c2"]] = 0.0
    pq.write_table(pa.Table.from_pandas(bad, preserve_index=False), tmp_path / "bad.parquet",
                   row_group_size=100)
    argv = ["--proba-cols", "c0,c1,c2", "--weight-col", "w", "--average", "none", "--json"]
    c = dask_cluster
    code, out, err = run_cli(capsys, str(d), "--scheduler", c.scheduler_address, *argv)
    assert code == 0, err
    code2, _out2, err2 = run_cli(capsys, str(tmp_path / "bad.parquet"), "--scheduler",
                                c.scheduler_address, *argv)
    code3, local, _err3 = run_cli(capsys, str(d), *argv)
    assert code3 == 0 and json.loads(out) == json.loads(local)
    _exact(json.loads(out), json.loads(json.dumps(_api(frame, None).to_dict())))
    worst = int(np.argmax(np.abs(bad[COLS].sum(axis=1).to_numpy() - 1))) + 1
    assert worst > 100  # in a later row group: the row is counted globally
    assert code2 == 0 and f"data row {worst}, which" in err2


def test_named_pipe_is_read_once(tmp_path, frame, capsys):
    """A FIFO (as ``<(...)`` gives) is read once, header and rows together, and gives the
    same values as the regular file."""
    import os
    import subprocess

    path = tmp_path / "m.csv"
    frame.to_csv(path, index=False)
    code, want, _ = run_cli(capsys, str(path), "--label-col", "y", "--proba-cols",
                            ",".join(COLS), "--classes", "0,1,2", "--json")
    assert code == 0
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    src = os.path.join(os.path.dirname(ml.__file__), os.pardir)
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "measurelab.cli", "evaluate", str(fifo), "--label-col", "y",
         "--proba-cols", ",".join(COLS), "--classes", "0,1,2", "--json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(fifo, "wb") as fh:  # blocks until the reader opens the pipe
        fh.write(path.read_bytes())
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert json.loads(out) == json.loads(want)


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("bin.csv", bytes(range(128, 256)) * 3, "is not UTF-8 text"),
        ("nul.csv", b"y,c0,c1,c2\x00\x00\x01", "binary"),
        ("twice.csv.gz", None, "is gzip-compressed twice"),
    ],
)
def test_binary_or_double_compressed_text_is_one_line(tmp_path, capsys, name, content,
                                                      fragment):
    import gzip

    path = tmp_path / name
    if content is None:
        path.write_bytes(gzip.compress(gzip.compress(b"y,c0,c1,c2\n0,0.5,0.3,0.2\n")))
    else:
        path.write_bytes(content)
    code, _, err = run_cli(capsys, str(path), "--label-col", "y", "--proba-cols",
                           ",".join(COLS))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert fragment in lines[0], lines[0]
