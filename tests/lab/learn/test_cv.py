"""Seeded CV splits and the resumable per-fold store."""

from __future__ import annotations

import numpy as np
import pytest

from measurelab.exceptions import MeasurelabError
from measurelab.lab.learn.cv import cv_splits, fold_path, run_folds


def test_splits_partition_and_are_seeded():
    y = np.array([0] * 13 + [1] * 7)
    a = cv_splits(y, k=5, repeats=3, seed=4)
    b = cv_splits(y, k=5, repeats=3, seed=4)
    assert len(a) == 15
    for s, t in zip(a, b, strict=True):
        np.testing.assert_array_equal(s.test, t.test)
    for r in range(3):
        tests = np.concatenate([s.test for s in a if s.repeat == r])
        assert sorted(tests.tolist()) == list(range(20))
        for s in a:
            if s.repeat == r:
                assert set(s.train).isdisjoint(s.test)
                # stratified: each test fold holds 1 or 2 positives
                assert y[s.test].sum() in (1, 2)
    assert not np.array_equal(a[0].test, a[5].test)   # repeats reshuffle
    with pytest.raises(MeasurelabError):
        cv_splits(y, k=1)


class Killed(Exception):
    pass


def test_killed_run_resumes_and_skips_finished_folds(tmp_path):
    y = np.array([0, 1] * 10)
    splits = cv_splits(y, k=5, repeats=2, seed=0)
    calls: list[str] = []
    kill = {"at": 4}

    def fn(split):
        calls.append(split.name)
        if len(calls) == kill["at"]:
            raise Killed  # the process dies while fold 4 runs
        return {"mean_test": float(split.test.mean()), "nan": float("nan")}

    with pytest.raises(Killed):
        run_folds(fn, splits, store=tmp_path, key="exp/ds")
    assert calls == ["r0-f0", "r0-f1", "r0-f2", "r0-f3"]
    assert [fold_path(tmp_path, "exp/ds", s).exists() for s in splits[:4]] == [
        True, True, True, False]
    assert not list((tmp_path / "exp/ds").glob(".*tmp"))   # no half-written files
    calls.clear()
    kill["at"] = -1
    res = run_folds(fn, splits, store=tmp_path, key="exp/ds")
    assert calls == [s.name for s in splits[3:]]            # finished folds skipped
    assert [r["mean_test"] for r in res] == [float(s.test.mean()) for s in splits]
    assert np.isnan(res[0]["nan"]) and (res[0]["repeat"], res[0]["fold"]) == (0, 0)
    calls.clear()
    run_folds(fn, splits, store=tmp_path, key="exp/ds")
    assert calls == []
