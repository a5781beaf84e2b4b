"""The modules moved in 0.2 keep answering at their old paths, with a deprecation warning."""

from __future__ import annotations

import importlib

import pytest

from measurelab.exceptions import MeasurelabDeprecationWarning

MOVED = [
    ("measurelab.measures.recalibration", "decomposition",
     "measurelab.measures.calibration.corp"),
    ("measurelab.measures.recalibration", "recalibrate", "measurelab.measures.calibration.corp"),
    ("measurelab.measures.debiased_calibration", "estimates",
     "measurelab.measures.calibration.debiased"),
    ("measurelab.measures.smooth_calibration", "smece", "measurelab.measures.calibration.smooth"),
    ("measurelab.measures.smooth_calibration", "loess_curve",
     "measurelab.measures.calibration.loess"),
    ("measurelab.measures.calibration_test", "spiegelhalter_p_value",
     "measurelab.measures.calibration.spiegelhalter"),
    ("measurelab.measures.calibration", "cal_block", "measurelab.measures.calibration.cal"),
    ("measurelab.inference.intervals", "delong_paired", "measurelab.inference.delong"),
    ("measurelab.inference.intervals", "delong_cov", "measurelab.inference.delong"),
    ("measurelab.inference.intervals", "delong", "measurelab.inference.delong"),
    ("measurelab.inference.intervals", "CaseDesign", "measurelab.inference.bootstrap"),
    ("measurelab.inference.intervals", "bca_interval", "measurelab.inference.bootstrap"),
    ("measurelab.inference.classifiers.binary", "compare_classifiers", "measurelab.inference.classifiers.compare"),
    ("measurelab.inference.classifiers.binary", "MultiClassComparison",
     "measurelab.inference.classifiers.multiclass"),
    ("measurelab.inference.power", "Binormal", "measurelab.inference.classifiers.simulation"),
    ("measurelab.inference.power", "Resample", "measurelab.inference.classifiers.simulation"),
]


@pytest.mark.parametrize(("old", "name", "new"), MOVED)
def test_old_path_warns_and_gives_the_same_object(old: str, name: str, new: str) -> None:
    module = importlib.import_module(old)
    with pytest.warns(MeasurelabDeprecationWarning, match=f"import {name} from {new}"):
        got = getattr(module, name)
    assert got is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize("old", sorted({m[0] for m in MOVED}))
def test_old_path_refuses_an_unknown_name(old: str) -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = importlib.import_module(old).no_such_name
