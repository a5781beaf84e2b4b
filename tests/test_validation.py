"""The public checks of :mod:`measurelab.validation`: what each accepts, and the one-line
message of what it refuses (the same message wherever the library or the lab makes it)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import measurelab.validation as mv
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError


def test_face_lists_what_it_offers() -> None:
    assert sorted(mv.__all__) == sorted(n for n in vars(mv) if n.isupper() or
                                        n.startswith(("check_", "make_", "model_")))


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_check_flag_accepts_bools(value: object) -> None:
    assert mv.check_flag(value, "progress") is bool(value)


@pytest.mark.parametrize("value", ["no", 1, None, 0.0])
def test_check_flag_refuses_the_rest(value: object) -> None:
    with pytest.raises(MeasurelabTypeError, match=r"^progress must be True or False, got "):
        mv.check_flag(value, "progress")


def test_check_int() -> None:
    assert mv.check_int(np.int64(5), "k", minimum=1, maximum=5) == 5
    assert type(mv.check_int(np.int64(5), "k")) is int
    for bad in (True, 2.0, "2"):
        with pytest.raises(MeasurelabTypeError, match=r"^k must be an integer, got "):
            mv.check_int(bad, "k")
    with pytest.raises(MeasurelabError, match=r"^k must be a positive integer, got 0$"):
        mv.check_int(0, "k", minimum=1)
    with pytest.raises(MeasurelabError, match=r"^k must be a non-negative integer, got -1$"):
        mv.check_int(-1, "k", minimum=0)
    with pytest.raises(MeasurelabError, match=r"^k must be at least 2, got 1$"):
        mv.check_int(1, "k", minimum=2)
    with pytest.raises(MeasurelabError, match=r"^k must be at most 3, got 4$"):
        mv.check_int(4, "k", maximum=3)


def test_check_real() -> None:
    assert mv.check_real(np.float32(0.5), "eps", low=0, high=1) == 0.5
    assert mv.check_real(0, "eps", low=0) == 0.0
    with pytest.raises(MeasurelabError, match=r"eps must be in \(0, 1\], got 0"):
        mv.check_real(0, "eps", low=0, high=1, low_open=True)
    with pytest.raises(MeasurelabError, match="eps must be a finite number, got nan"):
        mv.check_real(float("nan"), "eps")
    with pytest.raises(MeasurelabTypeError, match="eps must be a number"):
        mv.check_real(False, "eps")


@pytest.mark.parametrize("level", [0.5, 0.95, np.float64(0.99), 1e-9])
def test_check_level_accepts_levels(level: float) -> None:
    assert mv.check_level(level) == float(level)


@pytest.mark.parametrize(("value", "kind", "message"), [
    (0, MeasurelabError, r"^confidence_level must be in \(0, 1\) \(e.g. 0.95\), got 0$"),
    (1.0, MeasurelabError, r"^confidence_level must be in \(0, 1\) \(e.g. 0.95\), got 1.0$"),
    (95, MeasurelabError, r"got 95$"),
    ("0.9", MeasurelabTypeError, r"^confidence_level must be a number in \(0, 1\), got '0.9'$"),
    (True, MeasurelabTypeError, r"got True$"),
])
def test_check_level_one_message(value: object, kind: type, message: str) -> None:
    with pytest.raises(kind, match=message):
        mv.check_level(value)


def test_the_library_and_the_lab_share_the_level_check() -> None:
    # the inference modules, the curves and this face give the same message for one mistake
    from measurelab.curves import reliability_diagram
    from measurelab.inference import intervals

    assert intervals.check_level is mv.check_level
    with pytest.raises(MeasurelabError,
                       match=r"^confidence_level must be in \(0, 1\) \(e.g. 0.95\)"):
        reliability_diagram([0, 1, 1], [0.2, 0.6, 0.9], confidence_level=1.5)


def test_check_choice_and_text() -> None:
    assert mv.check_choice("macro", "average", ["macro", "micro"]) == "macro"
    with pytest.raises(MeasurelabError, match="average must be one of 'macro', 'micro'; got 1"):
        mv.check_choice(1, "average", ["macro", "micro"])
    with pytest.raises(MeasurelabError, match="flag must be one of True; got 1"):
        mv.check_choice(1, "flag", [True])  # 1 == True, but not the same type
    assert mv.check_text("x", "name") == "x"
    assert mv.check_text(None, "name", optional=True) is None
    with pytest.raises(MeasurelabError, match=r"^name is empty$"):
        mv.check_text("  ", "name")
    with pytest.raises(MeasurelabTypeError, match=r"^name must be text \(str\), got int 3$"):
        mv.check_text(3, "name")


def test_check_seed() -> None:
    assert mv.check_seed(2**63 - 1) == 2**63 - 1
    with pytest.raises(MeasurelabError, match=f"seed must be at most {2**63 - 1}"):
        mv.check_seed(2**63)
    with pytest.raises(MeasurelabError, match="seed must be a non-negative integer"):
        mv.check_seed(-1)


def test_check_random_state() -> None:
    g = np.random.default_rng(0)
    assert mv.check_random_state(g) is g
    assert mv.check_random_state(None) is None
    assert mv.check_random_state(2**70) == 2**70  # numpy takes any non-negative integer
    with pytest.raises(MeasurelabTypeError, match="random_state must be a non-negative"):
        mv.check_random_state(1.5)
    with pytest.raises(MeasurelabError, match="rs must be a non-negative integer"):
        mv.check_random_state(-3, "rs")


def test_make_rng_is_numpys_generator() -> None:
    # the same stream as numpy's own builder, from every kind of random state
    assert np.array_equal(mv.make_rng(11).random(5), np.random.default_rng(11).random(5))
    seq = np.random.SeedSequence(4)
    assert np.array_equal(mv.make_rng(seq).random(3),
                          np.random.default_rng(np.random.SeedSequence(4)).random(3))
    g = np.random.default_rng(2)
    assert mv.make_rng(g) is g  # draws continue the caller's stream
    assert isinstance(mv.make_rng(None), np.random.Generator)
    legacy = np.random.RandomState(5)
    expected = np.random.Generator(np.random.RandomState(5)._bit_generator).random(2)
    assert np.array_equal(mv.make_rng(legacy).random(2), expected)
    with pytest.raises(MeasurelabError, match="random_state must be a non-negative integer"):
        mv.make_rng(-1)


def test_check_scores() -> None:
    out = mv.check_scores([1, "0.5", 2])
    assert out.dtype == np.float64 and out.tolist() == [1.0, 0.5, 2.0]
    with pytest.raises(MeasurelabError, match="y_score must be finite, got inf at position 1"):
        mv.check_scores([0.1, np.inf])


def test_check_output_path(tmp_path: Path) -> None:
    assert mv.check_output_path(tmp_path / "a" / "b.csv", "out") == tmp_path / "a" / "b.csv"
    with pytest.raises(MeasurelabError, match="is a folder; give a file name inside it"):
        mv.check_output_path(tmp_path, "out")
    (tmp_path / "f").write_text("x")
    with pytest.raises(MeasurelabError, match="is a file, not a folder"):
        mv.check_output_path(tmp_path / "f" / "b.csv", "out")


def test_check_output_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert mv.check_output_folder(tmp_path / "new", "out") == tmp_path / "new"
    (tmp_path / "f").write_text("x")
    monkeypatch.chdir(tmp_path)  # a short path, quoted whole whatever the temporary folder
    with pytest.raises(MeasurelabError, match=r"^out 'f' is a file; give a folder$"):
        mv.check_output_folder("f", "out")
    with pytest.raises(MeasurelabError, match="the study needs a folder"):
        mv.check_output_folder(tmp_path / "f", "out", "is a file; the study needs a folder")
    with pytest.raises(MeasurelabError, match=r"'.*f' is a file, not a folder"):
        mv.check_output_folder(tmp_path / "f" / "sub", "out")
    with pytest.raises(MeasurelabError, match=r"^out is empty; give a folder"):
        mv.check_output_folder(" ", "out")
    with pytest.raises(MeasurelabTypeError, match=r"out must be a folder path \(str or Path\)"):
        mv.check_output_folder(3, "out")
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            with pytest.raises(MeasurelabError, match="is not writable"):
                mv.check_output_folder(ro / "new", "out")
        finally:
            ro.chmod(0o700)


def test_model_names() -> None:
    assert mv.model_names({"a": 1, 2: 0}) == ["a", "2"]
    with pytest.raises(MeasurelabError, match="the names 1 and '1' are the same text '1'"):
        mv.model_names([1, "1"])
    with pytest.raises(MeasurelabError, match="the model name 'a' is given twice"):
        mv.model_names(["a", "a"])


def test_the_lab_has_no_copy_of_the_checks() -> None:
    import measurelab.lab

    root = Path(measurelab.lab.__file__).parent
    assert not (root / "_checks.py").exists()
    for p in root.rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        assert "def check_int(" not in text and "def check_real(" not in text, p


def test_the_library_never_chooses_a_backend() -> None:
    import measurelab

    src = Path(measurelab.__file__).parent
    offenders = [str(p.relative_to(src)) for p in src.rglob("*.py")
                 if p.parts[-2] != "cli"  # a command-line program may choose its own
                 and any("matplotlib.use(" in line and ">>>" not in line
                         for line in p.read_text(encoding="utf-8").splitlines())]
    assert offenders == []
