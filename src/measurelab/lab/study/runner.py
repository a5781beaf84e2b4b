"""Run a study: prepare problems, train every unit of the grid, store, resume.

Work runs in this process (``workers=1``), in local processes (``workers=N``, the default
is the number of CPUs), or on a Dask distributed cluster (``scheduler="tcp://..."`` or a
``distributed.Client``). The driver alone writes the store: workers receive a unit and the
prepared arrays and return scores and measures, so a cluster needs no shared disk. Every
unit's random seed comes from the study seed, the problem and the unit's name, so the
numbers do not depend on where, in which order or how often a unit runs.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.lab.study.problems import (
    Prepared,
    check_split,
    is_file_spec,
    load_problem,
    make_split,
    prepare,
    seed_for,
)
from measurelab.lab.study.store import ResultStore
from measurelab.lab.study.zoo import MEASURES, Unit, fit_unit, grid
from measurelab.pickling import versioned_pickle
from measurelab.validation import (
    check_flag,
    check_int,
    check_output_folder,
    check_seed,
    check_text,
)

#: test hook: seconds to sleep after each stored unit (lets a test kill a run mid-way)
_DELAY_ENV = "MEASURELAB_STUDY_DELAY"


@dataclass
class StudySettings:
    """What defines a study (and must match when it resumes)."""

    problems: list[str]
    grid: str = "quick"
    seed: int = 0
    n_train: int = 4000
    n_valid: int = 1000
    n_test: int = 20000
    target: str | None = None
    pos_label: str | None = None


@versioned_pickle
@dataclass
class StudyResult:
    """A finished study: its folder, the measure rows and the timing of this run."""

    out: Path
    measures: pd.DataFrame
    n_models: int
    n_units_run: int
    n_units_skipped: int
    train_seconds: float
    eval_seconds: float
    wall_seconds: float


def evaluate_scores(y: np.ndarray, p: np.ndarray) -> dict[str, float]:
    """The study's ten measures of one score vector (MXE in bits, threshold 0.5).

    Examples
    --------
    >>> v = evaluate_scores(np.array([0, 1, 1, 0]), np.array([0.2, 0.7, 0.6, 0.1]))
    >>> v["acc"], v["auc"]
    (1.0, 1.0)
    """
    from measurelab.measures.compute import compute_measures
    from measurelab.metrics.evaluation import build_stats

    stats = build_stats(y, p)
    res = compute_measures(stats, list(MEASURES.values()))
    return {k: float(res[spec]) for k, spec in MEASURES.items()}


_DATA_CACHE: dict[str, Prepared] = {}


def run_unit(unit: Unit, data: Prepared | str, seed: int) -> dict[str, Any]:
    """Train one unit and evaluate its models; ``data`` is a Prepared or an npz path.

    Returns plain data (measure rows, prediction arrays, seconds) for the driver to store.

    Examples
    --------
    >>> import tempfile
    >>> from measurelab.lab.study.problems import load_problem, make_split, prepare
    >>> from measurelab.lab.study.zoo import grid
    >>> prob = load_problem("sonar")
    >>> d = prepare(prob, make_split(prob.y, n_train=100, n_valid=40, n_test=60, seed=0))
    >>> unit = [u for u in grid("tiny", "sonar") if u.algo == "nb"][0]
    >>> r = run_unit(unit, d, seed=0)
    >>> len(r["measures"]), sorted(r["predictions"]["split"].unique())
    (2, ['test', 'valid'])
    """
    if isinstance(data, str):
        if data not in _DATA_CACHE:
            _DATA_CACHE.clear()
            _DATA_CACHE[data] = Prepared.load(Path(data), unit.problem)
        data = _DATA_CACHE[data]
    useed = seed_for(seed, unit.problem, unit.id)
    fitted = fit_unit(unit, data, useed)
    t0 = time.perf_counter()
    rows = []
    preds = []
    for params, pv, pt in fitted.models:
        mid = f"{unit.algo} {json.dumps(params, sort_keys=True)}"
        for split, y, p in (("valid", data.y_valid, pv), ("test", data.y_test, pt)):
            rows.append({"problem": unit.problem, "unit": unit.id, "algo": unit.algo,
                         "model": mid, "params": json.dumps(params, sort_keys=True),
                         "split": split, **evaluate_scores(y, p)})
            preds.append(pd.DataFrame({"model": mid, "split": split,
                                       "row": np.arange(p.size, dtype=np.int32),
                                       "y": y.astype(np.int8), "score": p}))
    return {"measures": pd.DataFrame(rows), "predictions": pd.concat(preds, ignore_index=True),
            "train_seconds": fitted.train_seconds,
            "eval_seconds": time.perf_counter() - t0}


def _prepared_ok(npz: Path) -> str | None:
    """None if a problem's stored data and info read back whole, else what is wrong."""
    info = npz.parent / "info.json"
    try:
        json.loads(info.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"{info} is unreadable or truncated ({type(exc).__name__})"
    try:
        with np.load(npz) as z:
            for k in z.files:
                z[k]  # reading every array checks the file's integrity
    except Exception as exc:  # any failure to read back means damage
        return f"{npz} is unreadable or truncated ({type(exc).__name__})"
    return None


def prepare_problems(settings: StudySettings, store: ResultStore,
                     loaded: dict[str, Any] | None = None) -> dict[str, Path]:
    """Load, split and preprocess each problem once; returns the npz path of each.

    ``loaded`` maps a problem spec to its already loaded :class:`Problem`. Stored data
    that do not read back (a truncated ``data.npz`` or ``info.json``) are prepared again.

    Examples
    --------
    >>> import tempfile
    >>> store = ResultStore(tempfile.mkdtemp())
    >>> paths = prepare_problems(StudySettings(["sonar"], n_train=100, n_valid=40,
    ...                                        n_test=60), store)
    >>> paths["sonar"].name, (paths["sonar"].parent / "info.json").exists()
    ('data.npz', True)
    """
    from measurelab.lab.study.store import note

    paths = {}
    for spec in settings.problems:
        prob = (loaded or {}).get(spec) or load_problem(spec, target=settings.target,
                                                        pos_label=settings.pos_label)
        folder = store.root / "problems" / prob.name
        npz = folder / "data.npz"
        if npz.exists():
            damage = _prepared_ok(npz)
            if damage is not None:
                note(f"{damage}; the problem is prepared again")
                npz.unlink()
        if not npz.exists():
            split = make_split(prob.y, n_train=settings.n_train, n_valid=settings.n_valid,
                               n_test=settings.n_test, seed=seed_for(settings.seed, prob.name))
            d = prepare(prob, split)
            d.save(npz)
            from measurelab.io.files import atomic_write_text

            info = {"problem": prob.name, "positive": prob.positive, "note": prob.note,
                    "rows": prob.n, "pos_rate_all": prob.pos_rate,
                    "train": int(d.y_train.size), "valid": int(d.y_valid.size),
                    "test": int(d.y_test.size), "pos_rate_test": float(d.y_test.mean()),
                    **d.info}
            atomic_write_text(folder / "info.json", json.dumps(info, indent=1))
        paths[prob.name] = npz
    return paths


def run_study(
    problems: list[str],
    *,
    out: str | Path,
    grid_name: str = "quick",
    seed: int = 0,
    n_train: int = 4000,
    n_valid: int = 1000,
    n_test: int = 20000,
    target: str | None = None,
    pos_label: str | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    progress: bool = True,
) -> StudyResult:
    """Train and evaluate every model of the grid on every problem; resume if interrupted.

    Parameters
    ----------
    problems : names (see :mod:`measurelab.lab.study.problems`) or CSV/Parquet paths
    out : folder of the result store (created; an existing study there is resumed)
    grid_name : 'quick', 'full' or 'tiny'
    seed : the study seed (splits and every model's seed derive from it)
    n_train, n_valid, n_test : split sizes (test is a cap)
    target, pos_label : label column and positive class of user files
    workers : local processes; 1 runs in this process; default the number of CPUs
    scheduler : address of a Dask scheduler, or a ``distributed.Client``
    progress : show a progress bar (models done / total, time left)

    Returns
    -------
    StudyResult

    Examples
    --------
    >>> import tempfile
    >>> r = run_study(["sonar"], out=tempfile.mkdtemp(), grid_name="tiny", workers=1,
    ...               progress=False)
    >>> r.n_models, sorted(r.measures["split"].unique())
    (14, ['test', 'valid'])
    """
    problems = _check_problems(problems)
    check_output_folder(out, "out",
                        "is a file; the study needs a folder (a new or an existing study's)")
    check_text(grid_name, "grid_name")
    grid(grid_name, "check")  # an unknown grid fails before anything is written
    seed = check_seed(seed)
    n_train = check_int(n_train, "n_train", minimum=1)
    n_valid = check_int(n_valid, "n_valid", minimum=1)
    n_test = check_int(n_test, "n_test", minimum=1)
    target = check_text(target, "target", optional=True)
    if pos_label is not None and (isinstance(pos_label, bool) or
                                  not isinstance(pos_label, str | int | np.integer)):
        raise MeasurelabTypeError(f"pos_label must be a label (str or int) or None, got "
                                  f"{type(pos_label).__name__} {pos_label!r:.60}")
    workers = None if workers is None else check_int(workers, "workers", minimum=1)
    scheduler = _check_scheduler(scheduler)
    progress = check_flag(progress, "progress")
    settings = StudySettings(list(problems), grid_name, seed, n_train, n_valid, n_test,
                             target, None if pos_label is None else str(pos_label))
    store = ResultStore(out)
    store.check_folder()
    if target is not None and not any(is_file_spec(p) for p in problems):
        raise MeasurelabError(
            f"--target {target!r} names the label column of a problem file, but no problem "
            f"is a file ({', '.join(problems)}); drop --target or give a .csv/.parquet file")
    # every problem loads, and splits well enough to train every model, before the folder
    # is touched: a failed start leaves nothing behind
    loaded = {spec: load_problem(spec, target=target, pos_label=settings.pos_label)
              for spec in settings.problems}
    for prob in loaded.values():
        check_split(prob, settings.n_train, settings.n_valid, settings.n_test,
                    seed_for(settings.seed, prob.name))
    own = None
    if isinstance(scheduler, str):  # reach the cluster before the folder is made
        from measurelab.io.distributed import connect

        own = scheduler = connect(scheduler)
    fresh = not store.root.exists()
    try:
        with store.lock():
            return _run_locked(settings, store, loaded, workers, scheduler, progress)
    except BaseException:
        if fresh and not any((store.root / "units").glob("*/*.parquet")):
            import shutil

            shutil.rmtree(store.root, ignore_errors=True)  # nothing worth resuming
        raise
    finally:
        if own is not None:
            own.close()


def _check_problems(problems: Any) -> list[str]:
    """Problem names or file paths: a non-empty list of non-empty text."""
    if isinstance(problems, str | bytes | os.PathLike) or not isinstance(problems,
                                                                         list | tuple):
        raise MeasurelabTypeError(f"problems must be a list of names or paths, got "
                                  f"{type(problems).__name__} {problems!r:.60}")
    out = [os.fspath(p) if isinstance(p, os.PathLike) else p for p in problems]
    for p in out:
        check_text(p, "problems")
    if not out:
        raise MeasurelabError("problems is empty; give names such as sonar or files")
    return out


def _check_scheduler(scheduler: Any) -> Any:
    """None, a scheduler address (non-empty text) or a ``distributed.Client``."""
    if scheduler is None or hasattr(scheduler, "submit"):
        return scheduler
    return check_text(scheduler, "scheduler")


def _run_locked(settings: StudySettings, store: ResultStore, loaded: dict[str, Any],
                workers: int | None, scheduler: Any, progress: bool) -> StudyResult:
    grid_name, seed = settings.grid, settings.seed
    store.open(asdict(settings))
    t_wall = time.perf_counter()
    paths = prepare_problems(settings, store, loaded)
    units = [u for name in paths for u in grid(grid_name, name)]
    todo = [u for u in units if not store.is_done(u.problem, u.id)]
    total = sum(u.n_models for u in units)
    from measurelab.progress import progress_bar

    bar = progress_bar(total, desc="study", unit="model", enabled=progress,
                       initial=total - sum(u.n_models for u in todo))
    delay = float(os.environ.get(_DELAY_ENV, "0") or 0)
    train_s = eval_s = 0.0
    try:
        for unit, res in _execute(todo, paths, seed, workers, scheduler):
            store.write_unit(unit.problem, unit.id, unit.algo, res["measures"],
                             res["predictions"], res["train_seconds"], res["eval_seconds"])
            train_s += res["train_seconds"]
            eval_s += res["eval_seconds"]
            bar.update(unit.n_models)
            if delay:
                time.sleep(delay)
    finally:
        bar.close()
    measures = store.measures(list(paths))
    from measurelab.lab.study.store import atomic_write_parquet

    atomic_write_parquet(measures, store.root / "measures.parquet")
    return StudyResult(store.root, measures, total, len(todo), len(units) - len(todo),
                       train_s, eval_s, time.perf_counter() - t_wall)


def extend_study(root: str | Path, units: list[Unit], *, out: str | Path,
                 workers: int | None = None, progress: bool = True) -> pd.DataFrame:
    """Train more units on a finished study's prepared data; returns their measure rows.

    The units are stored in their own result store ``out`` (atomic, resumable like a
    study; its settings name the study it extends), so the study itself is never changed.
    Each unit's seed comes from the study's seed, the problem and the unit's name, as in
    the study: a unit named like one of the study's reproduces its models, and further
    variants (a net read off after more epochs) continue the same run.

    Parameters
    ----------
    root : folder of a finished study (:func:`run_study`)
    units : the units to train; their problems must be prepared in the study
    out : folder of the extension's result store (created; resumed when it exists)
    workers, progress : as in :func:`run_study`

    Returns
    -------
    pandas.DataFrame
        The units' measure rows (the columns of the study's ``measures.parquet``).

    Raises
    ------
    MeasurelabError
        ``root`` holds no study, a unit's problem is not prepared there, or ``out``
        extends another study or holds a unit of the same name with other models.

    Examples
    --------
    >>> import tempfile
    >>> from measurelab.lab.study.zoo import Unit
    >>> root = tempfile.mkdtemp()
    >>> _ = run_study(["sonar"], out=root, grid_name="tiny", workers=1, progress=False)
    >>> u = Unit("sonar", "ann", (("hidden", 4), ("momentum", 0.9)),
    ...          ((("epochs", 20),), (("epochs", 40),)))
    >>> rows = extend_study(root, [u], out=tempfile.mkdtemp(), workers=1, progress=False)
    >>> sorted(rows.loc[rows["split"] == "test", "model"])
    ['ann {"epochs": 20, "hidden": 4, "momentum": 0.9}', 'ann {"epochs": 40, "hidden": 4, \
"momentum": 0.9}']
    """
    check_output_folder(root, "root")
    check_output_folder(out, "out", "is a file; the extension needs a folder")
    if isinstance(units, str | bytes) or not isinstance(units, list | tuple) or \
            not all(isinstance(u, Unit) for u in units):
        raise MeasurelabTypeError("units must be a list of Unit objects, got "
                                  f"{type(units).__name__}")
    workers = None if workers is None else check_int(workers, "workers", minimum=1)
    progress = check_flag(progress, "progress")
    study = ResultStore(root)
    if not (study.root / "study.json").is_file():
        raise MeasurelabError(f"{root} holds no study to extend (no study.json)")
    settings = study.settings()
    paths = {u.problem: study.root / "problems" / u.problem / "data.npz" for u in units}
    for name, npz in paths.items():
        if not npz.exists():
            raise MeasurelabError(f"problem {name!r} is not prepared in the study {root}")
    store = ResultStore(out)
    store.check_folder()
    with store.lock():
        old = store.settings() if (store.root / "study.json").is_file() else None
        here = str(study.root.resolve())
        if old is not None and old.get("extends") != here:
            raise MeasurelabError(
                f"{out} holds an extension of the study {old.get('extends')}, not {here}; "
                "use another folder")
        store.open({**settings, "grid": "extension", "problems": sorted(paths),
                    "extends": here})
        todo = []
        for u in units:
            if not store.is_done(u.problem, u.id):
                todo.append(u)
                continue
            stored = set(pd.read_parquet(store.unit_path(u.problem, u.id))["model"])
            if stored != set(u.model_ids()):
                raise MeasurelabError(
                    f"{out} holds unit {u.id!r} of {u.problem!r} with other models "
                    f"({len(stored)} stored, {u.n_models} asked); use another folder")
        from measurelab.progress import progress_bar

        total = sum(u.n_models for u in units)
        bar = progress_bar(total, desc="extension", unit="model", enabled=progress,
                           initial=total - sum(u.n_models for u in todo))
        try:
            for unit, res in _execute(todo, paths, int(settings["seed"]), workers, None):
                store.write_unit(unit.problem, unit.id, unit.algo, res["measures"],
                                 res["predictions"], res["train_seconds"],
                                 res["eval_seconds"])
                bar.update(unit.n_models)
        finally:
            bar.close()
    ids = {(u.problem, u.id) for u in units}
    rows = store.measures(sorted(paths))
    return rows[[(p, u) in ids for p, u in zip(rows["problem"], rows["unit"],
                                               strict=True)]].reset_index(drop=True)


def _execute(todo: list[Unit], paths: dict[str, Path], seed: int, workers: int | None,
             scheduler: Any) -> Iterator[tuple[Unit, dict[str, Any]]]:
    if not todo:
        return
    if scheduler is not None:
        yield from _execute_dask(todo, paths, seed, scheduler)
        return
    workers = min(workers or os.cpu_count() or 1, len(todo))  # no idle processes
    if workers <= 1:
        for u in todo:
            yield u, run_unit(u, str(paths[u.problem]), seed)
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn"),
                             initializer=_watch_parent, initargs=(os.getpid(),)) as pool:
        futs = {pool.submit(run_unit, u, str(paths[u.problem]), seed): u for u in todo}
        try:
            for f in as_completed(futs):
                yield futs[f], f.result()
        except BaseException:
            for f in futs:
                f.cancel()
            raise


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """Worker initializer: end this process when the driver (``parent``) is gone, even in
    the middle of training a unit (a killed driver leaves no workers behind)."""
    import threading

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="measurelab-watch-parent", daemon=True).start()


def _execute_dask(todo: list[Unit], paths: dict[str, Path], seed: int,
                  scheduler: Any) -> Iterator[tuple[Unit, dict[str, Any]]]:
    from distributed import Client, as_completed

    own = not isinstance(scheduler, Client)
    if own:
        from measurelab.io.distributed import connect

        client = connect(scheduler)
    else:
        client = scheduler
    try:
        data = {name: client.scatter(Prepared.load(p, name), broadcast=True)
                for name, p in paths.items() if any(u.problem == name for u in todo)}
        futs = {client.submit(run_unit, u, data[u.problem], seed, pure=False): u
                for u in todo}
        for f in as_completed(list(futs)):
            yield futs[f], f.result()
    finally:
        if own:
            client.close()
