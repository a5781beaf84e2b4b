"""A result pickled by one measurelab version and read by another does not silently
misbehave (issue 46): every result's pickle records the version that wrote it; read by
another version it warns once, in one line naming both versions; a pickle whose declared
fields no longer match the class is refused in one line. Real round trips: the writing
version is changed in the writing process (a subprocess, or the version patched while
pickling), never by editing the bytes."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from typing import NamedTuple

import numpy as np
import pytest

import measurelab as ml
from measurelab.pickling import VersionMismatchWarning, versioned_pickle
from tests.hardening.contract import assert_refused
from tests.test_pickle import NOT_RESULTS, _offered, public_result_classes


@versioned_pickle
class Pair(NamedTuple):
    """A result with declared fields, whose layout a test changes."""

    a: float
    b: float


def _pickled_by(version: str, obj: object, monkeypatch: pytest.MonkeyPatch) -> bytes:
    with monkeypatch.context() as m:
        m.setattr(ml, "__version__", version)
        return pickle.dumps(obj)


def _comparison() -> ml.inference.ClassifierComparison:
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 40)
    a = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, 80), 0.01, 0.99)
    b = np.clip(0.35 + 0.3 * y + rng.normal(0, 0.2, 80), 0.01, 0.99)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ml.compare_classifiers(y, {"a": a, "b": b}, n_boot=200, random_state=0)


def test_same_version_reads_back_without_a_warning() -> None:
    cmp = _comparison()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        back = pickle.loads(pickle.dumps(cmp))
    assert repr(back) == repr(cmp)


def test_a_pickle_written_by_another_process_and_version_warns_once_naming_both() -> None:
    """A subprocess whose measurelab says it is 0.1.0 pickles a comparison; this process
    reads it with one warning (not one per interval the comparison holds), one line, both
    versions named, and the same numbers."""
    code = ("import pickle, sys, warnings; warnings.simplefilter('ignore'); "
            "import measurelab as ml; ml.__version__ = '0.1.0'; "
            "from tests.test_pickle_versions import _comparison; "
            "sys.stdout.buffer.write(pickle.dumps(_comparison()))")
    data = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                          env=_env()).stdout
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        back = pickle.loads(data)
    mine = [w for w in seen if issubclass(w.category, VersionMismatchWarning)]
    assert len(mine) == 1, [str(w.message) for w in seen]
    msg = str(mine[0].message)
    assert "\n" not in msg
    assert msg == (f"pickled by measurelab 0.1.0, read by {ml.__version__}: re-run the "
                   "comparison if numbers differ")
    assert repr(back) == repr(_comparison())


def _env() -> dict[str, str]:
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.join(root, "src"), root])}


def test_every_public_result_class_records_its_version(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One object of each public result class, pickled under a version of its own, warns
    when read here: the mechanism reaches every result (a new result class without it
    fails here)."""
    wanted = {cls for cls in public_result_classes() if cls.__name__ not in NOT_RESULTS}
    silent = []
    for i, obj in enumerate(o for o in _offered() if type(o) in wanted):
        version = f"0.0.{i}.test"  # a pair of versions not yet warned about
        data = _pickled_by(version, obj, monkeypatch)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            pickle.loads(data)
        # the object itself is wrapped (not only results it holds)
        outer = obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)[0]
        if (not any(version in str(w.message) for w in seen)
                or outer.__module__ != "measurelab.pickling"):
            silent.append(type(obj).__qualname__)
    assert not silent, f"read under another version without a word: {sorted(set(silent))}"


def test_a_changed_field_layout_is_refused_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = _pickled_by("0.1.0", Pair(0.25, 0.75), monkeypatch)

    @versioned_pickle
    class Changed(NamedTuple):  # the same class, a field added by a later version
        a: float
        lo: float
        b: float

    Changed.__qualname__ = Changed.__name__ = "Pair"
    monkeypatch.setattr(sys.modules[__name__], "Pair", Changed)
    exc = assert_refused(lambda: pickle.loads(data), "Pair")
    msg = str(exc)
    assert "0.1.0" in msg and ml.__version__ in msg
    assert "['a', 'b']" in msg and "['a', 'lo', 'b']" in msg


def test_an_unchanged_layout_under_another_version_reads_with_the_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = _pickled_by("0.1.1.test", Pair(0.25, 0.75), monkeypatch)
    with pytest.warns(VersionMismatchWarning, match=r"measurelab 0\.1\.1\.test, read by"):
        assert pickle.loads(data) == Pair(0.25, 0.75)

