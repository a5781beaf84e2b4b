"""File input: perf text, CSV, Parquet and streams read in chunks give exactly the result of
evaluating the arrays in memory, and bad input gives one precise error."""

from __future__ import annotations

import gzip
import io

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, average_precision_score, roc_auc_score

import measurelab as ml
from measurelab import MeasurelabError
from measurelab.io import (
    TableAccumulator,
    detect_format,
    evaluate_file,
    parquet_columns,
    read_chunks,
    read_score_table,
)
from measurelab.stats.scoretable import ScoreTable
from tests.conftest import make_binary

# Each reader is checked on the default measure set, in which a few measures are undefined
# on the small files (a likelihood ratio of 0/0, discriminant power at sens or spec 0): the
# readers must agree on those NaN too; the note saying they are undefined is not news here.
pytestmark = pytest.mark.filterwarnings("ignore::measurelab.exceptions.UndefinedMeasureWarning")


def perf_text(y, s, *, blank_every: int = 0, sep: str = " ") -> bytes:
    """perf lines with the shortest round-trip text of each score (parses back exactly)."""
    lines = []
    for i, (a, b) in enumerate(zip(y.tolist(), s.tolist(), strict=True)):
        lines.append(f"{a}{sep}{b!r}")
        if blank_every and i % blank_every == 0:
            lines.append("")
    return ("\n".join(lines) + "\n").encode()


def same(a, b) -> bool:
    """Exactly equal results, NaN equal to NaN (0/0 measures are NaN on both routes)."""
    a, b = dict(a), dict(b)
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a
    )


@pytest.fixture
def data(rng):
    y, s, _ = make_binary(rng, 2000)
    return y.astype(np.int64), s


def test_perf_file_equals_in_memory_and_sklearn(tmp_path, data):
    y, s = data
    f = tmp_path / "p.txt"
    f.write_bytes(perf_text(y, s))
    got = dict(evaluate_file(f))
    assert same(got, ml.evaluate(y, s))
    # independent route: scikit-learn on the same arrays
    assert got["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert got["ap"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert got["acc"] == pytest.approx(accuracy_score(y, s > 0.5), abs=1e-12)


@pytest.mark.parametrize("chunk_rows", [1, 3, 17, 500])
def test_tiny_chunks_equal_whole_exactly(tmp_path, data, chunk_rows):
    y, s = data
    f = tmp_path / "p.txt"
    f.write_bytes(perf_text(y, s, blank_every=7, sep="\t"))
    chunks = list(read_chunks(f, chunk_rows=chunk_rows))
    assert max(len(c) for c in chunks) <= chunk_rows
    assert sum(len(c) for c in chunks) == y.size
    assert read_score_table(f, chunk_rows=chunk_rows) == ScoreTable.from_arrays(y == 1, s)
    assert same(evaluate_file(f, chunk_rows=chunk_rows), ml.evaluate(y, s))


def test_text_split_across_read_blocks(tmp_path, data, monkeypatch):
    import measurelab.io.perf as mio

    y, s = data
    f = tmp_path / "p.txt"
    f.write_bytes(perf_text(y, s).rstrip(b"\n"))  # last line without a newline
    monkeypatch.setattr(mio, "_BLOCK_BYTES", 37)  # lines straddle the read blocks
    assert same(evaluate_file(f, chunk_rows=50), ml.evaluate(y, s))


def test_every_format_gives_identical_results(tmp_path, data):
    y, s = data
    perf = tmp_path / "p.txt"
    perf.write_bytes(perf_text(y, s))
    gz = tmp_path / "p.txt.gz"
    gz.write_bytes(gzip.compress(perf_text(y, s)))
    df = pd.DataFrame({"id": np.arange(y.size), "truth": y, "prob": s})
    csv = tmp_path / "p.csv"
    df.to_csv(csv, index=False)
    pq = tmp_path / "p.parquet"
    df.to_parquet(pq)
    parts = tmp_path / "parts"
    parts.mkdir()
    for k, part in enumerate(np.array_split(np.arange(y.size), 4)):
        df.iloc[part].to_parquet(parts / f"part-{k}.parquet")
    want = dict(ml.evaluate(y, s))
    cols = {"label_col": "truth", "score_col": "prob"}
    assert same(evaluate_file(perf), want)
    assert same(evaluate_file(gz), want)
    assert same(evaluate_file(csv, chunk_rows=300, **cols), want)
    assert same(evaluate_file(pq, chunk_rows=300, **cols), want)
    assert same(evaluate_file(parts, chunk_rows=300, **cols), want)
    assert same(evaluate_file(io.BytesIO(perf.read_bytes())), want)
    assert same(evaluate_file(io.BytesIO(csv.read_bytes()), **cols), want)  # sniffed CSV


def test_weights_from_a_column_match_sample_weight(tmp_path, data, rng):
    y, s = data
    w = rng.integers(0, 5, y.size).astype(np.float64)  # integer weights: sums are exact
    f = tmp_path / "w.csv"
    pd.DataFrame({"target": y, "score": s, "w": w}).to_csv(f, index=False)
    got = dict(evaluate_file(f, weight_col="w", chunk_rows=64))
    assert same(got, ml.evaluate(y, s, sample_weight=w))
    assert got["auc"] == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)


def test_string_labels_and_pos_label(tmp_path, data):
    y, s = data
    f = tmp_path / "s.csv"
    pd.DataFrame({"label": np.where(y == 1, "yes", "no"), "p": s}).to_csv(f, index=False)
    assert same(evaluate_file(f, pos_label="yes"), ml.evaluate(y, s))
    # the other class as positive: the same scores now rank "no" cases
    r = evaluate_file(f, pos_label="no", measures=["auc"])
    assert r["auc"] == pytest.approx(roc_auc_score(y == 0, s), abs=1e-12)
    with pytest.raises(MeasurelabError, match=r"pos_label=1 is not a valid label.*'no', 'yes'"):
        evaluate_file(f)


def test_perf_labels_minus_one_plus_one(data):
    y, s = data
    text = perf_text(np.where(y == 1, 1, -1), s)
    assert same(evaluate_file(io.BytesIO(text)), ml.evaluate(y, s))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"1 0.5\n0 nan\n", r"line 2: the prediction is 'nan'"),
        (b"1 0.5\n0 -inf\n", r"line 2: the prediction is '-inf'"),
        (b"1 0.5\n\n\n0\n", r"line 4: expected two columns .* got one column"),
        (b"1 0.5 0.2\n", r"line 1: expected two columns .* got 3 columns"),
        (b"1 0.5\n0 0.1\nyes 0.3\n", r"line 3: the target 'yes' is not a number"),
        (b"1 0.5\n0 0,3\n", r"line 2: the prediction '0,3' is not a number"),
        (b"", r"is empty"),
        (b"\n  \n", r"is empty"),
        (b"1 .5\n0 .2\n\n2 .3\n", r"line 4: a third class 2 \(after 0, 1\)"),
    ],
)
def test_bad_perf_input_names_the_line(text, message):
    with pytest.raises(MeasurelabError, match=message):
        read_score_table(io.BytesIO(text), fmt="perf")


def test_error_line_numbers_count_across_chunks():
    good = b"".join(b"1 0.5\n0 0.25\n" for _ in range(50))
    with pytest.raises(MeasurelabError, match=r"line 102: the prediction 'x'"):
        read_score_table(io.BytesIO(good + b"\n1 x\n"), fmt="perf", chunk_rows=7)


def test_bad_csv_input_names_the_row(tmp_path):
    f = tmp_path / "b.csv"
    f.write_text("target,score\n1,0.5\n0,\n")
    with pytest.raises(MeasurelabError, match=r"row 2: the score in column 'score' is missing"):
        read_score_table(f)
    f.write_text("target,score\n1,0.5\n0,abc\n")
    with pytest.raises(MeasurelabError, match=r"row 2: the score 'abc' in column 'score'"):
        read_score_table(f)
    f.write_text("a,b,c\n1,0.5,2\n")
    with pytest.raises(MeasurelabError, match=r"pass --label-col"):
        read_score_table(f)
    with pytest.raises(MeasurelabError, match=r"no column 'scroe'; did you mean 'score'"):
        read_score_table(io.BytesIO(b"target,score\n1,.5\n"), fmt="csv", score_col="scroe")
    with pytest.raises(MeasurelabError, match="no such file"):
        read_score_table(tmp_path / "missing.csv")
    f.write_text("target,score,w\n1,0.5,-1\n")
    with pytest.raises(MeasurelabError, match=r"row 1: the weight -1.0 .* is negative"):
        read_score_table(f, weight_col="w")


def test_probability_measure_asked_for_scores_outside_unit_interval():
    text = io.BytesIO(b"1 1.5\n0 0.2\n")
    with pytest.raises(MeasurelabError, match=r"rms is a probability measure.*1\.5"):
        evaluate_file(text, measures=["auc", "rms"])
    r = evaluate_file(io.BytesIO(b"1 1.5\n0 0.2\n"))  # not asked: skipped
    assert "rms" not in r and r["auc"] == 1.0


def test_detect_format_and_parquet_columns(tmp_path):
    assert detect_format("x.csv.gz") == "csv"
    assert detect_format(tmp_path) == "parquet"
    assert detect_format("-") == "auto"
    with pytest.raises(MeasurelabError, match="format 'xls' is not known"):
        detect_format("x", "xls")
    pd.DataFrame({"y": [0, 1], "prediction": [0.1, 0.7]}).to_parquet(tmp_path / "a.parquet")
    assert parquet_columns(tmp_path) == ("y", "prediction", None)


def test_accumulator_equals_one_table(rng):
    y, s, _ = make_binary(rng, 1000)
    acc = TableAccumulator()
    for part in np.array_split(np.arange(y.size), 37):
        acc.add(ScoreTable.from_arrays(y[part] == 1, s[part]))
    assert acc.result() == ScoreTable.from_arrays(y == 1, s)


# ---------------------------------------------------------------- issue 23
def test_a_repeated_header_is_refused_not_read_as_the_first(tmp_path):
    f = tmp_path / "d.csv"
    f.write_text("y,p,p\n1,0.9,0.1\n0,0.2,0.8\n")
    for source in (f, io.BytesIO(f.read_bytes())):
        with pytest.raises(MeasurelabError, match="column 'p' appears 2 times in the header"):
            read_score_table(source, fmt="csv" if isinstance(source, io.BytesIO) else "auto")
    # a repeated column that is not read is fine
    g = tmp_path / "e.csv"
    g.write_text("y,p,id,id\n1,0.9,a,b\n0,0.2,c,d\n")
    assert read_score_table(g).n_pos == 1.0


@pytest.mark.parametrize("frame,what", [
    (pd.DataFrame({"y": [0, 1], "p": pd.to_datetime(["2020-01-01", "2020-01-02"])}),
     "holds a date or time"),
    (pd.DataFrame({"y": [0, 1], "p": pd.to_timedelta([1, 2], unit="s")}), "a duration"),
    (pd.DataFrame({"y": [0, 1], "p": [[0.1], [0.2]]}), "is not a number"),
    (pd.DataFrame({"y": [[0], [1]], "p": [0.1, 0.2]}), "class labels are numbers"),
    (pd.DataFrame({"y": [{"a": 0}, {"a": 1}], "p": [0.1, 0.2]}), "is a dict"),
    (pd.DataFrame({"y": pd.to_datetime(["2020-01-01", "2020-01-02"]), "p": [0.1, 0.2]}),
     "the label column 'y' holds a date or time"),
])
def test_dates_lists_and_structs_are_not_scores_or_labels(tmp_path, frame, what):
    f = tmp_path / "x.parquet"
    frame.to_parquet(f)
    with pytest.raises(MeasurelabError, match=what):
        read_score_table(f)


def test_a_parquet_part_without_the_column_is_named(tmp_path):
    pd.DataFrame({"y": [0, 1], "p": [.1, .9], "w": [1., 2.]}).to_parquet(tmp_path / "a.parquet")
    pd.DataFrame({"y": [0, 1], "p": [.1, .9]}).to_parquet(tmp_path / "b.parquet")
    with pytest.raises(MeasurelabError, match=r"b\.parquet: no column 'w' in this part"):
        read_score_table(tmp_path, weight_col="w")
    from measurelab.io.distributed import evaluate_parquet

    with pytest.raises(MeasurelabError, match=r"b\.parquet: no column 'w'"):
        evaluate_parquet(tmp_path, scheduler=None, label_col="y", score_col="p",
                         weight_col="w")


def test_read_chunks_checks_its_parameters_when_called():
    with pytest.raises(MeasurelabError, match="chunk_rows must be a positive integer"):
        read_chunks(io.BytesIO(b"1 0.5\n"), chunk_rows=0)  # not only when iterated
    with pytest.raises(MeasurelabError, match="chunk_rows must be an integer"):
        read_chunks(io.BytesIO(b"1 0.5\n"), chunk_rows="3")


def test_numbers_follow_one_rule_in_files_and_labels():
    for text in ("1_0", "\uff11"):
        with pytest.raises(MeasurelabError, match="row 1: the score"):
            read_score_table(io.BytesIO(f"y,p\n1,{text}\n0,0.2\n".encode()))
        with pytest.raises(MeasurelabError, match="the labels are numbers"):
            read_score_table(io.BytesIO(b"1 0.5\n0 0.2\n"), pos_label=text)


def test_csv_numbers_are_read_correctly_rounded(tmp_path):
    """Every CSV route reads a number as Python's ``float`` of its text: 17-digit decimals
    that pandas 2's default converter reads one or two ulp off (a third to a half
    of random such text) give the bits of the same numbers in memory."""
    from measurelab.io.multiclass import evaluate_multi_file

    g = np.random.default_rng(7)
    s = np.concatenate([[0.08333333333333333, 0.16666666666666666], g.random(998)])
    texts = [repr(v) for v in s.tolist()]
    assert [float(t) for t in texts] == s.tolist()  # the text names exactly these floats
    y = (g.random(s.size) < s).astype(np.int64)
    f = tmp_path / "s.csv"
    f.write_text("y,p\n" + "".join(f"{a},{t}\n" for a, t in zip(y.tolist(), texts, strict=True)))
    assert read_score_table(f) == ScoreTable.from_arrays(y == 1, s)
    assert read_score_table(io.BytesIO(f.read_bytes()), fmt="csv") == \
        ScoreTable.from_arrays(y == 1, s)
    assert same(evaluate_file(f, chunk_rows=97), ml.evaluate(y, s))
    # k classes: three probability columns from 17-digit text, a file and a stream
    P = np.column_stack([s, 1 - s, g.random(s.size)])
    P /= P.sum(axis=1, keepdims=True)
    k = tmp_path / "k.csv"
    k.write_text("y,a,b,c\n" + "".join(
        f"{t}," + ",".join(repr(v) for v in row) + "\n"
        for t, row in zip(y.tolist(), P.tolist(), strict=True)))
    want = dict(ml.evaluate(y, P, measures=["mxe", "brier", "auc"], labels=[0, 1, 2]))
    for src in (k, io.BytesIO(k.read_bytes())):
        got = dict(evaluate_multi_file(src, proba_cols=["a", "b", "c"], classes=["0", "1", "2"],
                                       measures=["mxe", "brier", "auc"], fmt="csv"))
        assert got == want
