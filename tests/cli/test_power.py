"""``measurelab power``: the analytic answers equal the API's (numbers, two binormal curves,
a pilot file), ``--simulate`` runs the comparison engine, ``--json`` is strict JSON, and
every bad option or combination exits 2 with one line naming it."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from measurelab.cli import main
from measurelab.inference import power_roc_test
from tests.hardening.contract import assert_cli_refused


def _json(capsys, argv):
    assert main(["power", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_numbers(capsys):
    got = _json(capsys, ["--auc", "0.73", "--ncases", "41", "--ncontrols", "72"])
    assert got["analytic"]["power"] == power_roc_test(auc=0.73, ncases=41,
                                                      ncontrols=72).power
    got = _json(capsys, ["--auc", "0.8", "--power", "0.9", "--kappa", "1"])
    assert got["analytic"]["ncases"] == pytest.approx(16.6191992, abs=1e-6)
    assert main(["power", "--auc", "0.8", "--power", "0.9", "--kappa", "1"]) == 0
    text = capsys.readouterr().out
    assert "round up: 17 and 17" in text and "power 0.9" in text


def test_two_binormal_curves(capsys):
    got = _json(capsys, ["--auc", "0.8", "--auc2", "0.75", "--r", "0.5", "--ncases", "150",
                         "--ncontrols", "200"])
    a = math.sqrt(2) * np.array([0.8416212335729143, 0.6744897501960817])
    want = power_roc_test(params=dict(A1=a[0], B1=1, A2=a[1], B2=1, rn=0.5, ra=0.5,
                                      delta=0.05), ncases=150, ncontrols=200).power
    assert got["analytic"]["power"] == pytest.approx(want, rel=1e-12)


def test_pilot_file_and_simulation(tmp_path, capsys):
    g = np.random.default_rng(0)
    y = (g.random(120) < 0.4).astype(int)
    a = 1 / (1 + np.exp(-(g.normal(size=120) + 1.5 * y - 0.6)))
    b = np.clip(a + g.normal(0, 0.12, 120), 0, 1)
    f = tmp_path / "pilot.csv"
    pd.DataFrame({"y": y, "a": a, "b": b}).to_csv(f, index=False)
    got = _json(capsys, [str(f), "--score-col", "a", "--score-col", "b", "--power", "0.8"])
    want = power_roc_test(y_true=y, scores={"a": a, "b": b}, power=0.8)
    assert got["analytic"]["ncases"] == pytest.approx(want.ncases, rel=1e-9)
    got = _json(capsys, [str(f), "--score-col", "a", "--score-col", "b", "--power", "0.8",
                         "--studentized"])
    want = power_roc_test(y_true=y, scores={"a": a, "b": b}, power=0.8, null_variance=False)
    assert got["analytic"]["ncases"] == pytest.approx(want.ncases, rel=1e-9)
    got = _json(capsys, [str(f), "--score-col", "a", "--score-col", "b", "--simulate",
                         "--measure", "acc", "--sims", "30", "--n", "200", "--effect", "0",
                         "--no-progress"])
    sim = got["simulated"]
    assert sim["n_sim"] == 30 and sim["measure"] == "acc" and sim["effect"] == 0
    got = _json(capsys, ["--auc", "0.75", "--ncases", "30", "--ncontrols", "30",
                         "--simulate", "--sims", "20", "--no-progress"])
    assert 0 <= got["simulated"]["power"] <= 1


@pytest.mark.parametrize("argv,names", [
    (["--auc", "0.8", "--auc2", "0.75", "--power", "0.8"], ["--r"]),
    (["--auc2", "0.75", "--r", "0", "--power", "0.8"], ["--auc2"]),
    (["--power", "0.8"], ["auc and n are missing"]),
    (["--auc", "0.8", "--ncases", "10", "--ncontrols", "10", "--power", "0.5"],
     ["leave out exactly one"]),
    (["--auc", "0.8", "--measure", "f1", "--power", "0.8"], ["--simulate"]),
    (["--auc", "0.8", "--simulate", "--ncases", "10"], ["--ncontrols"]),
    (["--auc", "0.8", "--simulate", "--ncases", "10.5", "--ncontrols", "10"], ["--ncases"]),
    (["--auc", "0.8", "--simulate", "--ncases", "10", "--ncontrols", "10", "--measure",
      "nosuch"], ["nosuch"]),
    (["--auc", "0.8", "--simulate", "--ncases", "10", "--ncontrols", "10", "--power",
      "0.8"], ["--power"]),
    (["--auc", "0.5", "--ncases", "10"], ["no effect"]),
    (["x.csv", "--auc", "0.7"], ["--auc"]),
    (["x.csv"], ["--score-col"]),
    (["--score-col", "a", "--auc", "0.7", "--power", "0.8"], ["FILE"]),
])
def test_bad_combinations_exit_2_naming_them(argv, names, tmp_path):
    assert_cli_refused(["power", *argv], names, tmp_path)


BASE = ["power", "--auc", "0.7", "--ncases", "40", "--ncontrols", "40"]
NOT_NUMBERS = st.sampled_from(["x", "1_0", "\uff11", "", " ", "1,5", "nan", "inf", "0x1"])
OPTIONS = {"--auc": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "1", "1.5", "-0.2"])),
           "--ncases": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "-3"])),
           "--ncontrols": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "-3"])),
           "--sig-level": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "1", "2"])),
           "--kappa": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "-1"])),
           "--auc0": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "1"])),
           "--sims": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "1.5"])),
           "--seed": st.one_of(NOT_NUMBERS, st.sampled_from(["-1", str(2**64)]))}


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_bad_option_values_exit_2_naming_them(data, tmp_path):
    option = data.draw(st.sampled_from(sorted(OPTIONS)), label="option")
    value = data.draw(OPTIONS[option], label="value")
    extra = ["--simulate", "--sims", "5"] if option in ("--sims", "--seed") else []
    argv = [*BASE, *extra]
    argv = [*argv, option, value] if option not in argv else \
        [v if i != argv.index(option) + 1 else value for i, v in enumerate(argv)]
    assert_cli_refused(argv, [option], tmp_path)
