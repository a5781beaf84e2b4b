"""Cross-validation with fixed seeds and per-fold results stored so a run resumes.

:func:`cv_splits` gives (repeat, fold, train, test) for k-fold or repeated k-fold CV,
stratified by default; repeat r shuffles with seed ``seed + r``, so the folds depend only
on (y, k, repeats, seed). :func:`run_folds` calls a function on every split and writes
each result as one JSON file ``<store>/<key>/r<repeat>-f<fold>.json`` atomically (a file
appears whole or not at all); a restarted run loads finished folds instead of recomputing
them, so a killed run loses at most the folds in flight.

Examples
--------
>>> import numpy as np, tempfile
>>> y = np.array([0, 1] * 10)
>>> splits = cv_splits(y, k=5, repeats=2, seed=0)
>>> len(splits), splits[0].repeat, splits[-1].fold
(10, 0, 4)
>>> d = tempfile.mkdtemp()
>>> res = run_folds(lambda s: {"n_test": len(s.test)}, splits, store=d, key="demo")
>>> [r["n_test"] for r in res][:3], fold_path(d, "demo", splits[0]).name
([4, 4, 4], 'r0-f0.json')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.io.files import atomic_write_text
from measurelab.jsonable import to_jsonable
from measurelab.validation import check_flag, check_int, check_output_folder, check_text


@dataclass(frozen=True)
class Split:
    """One train/test split of a (repeated) k-fold cross-validation."""

    repeat: int
    fold: int
    train: np.ndarray
    test: np.ndarray

    @property
    def name(self) -> str:
        return f"r{self.repeat}-f{self.fold}"


def cv_splits(
    y: Any, *, k: int = 10, repeats: int = 1, seed: int = 0, stratified: bool = True
) -> list[Split]:
    """All splits of ``repeats`` × ``k``-fold CV (shuffled, seeded, stratified by default).

    Examples
    --------
    >>> import numpy as np
    >>> s = cv_splits(np.array([0, 0, 0, 1, 1, 1]), k=3, seed=1)
    >>> sorted(np.concatenate([x.test for x in s]).tolist())
    [0, 1, 2, 3, 4, 5]
    """
    from sklearn.model_selection import KFold, StratifiedKFold

    y = np.asarray(y)
    if y.ndim != 1:
        raise MeasurelabError(f"y must be 1-d (one label per case), got shape {y.shape}")
    k = check_int(k, "k", minimum=2, maximum=max(2, y.size))
    repeats = check_int(repeats, "repeats", minimum=1, maximum=10**6)
    # scikit-learn's seeds are below 2**32, and repeat r uses seed + r
    seed = check_int(seed, "seed", minimum=0, maximum=2**32 - repeats)
    stratified = check_flag(stratified, "stratified")
    out = []
    for r in range(repeats):
        if stratified:
            _, counts = np.unique(y, return_counts=True)
            if counts.max() < k:
                raise MeasurelabError(f"k={k} folds but no class has {k} examples")
            splitter = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed + r)
        else:
            splitter = KFold(n_splits=k, shuffle=True, random_state=seed + r)
        import warnings

        with warnings.catch_warnings():  # small classes: sklearn warns, folds still valid
            warnings.simplefilter("ignore", UserWarning)
            for f, (tr, te) in enumerate(splitter.split(np.zeros(y.size), y)):
                out.append(Split(r, f, tr, te))
    return out


def _unjson(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _unjson(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_unjson(v) for v in obj]
    if obj in ("nan", "inf", "-inf"):
        return float(obj)
    return obj


def fold_path(store: str | Path, key: str, split: Split) -> Path:
    """File holding one fold's result."""
    return Path(store) / key / f"{split.name}.json"


def run_folds(
    fn: Callable[[Split], dict[str, Any]],
    splits: Sequence[Split],
    *,
    store: str | Path | None = None,
    key: str = "run",
    progress: bool = False,
    desc: str | None = None,
) -> list[dict[str, Any]]:
    """``fn(split)`` for every split; each result (a JSON-able dict) stored and reused.

    With ``store=None`` nothing is written. Each returned dict gets ``repeat`` and
    ``fold`` keys. Finished folds found in the store are loaded, not recomputed.

    Examples
    --------
    >>> import numpy as np, tempfile
    >>> d = tempfile.mkdtemp(); calls = []
    >>> s = cv_splits(np.array([0, 1] * 4), k=2)
    >>> _ = run_folds(lambda sp: calls.append(sp.name) or {"x": 1}, s, store=d, key="k")
    >>> _ = run_folds(lambda sp: calls.append(sp.name) or {"x": 1}, s, store=d, key="k")
    >>> calls                        # the second run found both folds on disk
    ['r0-f0', 'r0-f1']
    """
    from measurelab.progress import progress_iter

    if not callable(fn):
        raise MeasurelabTypeError(f"fn must be a function of a Split, got {type(fn).__name__}")
    if isinstance(splits, str | bytes) or not all(isinstance(s, Split) for s in splits):
        raise MeasurelabTypeError("splits must be a sequence of Split (see cv_splits)")
    if store is not None:
        check_output_folder(store, "store")
    check_text(key, "key")
    progress = check_flag(progress, "progress")
    check_text(desc, "desc", optional=True)
    results = []
    for split in progress_iter(splits, desc or key, progress, unit="fold"):
        path = fold_path(store, key, split) if store is not None else None
        if path is not None and path.exists():
            res = _unjson(json.loads(path.read_text(encoding="utf-8")))
        else:
            res = dict(fn(split))
            res["repeat"], res["fold"] = split.repeat, split.fold
            if path is not None:
                atomic_write_text(path, json.dumps(to_jsonable(res, nan="nan")))
        results.append(res)
    return results
