"""Every bad input is refused in one line (issue 12).

A table of bad inputs to the command line and the API. Each CLI case must exit with
status 2 and print exactly one line on standard error, naming the problem (a fragment of
the expected message is checked), with no traceback; each API case must raise
``MeasurelabError`` with a one-line message. Most CLI cases run in-process
(``measurelab.cli.main``); a handful run as subprocesses (pipes, an unreachable scheduler).
"""

from __future__ import annotations

import bz2
import gzip
import io
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab import MeasurelabError
from measurelab import io as mlio
from measurelab.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")

#: files the cases refer to as {name}; bytes, or a callable writing the file
FILES: dict[str, object] = {
    "ok.txt": b"1 0.9\n0 0.2\n1 0.6\n0 0.4\n",
    "big.txt": b"1 2.5\n0 0.2\n",
    "extra.csv": b"y,p\n0,0.1\n1,0.9\n0,0,2\n",
    "extra1.csv": b"y,p\n0,0,2\n1,0.9\n",
    "underscore.txt": b"1_0 0.5\n0 0.2\n",
    "fullwidth.txt": "\uff11 0.5\n0 0.2\n".encode(),
    "three.txt": b"1 0.9\n0 0.2\n2 0.4\n",
    "three-late.txt": b"5 0.1\n5 0.3\n\n0 0.2\n1 0.3\n",
    "gz.txt": gzip.compress(b"1 0.9\n0 0.2\n"),
    "gz.csv": gzip.compress(b"y,p\n1,0.9\n0,0.2\n"),
    "bz.txt": bz2.compress(b"1 0.9\n0 0.2\n"),
    "nul.txt": b"1 0.9\n\x00\x00\x00\n",
    "long.txt": b"1 " + b"9" * 5000 + b"x\n0 0.2\n",
    "longline.txt": b"x" * 5000 + b"\n",
    "nan.txt": b"1 0.5\n0 nan\n",
    "inflabel.txt": b"inf 0.5\n0 0.2\n",
    "threecols.txt": b"1 0.5 7\n",
    "empty.txt": b"",
    "blank.txt": b"\n\n   \n",
    "abc.csv": b"a,b,c\n1,2,3\n",
    "strscore.csv": b"y,p\n1,0.5\n0,abc\n",
    "missing.csv": b"y,p\n1,0.5\n0,\n",
    "nolabel.csv": b"y,p\n1,0.5\n,0.2\n",
    "negw.csv": b"y,p,w\n1,0.5,1\n0,0.2,-3\n",
    "trunc.txt.gz": gzip.compress(b"1 0.9\n0 0.2\n" * 1000)[:60],
    "notgz.txt.gz": b"1 0.9\n0 0.2\n",
    "garbage.parquet": b"hello, this is not parquet\n",
    "hugelabel.csv": b"y,p\n0,0.1\n1,0.2\n" + b"z" * 5000 + b",0.3\n",
    "hugepos.csv": b"y,p\n" + b"a" * 3000 + b",0.1\n" + b"b" * 3000 + b",0.2\n",
    "dup.csv": b"y,p,p\n1,0.9,0.1\n0,0.2,0.8\n",
    "tiny.csv": b"f,t\n1,a\n2,b\n3,a\n",
}


def _damaged_parquet(path: Path) -> None:
    """A Parquet file whose second row group has a damaged data page (gzip pages carry a
    checksum, so the damage is detectable, as a corrupt snappy page is)."""
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"y": rng.integers(0, 2, 20000), "p": rng.random(20000)})
    df.to_parquet(path, compression="gzip", row_group_size=5000)
    col = pq.ParquetFile(path).metadata.row_group(1).column(1)
    start = col.data_page_offset + col.total_compressed_size // 2
    data = bytearray(path.read_bytes())
    data[start:start + 200] = bytes(200)
    path.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    for name, content in FILES.items():
        (d / name).write_bytes(content)  # type: ignore[arg-type]
    _damaged_parquet(d / "damaged.parquet")
    (d / "adir").mkdir()
    (d / "afile").write_text("x")
    return d


# (argv with {d} for the files folder, fragment of the one error line)
CLI_CASES: list[tuple[str, list[str], str]] = [
    ("threshold-nan", ["evaluate", "{d}/ok.txt", "--threshold", "nan"],
     "threshold must be a number, got NaN"),
    ("counts-huge-float", ["evaluate", "--counts", "1e20", "1", "1", "1"],
     "too large to be an exact count"),
    ("counts-negative", ["evaluate", "--counts", "-1", "1", "1", "1"], "non-negative count"),
    ("counts-inf", ["evaluate", "--counts", "inf", "1", "1", "1"], "TP must be a finite count"),
    ("counts-nan", ["evaluate", "--counts", "1", "nan", "1", "1"], "FP must be a finite"),
    ("counts-underscore", ["evaluate", "--counts", "1_0", "1", "1", "1"],
     "TP must be a number, got '1_0'"),
    ("counts-text", ["evaluate", "--counts", "x", "1", "1", "1"], "must be a number, got 'x'"),
    ("counts-all-zero", ["evaluate", "--counts", "0", "0", "0", "0"], "total weight is 0"),
    ("csv-extra-field", ["evaluate", "{d}/extra.csv"],
     "extra.csv, line 4: expected 2 fields (as the header), got 3"),
    ("csv-extra-field-first-row", ["evaluate", "{d}/extra1.csv"],
     "row 1: more fields than the header"),
    ("perf-underscore-digits", ["evaluate", "{d}/underscore.txt"],
     "line 1: the target '1_0' is not a number"),
    ("perf-fullwidth-digits", ["evaluate", "{d}/fullwidth.txt"],
     "line 1: the target '\uff11' is not a number"),
    ("param-nan", ["evaluate", "{d}/ok.txt", "--measures", "f_beta@nan"],
     "f_beta: beta=nan is not valid"),
    ("param-mxe-0", ["evaluate", "{d}/ok.txt", "--measures", "mxe@0"],
     "mxe: base=0.0 is not valid"),
    ("param-mxe-1", ["evaluate", "{d}/ok.txt", "--measures", "mxe@1"],
     "positive number other than 1"),
    ("param-ece-fraction", ["evaluate", "{d}/ok.txt", "--measures", "ece@2.5"],
     "n_bins=2.5 is not valid; expected a positive integer"),
    ("param-cal-0", ["evaluate", "{d}/ok.txt", "--measures", "cal@0"], "window=0.0"),
    ("param-lift-2", ["evaluate", "{d}/ok.txt", "--measures", "lift@2"], "0 < q <= 1"),
    ("param-lift-inf", ["evaluate", "{d}/ok.txt", "--measures", "lift@inf"],
     "expected a finite number"),
    ("param-text", ["evaluate", "{d}/ok.txt", "--measures", "f_beta@two"],
     "the value after '@' must be a number"),
    ("third-class", ["evaluate", "{d}/three.txt"], "three.txt, line 3: a third class 2"),
    ("third-class-first-appearance", ["evaluate", "{d}/three-late.txt"],
     "line 5: a third class 1"),
    ("gzip-named-txt", ["evaluate", "{d}/gz.txt"], "looks gzip-compressed; name it .gz"),
    ("gzip-named-csv", ["evaluate", "{d}/gz.csv"], "gz.csv looks gzip-compressed"),
    ("bzip2-content", ["evaluate", "{d}/bz.txt"], "looks bzip2-compressed"),
    ("nul-bytes", ["evaluate", "{d}/nul.txt"], "holds NUL bytes"),
    ("huge-token", ["evaluate", "{d}/long.txt"], "(5001 characters)"),
    ("huge-line", ["evaluate", "{d}/longline.txt"], "got one column"),
    ("nan-score", ["evaluate", "{d}/nan.txt"], "line 2: the prediction is 'nan'"),
    ("inf-label", ["evaluate", "{d}/inflabel.txt"], "line 1: the target is 'inf'"),
    ("three-columns", ["evaluate", "{d}/threecols.txt"], "got 3 columns"),
    ("missing-file", ["evaluate", "{d}/nosuch.txt"], "no such file"),
    ("directory-as-text", ["evaluate", "{d}/adir", "--format", "perf"], "is a directory"),
    ("empty-file", ["evaluate", "{d}/empty.txt"], "is empty"),
    ("blank-file", ["evaluate", "{d}/blank.txt"], "is empty"),
    ("csv-unknown-column", ["evaluate", "{d}/abc.csv", "--label-col", "nope"],
     "no column 'nope'"),
    ("csv-which-column", ["evaluate", "{d}/abc.csv"],
     "cannot tell which column holds the labels"),
    ("csv-text-score", ["evaluate", "{d}/strscore.csv"],
     "row 2: the score 'abc' in column 'p' is not a number"),
    ("csv-missing-score", ["evaluate", "{d}/missing.csv"], "row 2: the score in column 'p'"),
    ("csv-missing-label", ["evaluate", "{d}/nolabel.csv"], "row 2: the label in column 'y'"),
    ("csv-negative-weight", ["evaluate", "{d}/negw.csv", "--weight-col", "w"],
     "row 2: the weight -3.0 in column 'w' is negative"),
    ("pos-label-absent", ["evaluate", "{d}/ok.txt", "--pos-label", "7"],
     "pos_label=7 is not a valid label"),
    ("pos-label-text", ["evaluate", "{d}/ok.txt", "--pos-label", "yes"],
     "the labels are numbers"),
    ("unknown-measure", ["evaluate", "{d}/ok.txt", "--measures", "nosuch"],
     "unknown measure 'nosuch'"),
    ("empty-measures", ["evaluate", "{d}/ok.txt", "--measures", ","], "--measures is empty"),
    ("two-level-half", ["evaluate", "{d}/ok.txt", "--measures", "auc:"],
     "must be two names joined by ':'"),
    ("chunk-rows-0", ["evaluate", "{d}/ok.txt", "--chunk-rows", "0"], "at least 1"),
    ("file-and-counts", ["evaluate", "{d}/ok.txt", "--counts", "1", "2", "3", "4"],
     "give either FILE or --counts"),
    ("nothing-to-evaluate", ["evaluate"], "give a FILE"),
    ("probability-range", ["evaluate", "{d}/big.txt", "--measures", "rms"],
     "needs scores in [0, 1], got 2.5"),
    ("counts-and-rank-measure", ["evaluate", "--counts", "1", "2", "3", "4", "--measures",
                                 "auc"], "needs scores, but only confusion counts"),
    ("damaged-parquet", ["evaluate", "{d}/damaged.parquet"], "damaged.parquet"),
    ("garbage-parquet", ["evaluate", "{d}/garbage.parquet"],
     "not a readable Parquet data set"),
    ("truncated-gz", ["evaluate", "{d}/trunc.txt.gz"], "trunc.txt.gz: cannot be read"),
    ("not-gzip-named-gz", ["evaluate", "{d}/notgz.txt.gz"], "notgz.txt.gz: cannot be read"),
    ("scheduler-with-stdin", ["evaluate", "-", "--scheduler", "tcp://127.0.0.1:1"],
     "--scheduler evaluates Parquet"),
    ("compare-exact-too-large", ["compare-measures", "auc", "acc", "--n", "1600", "--pos", "800",
                                 "--exact"], "more than the limit of 5e+07"),
    ("compare-too-many-lists", ["compare-measures", "auc", "acc", "--n", "100000", "--pos",
                                "50000"],
     "(30101 digits) ranked lists"),
    ("compare-pos-above-n", ["compare-measures", "auc", "acc", "--n", "10", "--pos", "20"],
     "pos=20 is not valid for n=10"),
    ("compare-negative-seed", ["compare-measures", "auc", "acc", "--n", "10", "--pos", "5",
                               "--sample", "5", "--seed", "-1"], "--seed must be"),
    ("compare-sample-1", ["compare-measures", "auc", "acc", "--n", "10", "--pos", "5", "--sample",
                          "1"], "--sample must be at least 2"),
    ("compare-exact-and-sample", ["compare-measures", "auc", "acc", "--n", "10", "--pos", "5",
                                  "--sample", "5", "--exact"], "exclude each other"),
    ("compare-unknown-measure", ["compare-measures", "nosuch", "acc", "--n", "10", "--pos", "5"],
     "unknown measure 'nosuch'"),
    ("study-out-is-a-file", ["study", "--problems", "sonar", "--grid", "tiny", "--out",
                             "{d}/afile"], "is a file; the study needs a folder"),
    ("study-unknown-problem", ["study", "--problems", "nosuch", "--grid", "tiny", "--out",
                               "{d}/never"], "unknown problem 'nosuch'"),
    ("study-n-train-0", ["study", "--problems", "sonar", "--out", "{d}/never",
                         "--n-train", "0"], "--n-train must be a positive integer"),
    ("study-empty-problems", ["study", "--problems", ",", "--out", "{d}/never"],
     "--problems is empty"),
    ("study-negative-workers", ["study", "--problems", "sonar", "--out", "{d}/never",
                                "--workers", "-3"], "--workers must be a positive integer"),
    ("study-ragged-csv-problem", ["study", "--problems", "{d}/extra.csv", "--target", "y",
                                  "--grid", "tiny", "--out", "{d}/never"],
     "problem file extra.csv cannot be read"),
    ("study-gzip-problem", ["study", "--problems", "{d}/gz.csv", "--target", "y",
                            "--grid", "tiny", "--out", "{d}/never"],
     "problem file gz.csv looks gzip-compressed"),
    ("argparse-bad-int", ["compare-measures", "auc", "acc", "--n", "ten", "--pos", "5"],
     "invalid int value: 'ten'"),
    ("reproduce-out-is-a-file", ["reproduce", "ling2003", "--out", "{d}/afile"],
     "afile' is in the way"),
    ("demo-out-is-a-file", ["demo", "--out", "{d}/afile"], "afile' is in the way"),
    ("huge-third-class", ["evaluate", "{d}/hugelabel.csv"], "row 3: a third class 'zzz"),
    ("huge-labels-pos-label", ["evaluate", "{d}/hugepos.csv"], "It should be one of ['aaa"),
    ("column-flag-on-perf-text", ["evaluate", "{d}/ok.txt", "--label-col", "y"],
     "--label-col applies to CSV and Parquet"),
    ("parquet-format-on-text", ["evaluate", "{d}/ok.txt", "--format", "parquet"],
     "not a readable Parquet data set"),
    # issue 23
    ("duplicate-header", ["evaluate", "{d}/dup.csv"], "column 'p' appears 2 times"),
    ("option-underscore-digits", ["evaluate", "{d}/ok.txt", "--chunk-rows", "1_0"],
     "argument --chunk-rows: invalid int value: '1_0'"),
    ("threshold-underscore-digits", ["evaluate", "{d}/ok.txt", "--threshold", "1_0"],
     "argument --threshold: invalid number: '1_0'"),
    ("pos-label-underscore-digits", ["evaluate", "{d}/ok.txt", "--pos-label", "1_0"],
     "pos_label='1_0' is not a valid label"),
    ("study-zero-workers", ["study", "--problems", "sonar", "--out", "{d}/never",
                            "--workers", "0"], "--workers must be a positive integer"),
    ("study-empty-out", ["study", "--problems", "sonar", "--out", ""], "--out is empty"),
    ("study-target-of-nothing", ["study", "--problems", "sonar", "--target", "y",
                                 "--out", "{d}/never"], "--target 'y' names the label"),
    ("study-too-small", ["study", "--problems", "{d}/tiny.csv", "--target", "t",
                         "--grid", "tiny", "--out", "{d}/never"], "is too small for a study"),
    ("reproduce-empty-out", ["reproduce", "ling2003", "--out", ""], "--out is empty"),
    ("demo-empty-out", ["demo", "--out", ""], "--out is empty"),
]


@pytest.mark.parametrize("argv,fragment", [c[1:] for c in CLI_CASES],
                         ids=[c[0] for c in CLI_CASES])
def test_cli_bad_input(argv: list[str], fragment: str, files: Path,
                       capsys: pytest.CaptureFixture) -> None:
    args = [a.replace("{d}", str(files)) for a in argv]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert fragment in err, err
    assert len(err) <= 400, len(err)  # short even for huge inputs
    assert err.isprintable() or err[:-1].isprintable(), err
    assert not (files / "never").exists()  # a failed start writes nothing


def test_cli_table_is_large() -> None:
    assert len(CLI_CASES) + len(API_CASES) >= 60


# ---------------------------------------------------------------- API
def _stream(chunks: list[list[int]], pos_label: int = 1) -> None:
    ev = ml.Evaluator(measures=["acc"], pos_label=pos_label)
    for y in chunks:
        ev.update(y, [0.5] * len(y))
    ev.compute()


API_CASES: list[tuple[str, object, str]] = [
    ("zero-total-weight",
     lambda: ml.evaluate([0, 1, 1, 0], [.1, .9, .8, .3], sample_weight=[0, 0, 0, 0]),
     "total weight is 0"),
    ("threshold-nan", lambda: ml.evaluate([0, 1], [.1, .9], threshold=math.nan),
     "threshold must be a number, got NaN"),
    ("threshold-text", lambda: ml.evaluate([0, 1], [.1, .9], threshold="high"),
     "threshold must be a number, got 'high'"),
    ("counts-huge-float", lambda: ml.evaluate_counts(tp=1e20, fp=1, fn=1, tn=1),
     "too large to be an exact count"),
    ("counts-negative", lambda: ml.evaluate_counts(tp=-1, fp=1, fn=1, tn=1),
     "tp must be a non-negative"),
    ("counts-text", lambda: ml.evaluate_counts(tp="3", fp=1, fn=1, tn=1),
     "tp must be a non-negative"),
    ("counts-nan", lambda: ml.evaluate_counts(tp=1, fp=math.nan, fn=1, tn=1),
     "fp must be a finite"),
    ("counts-zero", lambda: ml.evaluate_counts(tp=0, fp=0, fn=0, tn=0), "total weight is 0"),
    ("mxe-base-0", lambda: ml.metrics.mxe([0, 1], [.2, .7], base=0), "mxe: base=0 is not valid"),
    ("f-beta-nan", lambda: ml.metrics.f_beta([0, 1], [.2, .7], beta=math.nan),
     "f_beta: beta=nan is not valid"),
    ("lift-q-0", lambda: ml.evaluate([0, 1], [.2, .7], measures=["lift@0"]), "0 < q <= 1"),
    ("stream-labels-2-then-0", lambda: _stream([[2, 2], [0, 0]]),
     "pos_label=1 is not a valid label"),
    ("stream-three-classes", lambda: _stream([[0, 1], [2, 2]]), "3 classes"),
    ("stream-binary-table-into-multiclass",
     lambda: ml.Evaluator().update([0, 1, 2], np.eye(3)).update_table(
         ml.ScoreTable.from_arrays([True, False], [0.3, 0.4])),
     "this evaluator holds multi-class data; got a binary table"),
    ("evaluator-threshold-nan", lambda: ml.Evaluator(threshold=math.nan),
     "threshold must be a number"),
    ("nan-score", lambda: ml.evaluate([0, 1], [.1, math.nan]), "y_score must be finite"),
    ("empty", lambda: ml.evaluate([], []), "y_true is empty"),
    ("lengths", lambda: ml.evaluate([0, 1], [.1]), "inconsistent numbers of examples"),
    ("negative-weight", lambda: ml.evaluate([0, 1], [.1, .9], sample_weight=[1, -1]),
     "sample_weight must be non-negative"),
    ("nan-label", lambda: ml.evaluate([0.0, math.nan], [.1, .9]), "y_true contains NaN"),
    ("gzip-stream", lambda: mlio.read_score_table(io.BytesIO(gzip.compress(b"1 .5\n"))),
     "looks gzip-compressed"),
    ("file-threshold-nan",
     lambda: mlio.evaluate_file(io.BytesIO(b"1 .5\n0 .2\n"), threshold=math.nan),
     "threshold must be a number"),
    ("unknown-measure", lambda: ml.registry.get("nosuch"), "unknown measure 'nosuch'"),
    ("three-classes-with-scores", lambda: ml.evaluate([0, 1, 2], [.1, .5, .9]),
     "y_score holds 0.1, which is no class"),
    ("measures-not-a-list", lambda: ml.evaluate([0, 1], [.1, .9], measures=5),
     "measures must be a name, a Measure or a list"),
    ("measure-not-a-name", lambda: ml.evaluate([0, 1], [.1, .9], measures=[5]),
     "a measure is a name such as 'auc'"),
    ("huge-measure-name", lambda: ml.evaluate([0, 1], [.1, .9], measures=["x" * 5000]),
     "(5000 characters)"),
    ("inclusive-not-bool", lambda: ml.evaluate([0, 1], [.1, .9], inclusive="yes"),
     "inclusive must be True or False"),
    ("complex-scores", lambda: ml.evaluate([0, 1], [1j, 2]), "must be real numbers"),
    ("merge-non-evaluator", lambda: ml.Evaluator().merge(5),
     "can merge only another Evaluator"),
    ("param-not-a-number", lambda: ml.metrics.ece([0, 1], [.1, .9], n_bins="x"),
     "ece: n_bins must be a number, got 'x'"),
    ("top-k-zero",
     lambda: ml.evaluate([0, 1, 2], [[.2, .3, .5]] * 3, measures=["top_k_acc@0"]),
     "top_k_acc: k=0.0 is not valid; expected a positive integer"),
    ("labels-vs-columns",
     lambda: ml.evaluate([0, 1, 2], np.eye(3) * 0.8 + 0.1, labels=[0, 1]),
     "labels has 2 entries but y_score has 3 columns"),
    ("distributed-threshold-nan", lambda: _parquet_eval(threshold=math.nan),
     "threshold must be a number"),
    ("distributed-damaged-page", lambda: _parquet_eval(damaged=True),
     "damaged Parquet data"),
]


def _parquet_eval(threshold: float = 0.5, damaged: bool = False) -> None:
    import tempfile

    from measurelab.io.distributed import evaluate_parquet

    path = Path(tempfile.mkdtemp()) / "d.parquet"
    if damaged:
        _damaged_parquet(path)
    else:
        pd.DataFrame({"y": [0, 1], "p": [0.2, 0.8]}).to_parquet(path)
    evaluate_parquet(path, scheduler=None, label_col="y", score_col="p", threshold=threshold)


@pytest.mark.parametrize("call,fragment", [c[1:] for c in API_CASES],
                         ids=[c[0] for c in API_CASES])
def test_api_bad_input(call, fragment: str) -> None:
    with pytest.raises(MeasurelabError) as info:
        call()
    msg = str(info.value)
    assert fragment in msg, msg
    assert "\n" not in msg and len(msg) <= 400


# ---------------------------------------------------------------- streaming agreement
@pytest.mark.parametrize("chunks,pos_label", [
    ([[2, 2], [0, 0]], 1), ([[0, 1], [2, 2]], 1), ([[1, 1], [1, 0]], 1),
    ([[0, 0], [0, 0]], 1), ([[2], [2]], 2), ([[0], [3], [0]], 1), ([[0], [3], [0]], 3),
    ([[True, False], [True]], 1), ([[0, 0], [1], [5]], 1),
])
def test_streaming_raises_exactly_when_whole_data_raises(chunks: list[list[int]],
                                                         pos_label: int) -> None:
    y = [v for c in chunks for v in c]
    s = np.linspace(0.1, 0.9, len(y)).tolist()

    def whole() -> dict:
        return dict(ml.evaluate(y, s, measures=["acc"], pos_label=pos_label))

    def streamed() -> dict:
        ev = ml.Evaluator(measures=["acc"], pos_label=pos_label)
        i = 0
        for c in chunks:
            ev.update(c, s[i:i + len(c)])
            i += len(c)
        return dict(ev.compute())

    def merged() -> dict:
        parts = []
        i = 0
        for c in chunks:
            parts.append(ml.Evaluator(measures=["acc"], pos_label=pos_label)
                         .update(c, s[i:i + len(c)]))
            i += len(c)
        out = parts[0]
        for p in parts[1:]:
            out = out.merge(p)
        return dict(out.compute())

    outcomes = []
    for f in (whole, streamed, merged):
        try:
            outcomes.append(("ok", f()))
        except MeasurelabError:
            outcomes.append(("error", None))
    assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0], outcomes


# ---------------------------------------------------------------- pipes, subprocesses
def _run(args: list[str], stdin: object = subprocess.DEVNULL, timeout: float = 60
         ) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "measurelab.cli", *args], stdin=stdin,
                          capture_output=True, timeout=timeout, env=env)


@pytest.mark.parametrize("name,data", [
    ("pipe.csv", b"y,p\n0,0.1\n1,0.9\n"), ("pipe.txt", b"1 0.9\n0 0.1\n"),
    ("pipe", b"y,p\n0,0.1\n1,0.9\n"),
])
def test_named_pipe_is_read_not_hung_on(name: str, data: bytes, tmp_path: Path) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "measurelab.cli", "evaluate", str(fifo),
                             "--measures", "auc", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(fifo, "wb") as fh:  # blocks until the reader opens the pipe
        fh.write(data)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out.decode().strip() == '{"auc": 1.0}'


def test_slow_stdin_is_read() -> None:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "measurelab.cli", "evaluate", "-",
                             "--measures", "auc", "--json"], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"y,p\n0,0.1\n")
    proc.stdin.flush()
    time.sleep(1.0)  # the format is decided on the first line; the rest comes later
    out, err = proc.communicate(b"1,0.9\n", timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out.decode().strip() == '{"auc": 1.0}'


@pytest.mark.parametrize("argv", [
    ["evaluate", "{parquet}", "--scheduler", "tcp://127.0.0.1:1"],
    ["study", "--problems", "sonar", "--grid", "tiny", "--out", "{out}", "--scheduler",
     "tcp://127.0.0.1:1", "--no-analysis"],
    ["evaluate", "{mparquet}", "--label-col", "y", "--proba-cols", "a,b", "--classes", "0,1",
     "--scheduler", "tcp://127.0.0.1:1"],
], ids=["evaluate", "study", "evaluate-multiclass"])
def test_unreachable_scheduler_fails_within_seconds(argv: list[str], tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    pq = tmp_path / "d.parquet"
    pd.DataFrame({"y": [0, 1], "p": [0.1, 0.9]}).to_parquet(pq)
    mpq = tmp_path / "m.parquet"
    pd.DataFrame({"y": [0, 1], "a": [0.9, 0.2], "b": [0.1, 0.8]}).to_parquet(mpq)
    args = [a.replace("{parquet}", str(pq)).replace("{mparquet}", str(mpq))
            .replace("{out}", str(tmp_path / "s")) for a in argv]
    r = _run(args, timeout=120)
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:1' within 5 s" in err


# ---------------------------------------------------------------- fuzz
_TOKENS = [b"0", b"1", b"2", b"0.5", b"1e-3", b"-1", b"nan", b"inf", b"1_0", b"\xef\xbc\x91",
           b"x", b"", b" ", b"\t", b",", b"\n", b"\r\n", b"\x00", b"\x1f\x8b", b"PAR1",
           b"y,p", b"9" * 80, b"\xff\xfe"]


def test_fuzzed_perf_and_csv_text_is_read_or_refused_in_one_line() -> None:
    """Random mixtures of good and bad tokens: the readers return a table or raise
    MeasurelabError with one short line, nothing else."""
    rng = np.random.default_rng(2026)
    outcomes = {"ok": 0, "refused": 0}
    for _ in range(300):
        data = [b"1 0.9\n0 0.2\n1 0.4\n0 0.1\n", b"y,p\n1,0.9\n0,0.2\n1,0.4\n"][_ % 2]
        for _m in range(int(rng.integers(0, 3))):  # a few random edits of a valid file
            i, j = sorted(rng.integers(0, len(data) + 1, 2))
            data = data[:i] + _TOKENS[int(rng.integers(0, len(_TOKENS)))] + data[j:]
        for fmt in ("auto", "perf", "csv"):
            try:
                mlio.read_score_table(io.BytesIO(data), fmt=fmt, chunk_rows=3)
                outcomes["ok"] += 1
            except MeasurelabError as exc:
                msg = str(exc)
                assert "\n" not in msg and len(msg) <= 400, msg
                outcomes["refused"] += 1
    assert outcomes["ok"] > 0 and outcomes["refused"] > 0
