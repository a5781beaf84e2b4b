"""`measurelab compare-measures`: the JSON contract scripts rely on, exact big integers, "inf",
the --exact message, errors (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from measurelab.cli import main
from measurelab.metaeval import auc_acc_pair_counts

KEYS = {"f", "g", "n", "pos", "cutoff", "objects", "pairs", "R", "S", "P", "Q",
        "consistency", "discriminancy"}


def _json(capsys, *argv: str) -> dict:
    assert main(["compare-measures", *argv, "--json", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    return json.loads(out)


def test_json_contract_keys_and_types(capsys):
    d = _json(capsys, "auc", "acc", "--n", "8", "--pos", "4")
    assert KEYS <= d.keys()
    assert (d["f"], d["g"], d["n"], d["pos"], d["cutoff"]) == ("auc", "acc", 8, 4, 4)
    assert (d["R"], d["S"], d["P"], d["Q"]) == (1459, 34, 762, 52)  # Ling et al. 2003
    assert d["objects"] == 70 and d["pairs"] == 70 * 69 // 2
    for k in ("objects", "pairs", "R", "S", "P", "Q"):
        assert type(d[k]) is int
    assert isinstance(d["consistency"], float) and isinstance(d["discriminancy"], float)
    assert d["consistency"] == pytest.approx(1459 / 1493)
    assert d["discriminancy"] == pytest.approx(762 / 52)
    assert d["method"] == "enumeration"


def test_json_huge_exact_integers(capsys):
    d = _json(capsys, "auc", "acc", "--n", "160", "--pos", "80", "--exact")
    pc = auc_acc_pair_counts(160, 80)
    assert (d["R"], d["S"], d["P"], d["Q"]) == tuple(pc)  # exact, not rounded floats
    assert d["objects"] == math.comb(160, 80) and d["R"] > 2**64
    assert d["method"] == "generating function"
    assert d["R"] + d["S"] + d["P"] + d["Q"] + d["T"] == d["pairs"]


def test_json_inf_and_undefined(capsys):
    d = _json(capsys, "auc:acc", "auc", "--n", "6", "--pos", "3")
    assert d["discriminancy"] == "inf" and d["consistency"] == 1.0
    assert d["Q"] == 0 < d["P"]
    d = _json(capsys, "acc", "err", "--n", "6", "--pos", "3")  # P = Q = 0
    assert d["P"] == d["Q"] == 0 and d["discriminancy"] is None


def test_exact_says_when_it_does_not_apply(capsys):
    assert main(["compare-measures", "f1", "acc", "--n", "6", "--pos", "3", "--exact",
                 "--json"]) == 0
    cap = capsys.readouterr()
    d = json.loads(cap.out)
    assert "generating function applies to AUC vs acc only" in cap.err
    assert d["method"] == "enumeration" and "note" in d
    # acc vs auc is AUC vs acc with f and g exchanged
    d = _json(capsys, "acc", "auc", "--n", "9", "--pos", "4", "--cutoff", "2", "--exact")
    pc = auc_acc_pair_counts(9, 4, 2)
    assert (d["R"], d["S"], d["P"], d["Q"]) == (pc.R, pc.S, pc.Q, pc.P)
    assert d["method"] == "generating function" and d["cutoff"] == 2


def test_sample(capsys):
    d = _json(capsys, "auc", "acc", "--n", "30", "--pos", "10", "--sample", "300",
              "--seed", "4")
    assert d["objects"] == 300 and d["method"] == "sample" and d["seed"] == 4
    lo, hi = d["ci95"]["consistency"]
    assert 0 <= lo <= d["consistency"] <= hi <= 1
    assert _json(capsys, "auc", "acc", "--n", "30", "--pos", "10", "--sample", "300",
                 "--seed", "4") == d


def test_text_output(capsys):
    assert main(["compare-measures", "acc", "err", "--n", "6", "--pos", "3"]) == 0
    out = capsys.readouterr().out
    assert "undefined (P = Q = 0)" in out and "R " in out


@pytest.mark.parametrize("argv", [
    ["compare-measures", "auc", "acc", "--n", "6", "--pos", "9"],
    ["compare-measures", "nosuch", "acc", "--n", "6", "--pos", "3"],
    ["compare-measures", "auc", "acc", "--n", "abc", "--pos", "3"],
    ["compare-measures", "auc", "acc", "--n", "6", "--pos", "3", "--cutoff", "7"],
    ["compare-measures", "auc", "acc", "--n", "6", "--pos", "3", "--sample", "1"],
    ["compare-measures", "auc", "acc", "--n", "6", "--pos", "3", "--exact", "--sample", "5"],
    ["compare-measures", "auc", "acc", "--n", "40", "--pos", "20"],  # too many to enumerate
    ["compare-measures", "auc", "rms", "--n", "6", "--pos", "3"],  # needs probabilities
    ["compare-measures", "auc", "acc", "--n", "50", "--pos", "25", "--sample", "10000000"],
])
def test_errors_exit_2_one_line(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        sys.exit(main(argv))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err and "Traceback" not in err


def test_error_from_a_real_process():
    p = subprocess.run([sys.executable, "-m", "measurelab.cli", "compare-measures", "auc", "acc",
                        "--n", "6", "--pos", "0", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_exact_two_level(capsys):
    d = _json(capsys, "auc:acc", "acc", "--n", "100", "--pos", "50", "--exact")
    pc = auc_acc_pair_counts(100, 50)
    assert d["method"] == "generating function"
    assert (d["R"], d["S"], d["P"], d["Q"]) == (pc.R + pc.Q, pc.S, pc.P, 0)
    assert d["discriminancy"] == "inf" and d["consistency"] > pc.R / (pc.R + pc.S)


def test_compare_is_not_a_command(capsys):
    """Only `compare-measures` names the command: `measurelab compare` is refused like any
    unknown command (argparse's one line, exit 2)."""
    with pytest.raises(SystemExit) as exc:
        main(["compare", "auc", "acc", "--n", "6", "--pos", "3"])
    assert exc.value.code == 2
    assert "invalid choice: 'compare'" in capsys.readouterr().err
