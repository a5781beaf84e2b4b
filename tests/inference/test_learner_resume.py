"""compare_learners(folder=): a run killed mid-way (a real SIGKILL of a subprocess)
resumes from its fold files without refitting a finished fold, and gives the same result
as a run never interrupted; fold files are never read for another fit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from measurelab.exceptions import MeasurelabError
from measurelab.inference import compare_learners
from tests.inference._logged_learner import LoggedNB

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
from measurelab.inference import compare_learners
from tests.inference._logged_learner import LoggedNB
X, y = make_classification(n_samples=120, random_state=0)
compare_learners({"nb": LoggedNB(), "nb2": LoggedNB(var_smoothing=1e-3)}, X, y,
                 cv=5, progress=False, n_jobs=1, folder=sys.argv[1])
print("finished")
"""


def _data():
    return make_classification(n_samples=120, random_state=0)


def _learners():
    return {"nb": LoggedNB(), "nb2": LoggedNB(var_smoothing=1e-3)}


def _fits(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_killed_run_resumes_without_refitting_a_finished_fold(tmp_path, monkeypatch):
    folder, log = tmp_path / "folds", tmp_path / "fits.log"
    env = {**os.environ, "ML_FIT_LOG": str(log), "ML_FIT_SLEEP": "0.4",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        if folder.is_dir() and len(list(folder.glob("*.npz"))) >= 4:
            break
        time.sleep(0.05)
    assert child.poll() is None, child.communicate()
    child.send_signal(signal.SIGKILL)
    child.wait()
    done = len(list(folder.glob("*.npz")))
    assert 4 <= done < 10  # 2 learners × 5 folds: killed with fits left to do
    assert not [p for p in folder.iterdir() if p.suffix != ".npz"]  # nothing half-written
    assert _fits(log) >= done  # every file is a finished fit

    log.unlink()
    monkeypatch.setenv("ML_FIT_LOG", str(log))
    monkeypatch.setenv("ML_FIT_SLEEP", "0")
    X, y = _data()
    resumed = compare_learners(_learners(), X, y, cv=5, progress=False, folder=folder)
    assert len(list(folder.glob("*.npz"))) == 10
    assert _fits(log) == 10 - done  # a finished fold is never refitted

    log.unlink(missing_ok=True)
    whole = compare_learners(_learners(), X, y, cv=5, progress=False)
    pd.testing.assert_frame_equal(resumed.fold_scores(), whole.fold_scores())
    pd.testing.assert_frame_equal(resumed.tests(), whole.tests())


def test_a_second_run_reads_every_fold_and_fits_nothing(tmp_path, monkeypatch):
    log = tmp_path / "fits.log"
    monkeypatch.setenv("ML_FIT_LOG", str(log))
    X, y = _data()
    first = compare_learners({"nb": LoggedNB()} | {"nb2": LoggedNB(var_smoothing=1e-3)}, X, y,
                             cv=5, progress=False, folder=tmp_path / "f")
    assert _fits(log) == 10
    again = compare_learners({"nb": LoggedNB()} | {"nb2": LoggedNB(var_smoothing=1e-3)}, X, y,
                             cv=5, progress=False, folder=tmp_path / "f")
    assert _fits(log) == 10
    pd.testing.assert_frame_equal(first.fold_scores(), again.fold_scores())


def test_fold_files_are_not_read_for_other_parameters_data_or_splits(tmp_path, monkeypatch):
    log = tmp_path / "fits.log"
    monkeypatch.setenv("ML_FIT_LOG", str(log))
    X, y = _data()
    folder = tmp_path / "f"
    compare_learners({"a": LoggedNB(), "b": DecisionTreeClassifier(random_state=0)}, X, y,
                     cv=5, progress=False, folder=folder)
    assert _fits(log) == 5
    # other parameters: refitted
    compare_learners({"a": LoggedNB(var_smoothing=0.5), "b": DecisionTreeClassifier(
        random_state=0)}, X, y, cv=5, progress=False, folder=folder)
    assert _fits(log) == 10
    # other data (one label flipped): refitted
    y2 = y.copy()
    y2[0] = 1 - y2[0]
    compare_learners({"a": LoggedNB(), "b": DecisionTreeClassifier(random_state=0)}, X, y2,
                     cv=5, progress=False, folder=folder)
    assert _fits(log) == 15
    # other splits (another seed): refitted
    compare_learners({"a": LoggedNB(), "b": DecisionTreeClassifier(random_state=0)}, X, y,
                     cv=5, progress=False, folder=folder, random_state=1)
    assert _fits(log) == 20


def test_an_unreadable_fold_file_is_refitted(tmp_path, monkeypatch):
    log = tmp_path / "fits.log"
    monkeypatch.setenv("ML_FIT_LOG", str(log))
    X, y = _data()
    folder = tmp_path / "f"
    learners = {"a": LoggedNB(), "b": DecisionTreeClassifier(random_state=0)}
    whole = compare_learners(learners, X, y, cv=5, progress=False, folder=folder)
    victim = sorted(folder.glob("*.npz"))[0]
    victim.write_bytes(b"not a fold file")
    again = compare_learners(learners, X, y, cv=5, progress=False, folder=folder)
    assert _fits(log) in (5, 6)  # the damaged file's fit (if it was a's) is redone
    pd.testing.assert_frame_equal(whole.fold_scores(), again.fold_scores())
    assert np.load(victim)["p"].size > 0


def test_folder_that_is_a_file_is_refused(tmp_path):
    f = tmp_path / "x"
    f.write_text("")
    X, y = _data()
    with pytest.raises(MeasurelabError, match="folder"):
        compare_learners(_learners(), X, y, cv=5, progress=False, folder=f)
