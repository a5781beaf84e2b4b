"""`measurelab reproduce`: --list, NAME with --out/--quick/--full, `all`, errors.

The reproductions themselves are tested in their own test files; here two stand-in
reproductions exercise the command's plumbing."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

from measurelab.cli import main
from measurelab.lab import experiments
from measurelab.lab.report.page import Report

CALLS: list[tuple[str, Path, bool, bool, bool]] = []


def _fake(name: str):
    def run(out: Path, *, quick: bool, full: bool, progress: bool) -> Report:
        CALLS.append((name, Path(out), quick, full, progress))
        r = Report(name=name, title=f"stand-in {name}")
        r.add_text("ours beside the paper's")
        r.add_table("t", pd.DataFrame({"ours": [1], "paper": [1]}))
        return r

    return run


@pytest.fixture
def fakes(monkeypatch):
    CALLS.clear()
    names = ["fake-a", "fake-b"]
    monkeypatch.setattr(experiments, "available", lambda: list(names))
    real_get = experiments.get

    def get(name):
        return _fake(name) if name in names else real_get(name)

    monkeypatch.setattr(experiments, "get", get)
    return names


def test_list_real_registry(capsys):
    assert main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [ln.split()[0] for ln in lines]
    assert names == experiments.available()
    assert all(name in experiments.REPRODUCTIONS for name in names)
    assert len(set(names)) == len(names)
    assert all(experiments.INFO[n]["what"] in ln for n, ln in zip(names, lines, strict=True))


def test_list_one_name_per_line(fakes, capsys):
    assert main(["reproduce", "--list"]) == 0
    assert capsys.readouterr().out == "fake-a\nfake-b\n"


def test_name_out_quick(fakes, tmp_path, capsys):
    assert main(["reproduce", "fake-b", "--out", str(tmp_path / "o"), "--quick",
                 "--no-progress"]) == 0
    assert CALLS == [("fake-b", tmp_path / "o", True, False, False)]
    assert (tmp_path / "o").is_dir() and any((tmp_path / "o").iterdir())
    assert "stand-in fake-b" in capsys.readouterr().out


def test_all_runs_every_one_in_subfolders(fakes, tmp_path):
    assert main(["reproduce", "all", "--out", str(tmp_path), "--full"]) == 0
    assert [c[0] for c in CALLS] == fakes
    assert [c[1] for c in CALLS] == [tmp_path / n for n in fakes]
    assert all(c[3] for c in CALLS)
    assert all(any((tmp_path / n).iterdir()) for n in fakes)


@pytest.mark.parametrize("argv", [
    ["reproduce"],
    ["reproduce", "no-such-paper"],
    ["reproduce", "fake-a", "--quick", "--full"],
])
def test_errors_exit_2_one_line(fakes, argv, capsys):
    with pytest.raises(SystemExit) as exc:
        sys.exit(main(argv))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert CALLS == []


def test_unknown_name_suggests(capsys):
    assert main(["reproduce", "ling2030"]) == 2
    assert "did you mean 'ling2003'" in capsys.readouterr().err


def test_available_in_a_fresh_interpreter():
    """``reproduce all`` lists the reproductions in a process where nothing else has
    imported importlib.util first (the test session always has)."""
    import os
    import subprocess
    import sys

    code = ("from measurelab.lab.experiments import available, REPRODUCTIONS\n"
            "assert available() == list(REPRODUCTIONS), available()\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                   text=True)
