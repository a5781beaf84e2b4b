"""The bad-input contract of the command line, the file readers and the lab (issue 23).

Every command — measures, evaluate, versus, ranks, compare, study, reproduce, demo — is
driven with generated bad options (numbers that are not plain ASCII decimals such as
``1_0`` or full-width digits, sizes out of bounds, levels outside (0, 1), seeds, output
paths that are a folder, empty or inside a file) and bad files (a repeated header, dates
or lists where scores or labels belong, a Parquet part without the score or weight
column, a problem too small for a study): each exits 2 with one line naming the option or
the file, no traceback, no temporary name, and writes nothing
(:func:`tests.hardening.contract.assert_cli_refused`). The readers' and the lab's public
entry points refuse bad parameters the same way (:func:`~tests.hardening.contract.
assert_refused`).
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.contract import assert_cli_refused, assert_refused

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

# ------------------------------------------------------------------ bad option texts
#: numbers that are not plain ASCII decimal notation (the one rule of files and options)
NOT_NUMBERS = st.sampled_from(["x", "1_0", "\uff11", "\uff10.5", "0x1p-1", "", " ", "1,5",
                               "--", "0.5.1", "1e", "½", "٣"])
#: integers that are not plain digits
NOT_INTS = st.one_of(NOT_NUMBERS, st.sampled_from(["1.5", "2.0", "1e3", "nan", "inf"]))

OPTION_KINDS: dict[str, st.SearchStrategy[str]] = {
    # a count of something (replicates, rows, workers): at least 1
    "size": st.one_of(NOT_INTS, st.integers(-10**6, 0).map(str)),
    # a seed: a whole number in [0, 2**63)
    "seed": st.one_of(NOT_INTS, st.integers(-10**6, -1).map(str),
                      st.integers(2**63, 2**70).map(str)),
    # a level strictly between 0 and 1
    "level": st.one_of(NOT_NUMBERS, st.sampled_from(["0", "1", "-0.1", "1.5", "nan", "inf",
                                                     "100"])),
    # a number (a threshold, a rope)
    "number": NOT_NUMBERS,
    # an integer of any sign (a row count of the compare command)
    "int": NOT_INTS,
}


def _out_files(folder: Path) -> st.SearchStrategy[str]:
    """Output files that cannot be written: a folder, empty, inside a file."""
    return st.sampled_from(["", " ", str(folder / "adir"), str(folder / "afile" / "x.html"),
                            str(folder / "new") + os.sep])


def _out_folders(folder: Path) -> st.SearchStrategy[str]:
    """Output folders that cannot be made: empty, a file, inside a file."""
    return st.sampled_from(["", " ", str(folder / "afile"), str(folder / "afile" / "sub")])


# ------------------------------------------------------------------ the files
def _write_files(d: Path) -> dict[str, Path]:
    rng = np.random.default_rng(0)
    n = 60
    y = rng.integers(0, 2, n)
    files: dict[str, Path] = {}

    def put(name: str, content: str | bytes) -> None:
        p = d / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        files[name] = p

    pd.DataFrame({"y": y, "a": rng.random(n), "b": rng.random(n), "w": np.ones(n)}).to_csv(
        d / "two.csv", index=False)
    files["two.csv"] = d / "two.csv"
    put("preds.txt", "".join(f"{a} {b:.3f}\n" for a, b in zip(y, rng.random(n),
                                                              strict=True)))
    m = rng.dirichlet(np.ones(3), n)
    q = rng.dirichlet(np.ones(3), n)
    pd.DataFrame({"y": rng.integers(0, 3, n), **{f"lr_{i}": m[:, i] for i in range(3)},
                  **{f"rf_{i}": q[:, i] for i in range(3)}}).to_csv(d / "multi.csv",
                                                                    index=False)
    files["multi.csv"] = d / "multi.csv"
    put("ranks.csv", "dataset,a,b,c\nd1,.8,.7,.6\nd2,.9,.8,.7\nd3,.7,.75,.6\nd4,.6,.65,.5\n")
    # bad files, by kind
    put("dup.csv", "y,p,p\n1,0.9,0.1\n0,0.2,0.8\n")
    put("under.csv", "y,p\n1,1_0\n0,0.2\n")
    put("fullwidth.csv", "y,p\n1,\uff11\n0,0.2\n")
    put("wunder.csv", "y,p,w\n1,0.9,1_0\n0,0.2,1\n")
    put("hex.csv", "y,p\n1,0x1p-1\n0,0.2\n")
    put("dates.csv", "y,p\n1,2020-01-01\n0,2020-01-02\n")
    put("empty.csv", "")
    put("header-only.csv", "y,p\n")
    put("three.txt", "1 0.9\n0 0.2\n2 0.4\n")
    put("gz.txt", b"\x1f\x8b\x08\x00rest")
    put("multidup.csv", "y,c0,c1,c2,c2\n0,.6,.3,.1,.1\n1,.2,.5,.3,.3\n")
    put("ranksdup.csv", "dataset,a,b,b\nd1,.8,.7,.6\nd2,.9,.8,.7\nd3,.7,.75,.6\n")
    put("ranks-empty.csv", "dataset,a,b\n")
    put("tiny.csv", "f,t\n1,a\n2,b\n3,a\n")
    put("problem-dup.csv", "f,t,t\n" + "".join(f"{i},{i % 2},{i % 2}\n" for i in range(40)))
    frames = {
        "ts.parquet": pd.DataFrame({"y": [0, 1, 0, 1], "p": pd.to_datetime(["2020-01-01"] * 4)}),
        "tslabel.parquet": pd.DataFrame({"y": pd.to_datetime(["2020-01-01", "2020-01-02"] * 2),
                                         "p": [.1, .2, .3, .4]}),
        "duration.parquet": pd.DataFrame({"y": [0, 1, 0, 1],
                                          "p": pd.to_timedelta([1, 2, 3, 4], unit="s")}),
        "list.parquet": pd.DataFrame({"y": [0, 1, 0, 1], "p": [[.1], [.2], [.3], [.4]]}),
        "listlabel.parquet": pd.DataFrame({"y": [[0], [1], [0], [1]], "p": [.1, .2, .3, .4]}),
        "struct.parquet": pd.DataFrame({"y": [{"a": 0}, {"a": 1}] * 2, "p": [.1, .2, .3, .4]}),
        "text.parquet": pd.DataFrame({"y": [0, 1, 0, 1], "p": ["0.1", "0.2", "1_0", "0.4"]}),
    }
    for name, df in frames.items():
        df.to_parquet(d / name)
        files[name] = d / name
    for folder, second in (("parts", {"y": [0, 1], "q": [.1, .9]}),
                           ("partsw", {"y": [0, 1], "p": [.1, .9]})):
        (d / folder).mkdir()
        pd.DataFrame({"y": [0, 1], "p": [.1, .9], "w": [1., 1.]}).to_parquet(
            d / folder / "a.parquet")
        pd.DataFrame(second).to_parquet(d / folder / "b.parquet")
        files[folder] = d / folder
    (d / "adir").mkdir()
    (d / "afile").write_text("x")
    files["adir"] = d / "adir"
    return files


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    _write_files(d)
    return d


def refused(argv: list[str], names: str | list[str], folder: Path) -> None:
    """The CLI contract, run in ``folder`` (an empty output path must not write there)."""
    with contextlib.chdir(folder):
        assert_cli_refused(argv, names, folder)


# ------------------------------------------------------------------ options by command
#: command -> (good argv, {option: (kind, extra argv that makes the option apply)})
def _commands(d: Path) -> dict[str, tuple[list[str], dict[str, tuple[str, list[str]]]]]:
    two, multi, ranks = str(d / "two.csv"), str(d / "multi.csv"), str(d / "ranks.csv")
    boot = {"--n-boot": ("size", []), "--seed": ("seed", []), "--n-jobs": ("size", []),
            "--ci": ("level", []), "--html": ("out_file", []), "--chunk-rows": ("size", []),
            "--threshold": ("number", [])}
    study = ["study", "--problems", "sonar", "--grid", "tiny", "--out", str(d / "study"),
             "--workers", "1", "--no-progress", "--no-analysis"]
    return {
        "evaluate": (["evaluate", two, "--score-col", "a"], {**boot}),
        "evaluate-models": (["evaluate", two, "--score-col", "a", "--score-col", "b"],
                            {**boot}),
        "evaluate-multi": (["evaluate", multi, "--proba-cols", "lr_0,lr_1,lr_2"],
                           {"--chunk-rows": ("size", []), "--n-boot": ("size", []),
                            "--seed": ("seed", []), "--html": ("out_file", [])}),
        "versus": (["versus", two, "--score-col", "a", "--score-col", "b", "--ci", "none"],
                   {**boot}),
        "versus-multi": (["versus", multi, "--proba-cols", "lr_0,lr_1,lr_2", "--proba-cols",
                          "rf_0,rf_1,rf_2", "--ci", "none"],
                         {"--seed": ("seed", []), "--html": ("out_file", []),
                          "--chunk-rows": ("size", [])}),
        "ranks": (["ranks", ranks],
                  {"--alpha": ("level", []), "--decimals": ("int", []),
                   "--seed": ("seed", ["--bayes", "--rope", "0.01"]),
                   "--rope": ("number", ["--bayes"]), "--html": ("out_file", [])}),
        "compare": (["compare-measures", "auc", "acc", "--n", "10", "--pos", "5"],
                    {"--n": ("int", []), "--pos": ("int", []), "--cutoff": ("int", []),
                     "--sample": ("int", []), "--seed": ("seed", ["--sample", "5"])}),
        "study": (study, {"--workers": ("size", []), "--seed": ("seed", []),
                          "--n-train": ("size", []), "--n-valid": ("size", []),
                          "--n-test": ("size", []), "--out": ("out_folder", [])}),
        "reproduce": (["reproduce", "sokolova2006", "--out", str(d / "repro")],
                      {"--out": ("out_folder", [])}),
        "demo": (["demo", "--out", str(d / "demo"), "--no-reproductions"],
                 {"--out": ("out_folder", [])}),
    }


def _strategy(kind: str, d: Path) -> st.SearchStrategy[str]:
    if kind == "out_file":
        return _out_files(d)
    if kind == "out_folder":
        return _out_folders(d)
    return OPTION_KINDS[kind]


def _set(argv: list[str], option: str, value: str) -> list[str]:
    """``argv`` with ``option`` given ``value`` (replaced when present, else added)."""
    out = list(argv)
    if option in out:
        i = out.index(option)
        out[i + 1] = value
        return out
    return [*out, option, value]


@pytest.mark.parametrize("command", ["evaluate", "evaluate-models", "evaluate-multi",
                                     "versus", "versus-multi", "ranks", "compare", "study",
                                     "reproduce", "demo"])
@SETTINGS
@given(data=st.data())
def test_bad_option_is_refused_naming_it(command: str, folder: Path, data: Any) -> None:
    base, options = _commands(folder)[command]
    option = data.draw(st.sampled_from(sorted(options)), label="option")
    kind, extra = options[option]
    value = data.draw(_strategy(kind, folder), label="value")
    # the option's own value is checked first, before any other: the one line names it
    refused(_set([*base, *extra], option, value), [option], folder)


# ------------------------------------------------------------------ fixed bad cases
def _cases(d: Path) -> list[tuple[list[str], list[str]]]:
    """(argv, names one of which the error line holds) for bad files and options whose
    refusal is not generated by kind."""
    f = {p.name: str(p) for p in d.iterdir()}
    study = ["study", "--grid", "tiny", "--out", str(d / "study"), "--workers", "1",
             "--no-progress", "--no-analysis"]
    ev = ["evaluate"]
    return [
        # files: a repeated header, numbers that are not plain decimals, dates, lists
        *[([*ev, f[n]], [n]) for n in (
            "dup.csv", "under.csv", "fullwidth.csv", "hex.csv", "dates.csv", "empty.csv",
            "header-only.csv", "three.txt", "gz.txt", "ts.parquet", "tslabel.parquet",
            "duration.parquet", "list.parquet", "listlabel.parquet", "struct.parquet",
            "text.parquet")],
        ([*ev, f["dup.csv"], "--score-col", "p"], ["dup.csv"]),
        ([*ev, f["wunder.csv"], "--weight-col", "w"], ["wunder.csv"]),
        # a Parquet folder whose second part lacks the score / the weight column
        ([*ev, f["parts"]], ["b.parquet"]),
        ([*ev, f["partsw"], "--weight-col", "w"], ["b.parquet"]),
        ([*ev, f["parts"], "--label-col", "y", "--score-col", "p", "--scheduler",
          "tcp://127.0.0.1:1"], ["b.parquet", "Dask scheduler"]),
        ([*ev, f["multidup.csv"], "--proba-cols", "c0,c1,c2"], ["multidup.csv"]),
        ([*ev, str(d / "nosuch.csv")], ["nosuch.csv"]),
        ([*ev, f["adir"], "--format", "csv"], ["adir"]),
        ([*ev, f["two.csv"], "--score-col", "nosuch"], ["nosuch"]),
        ([*ev, f["two.csv"], "--score-col", ""], ["--score-col"]),
        ([*ev, f["two.csv"], "--label-col", ""], ["--label-col"]),
        ([*ev, f["two.csv"], "--scheduler", ""], ["--scheduler"]),
        ([*ev, f["preds.txt"], "--pos-label", "1_0"], ["pos_label", "--pos-label"]),
        ([*ev, f["preds.txt"], "--pos-label", ""], ["--pos-label"]),
        ([*ev, f["preds.txt"], "--threshold", "nan"], ["--threshold"]),
        ([*ev, "--counts", "1_0", "1", "1", "1"], ["--counts"]),
        ([*ev, "--counts", "\uff11", "1", "1", "1"], ["--counts"]),
        ([*ev, f["preds.txt"], "--measures", "nosuch"], ["nosuch"]),
        ([*ev, f["preds.txt"], "--format", "xls"], ["--format"]),
        (["versus", f["dup.csv"], "--score-col", "p", "--score-col", "y", "--ci", "none"],
         ["dup.csv", "'y'"]),
        (["versus", f["two.csv"], "--score-col", "a", "--score-col", "a"], ["--score-col"]),
        (["ranks", f["ranksdup.csv"]], ["ranksdup.csv"]),
        (["ranks", f["ranks-empty.csv"]], ["ranks-empty.csv"]),
        (["ranks", f["adir"]], ["adir"]),
        (["ranks", str(d / "nosuch.csv")], ["nosuch.csv"]),
        (["ranks", f["ranks.csv"], "--decimals", "-1"], ["--decimals"]),
        (["ranks", f["ranks.csv"], "--decimals", "100000"], ["--decimals"]),
        (["ranks", f["ranks.csv"], "--bayes", "--rope", "-1"], ["--rope"]),
        (["ranks", f["ranks.csv"], "--bayes"], ["--rope"]),
        (["compare-measures", "auc", "acc", "--n", "10", "--pos", "20"], ["pos"]),
        (["compare-measures", "nosuch", "acc", "--n", "10", "--pos", "5"], ["nosuch"]),
        (["measures", "--kind", "x"], ["--kind"]),
        # studies: a file too small, a --target that applies to nothing, a --pos-label
        # that is no class, a repeated target column, a grid or problem that is unknown
        ([*study, "--problems", f["tiny.csv"], "--target", "t"], ["tiny"]),
        ([*study, "--problems", "sonar", "--target", "nosuch"], ["--target"]),
        ([*study, "--problems", "sonar", "--pos-label", "nosuch"], ["--pos-label"]),
        ([*study, "--problems", "letter.p1", "--pos-label", "A"], ["--pos-label"]),
        ([*study, "--problems", f["two.csv"], "--target", "nosuch"], ["--target"]),
        ([*study, "--problems", f["problem-dup.csv"], "--target", "t"], ["problem-dup.csv"]),
        ([*study, "--problems", ","], ["--problems"]),
        ([*study, "--problems", "nosuch"], ["nosuch"]),
        ([*study, "--problems", "sonar", "--grid", "huge"], ["--grid"]),
        ([*study, "--problems", "sonar", "--scheduler", ""], ["--scheduler"]),
        (["reproduce", "nosuch", "--out", str(d / "repro")], ["nosuch"]),
        (["reproduce", "sokolova2006", "--quick", "--full"], ["--quick"]),
    ]


def test_bad_files_and_options_are_refused_naming_them(folder: Path) -> None:
    for argv, names in _cases(folder):
        refused(argv, names, folder)


# ------------------------------------------------------------------ the API of io and lab
FLAG = st.one_of(st.sampled_from(["no", "yes", "False", "", None, 2.0, 0, 1, [True]]))
INT = st.one_of(st.floats().filter(lambda v: not float(v).is_integer()),
                st.sampled_from([True, "3", None, math.nan, b"1"]))
SEED = st.one_of(st.integers(max_value=-1), st.integers(2**63, 2**70),
                 st.sampled_from(["x", 1.5, True, None, "0"]))
COLUMN = st.sampled_from([1, b"y", ["y"], "", True])
PATH = st.sampled_from([None, 1, b"p", ""])


def _io_entries(d: Path) -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    from measurelab import io as mlio
    from measurelab.io import distributed as dist

    two, multi, txt = d / "two.csv", d / "multi.csv", d / "preds.txt"
    size = st.one_of(INT, st.integers(-10**6, 0), st.integers(2**31, 2**40))
    cols = {"label_col": COLUMN, "weight_col": COLUMN, "chunk_rows": size}
    return [
        ("read_chunks", lambda **o: mlio.read_chunks(**{"source": two, "score_col": "a",
                                                        **o}),
         {**cols, "score_col": COLUMN, "source": PATH,
          "fmt": st.sampled_from(["xls", None, 1, ""])}),
        ("read_score_table", lambda **o: mlio.read_score_table(
            **{"source": txt, **o}), {"progress": FLAG, "chunk_rows": size, "source": PATH}),
        ("evaluate_file", lambda **o: mlio.evaluate_file(**{"source": txt, **o}),
         {"inclusive": FLAG, "progress": FLAG, "chunk_rows": size,
          "threshold": st.sampled_from(["x", None, math.nan, [0.5]])}),
        ("read_multi_stats", lambda **o: mlio.read_multi_stats(
            **{"source": multi, "proba_cols": ["lr_0", "lr_1", "lr_2"], **o}),
         {**cols, "proba_cols": st.sampled_from(["lr_0", None, [1, 2], ["a", "a"], [""]]),
          "classes": st.sampled_from(["abc", [1, 2, 3], 5])}),
        ("read_multi_models", lambda **o: mlio.read_multi_models(
            **{"source": multi, "groups": [(None, ["lr_0", "lr_1", "lr_2"])], **o}),
         {**cols, "groups": st.sampled_from(["lr", None, [("a",)], [(1, ["a"])]])}),
        ("evaluate_parquet", lambda **o: dist.evaluate_parquet(
            **{"path": d / "partsw", "scheduler": None, "label_col": "y", "score_col": "p",
               **o}),
         {"inclusive": FLAG, "path": PATH, "label_col": st.sampled_from([None, 1, ""]),
          "scheduler": st.sampled_from(["", 5, b"tcp://x"])}),
        ("compare_parquet", lambda **o: dist.compare_parquet(
            **{"path": d / "partsw", "scheduler": None, "label_col": "y",
               "score_cols": ["p"], **o}),
         {"path": PATH, "label_col": st.sampled_from([1, ""]),
          "weight_col": st.sampled_from([1, ""]),
          "score_cols": st.sampled_from(["p", None, [1], ["p", "p"], []]),
          "scheduler": st.sampled_from(["", 5, b"tcp://x"]), "inclusive": FLAG}),
        ("connect", lambda **o: dist.connect(**{"address": "tcp://127.0.0.1:1", **o}),
         {"address": st.sampled_from(["", None, 5]),
          "timeout": st.sampled_from([0, -1, math.nan, math.inf, "5", None])}),
    ]


def _lab_entries(d: Path) -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    from measurelab.lab import experiments
    from measurelab.lab.learn import (
        MLP,
        ImprovementStop,
        MonteCarloPrototypeSelector,
        cv_splits,
        improved,
        run_folds,
        train_monitored,
    )
    from measurelab.lab.preprocess import Preprocessor
    from measurelab.lab.report.page import Report
    from measurelab.lab.study import run_study

    rng = np.random.default_rng(0)
    X = rng.random((30, 2))
    y = (X[:, 0] > 0.5).astype(int)
    out_folder = st.one_of(PATH, _out_folders(d))
    size = st.one_of(INT, st.integers(-10**6, 0))
    return [
        ("run_study", lambda **o: run_study(**{"problems": ["sonar"], "out": d / "api-study",
                                               "grid_name": "tiny", "workers": 1,
                                               "progress": False, **o}),
         {"problems": st.sampled_from(["sonar", [], [""], [1], None]), "out": out_folder,
          "grid_name": st.sampled_from(["huge", None, 1, ""]), "seed": SEED,
          "n_train": size, "n_valid": size, "n_test": size, "workers": size,
          "progress": FLAG, "target": COLUMN, "scheduler": st.sampled_from(["", 5])}),
        ("experiments.get(...)", lambda **o: experiments.get("sokolova2006")(
            **{"out": d / "api-repro", **o}),
         {"out": st.one_of(st.sampled_from([1, b"p", ""]), _out_folders(d)),
          "quick": FLAG, "full": FLAG, "progress": FLAG}),
        ("Report.write", lambda **o: Report("r", "R").write(**o),
         {"out": st.one_of(st.sampled_from([None, 1, b"p", ""]), _out_folders(d))}),
        ("cv_splits", lambda **o: cv_splits(**{"y": y, **o}),
         {"k": st.one_of(INT, st.integers(-5, 1), st.integers(31, 10**6)),
          "repeats": size, "seed": SEED, "stratified": FLAG}),
        ("run_folds", lambda **o: run_folds(**{"fn": lambda s: {}, "splits": [], **o}),
         {"progress": FLAG, "key": st.sampled_from(["", None, 1]),
          "fn": st.sampled_from([None, 1, "f"])}),
        ("MLP", lambda **o: MLP(**{"n_in": 2, "n_hidden": 3, "n_out": 1, **o}),
         {"n_in": size, "n_hidden": st.one_of(size, st.just(10**9)), "n_out": size,
          "learning_rate": st.sampled_from(["x", -1, math.nan, None]),
          "momentum": st.sampled_from(["x", -1, 2, math.nan]), "batch_size": size,
          "random_state": SEED}),
        ("train_monitored", lambda **o: train_monitored(
            **{"X": X, "y": y, "monitors": ["acc"], "max_epochs": 10, "look_ahead": 5, **o}),
         {"look_ahead": size, "max_epochs": st.one_of(INT, st.just(10**12)),
          "epsilon": st.sampled_from(["x", -0.1, math.nan]),
          "validation_fraction": st.sampled_from([-0.1, 1.5, "x"]),
          "random_state": SEED, "n_classes": st.sampled_from([1, "2", 1.5])}),
        ("MonteCarloPrototypeSelector.fit", lambda **o: MonteCarloPrototypeSelector(
            **{"n_samples": 5, **o}).fit(X, y),
         {"n_samples": st.one_of(size, st.just(10**9)),
          "n_prototypes": st.one_of(INT, st.integers(-5, 0), st.integers(31, 100)),
          "stratified": FLAG, "random_state": SEED}),
        ("ImprovementStop", lambda **o: ImprovementStop(**o),
         {"epsilon": st.sampled_from(["x", -1, math.nan, None]),
          "rule": st.sampled_from(["x", None, 1]), "signed": FLAG}),
        ("improved", lambda **o: improved(**{"old": 0.5, "new": 0.6, **o}),
         {"epsilon": st.sampled_from(["x", -1, math.nan]), "signed": FLAG}),
        ("Preprocessor", lambda **o: Preprocessor(**o),
         {"onehot_value": st.sampled_from(["x", 0, -1, math.nan, None]), "clip": FLAG,
          "nominal": st.sampled_from(["a", 5])}),
    ]


#: parameters a message names by the word the command line and the papers use
ALIASES = {"grid_name": ["grid="], "fmt": ["format"]}


@pytest.mark.parametrize("group", ["io", "lab"])
@SETTINGS
@given(data=st.data())
def test_io_and_lab_entry_points_refuse_bad_parameters(group: str, folder: Path,
                                                       data: Any) -> None:
    entries = (_io_entries if group == "io" else _lab_entries)(folder)
    name, call, params = data.draw(st.sampled_from(entries), label="entry")
    param = data.draw(st.sampled_from(sorted(params)), label=f"{name} parameter")
    value = data.draw(params[param], label="value")
    before = {str(p) for p in folder.rglob("*")}
    with contextlib.chdir(folder):
        assert_refused(lambda: call(**{param: value}), [param, *ALIASES.get(param, [])])
    assert {str(p) for p in folder.rglob("*")} == before, "files were written"


# ------------------------------------------------------------------ one rule for numbers
@pytest.mark.parametrize("text", ["1_0", "\uff11", "0x1p-1", "1,0", "٣"])
def test_the_readers_take_numbers_only_in_plain_decimal(text: str, folder: Path) -> None:
    """The one rule of the files: a score, a weight or a probability that is not plain
    ASCII decimal notation is refused naming its row, whatever the route."""
    import io

    from measurelab import io as mlio
    from measurelab._util.validation import parse_number_array
    from measurelab.exceptions import MeasurelabError

    _floats, bad = parse_number_array(np.array(["0.5", text, "1e-3"], dtype=object))
    assert bad == 1
    field = f'"{text}"'  # quoted: a comma stays inside the field
    for data, kw in ((f"y,p\n1,0.5\n0,{field}\n", {}),
                     (f"y,p,w\n1,0.5,1\n0,0.2,{field}\n", {"weight_col": "w"})):
        with pytest.raises(MeasurelabError, match="row 2"):
            mlio.read_score_table(io.BytesIO(data.encode()), fmt="csv", **kw)
    with pytest.raises(MeasurelabError, match="row 2"):
        mlio.read_multi_stats(io.BytesIO(f"y,a,b,c\na,.2,.3,.5\nb,{field},.5,.5\n".encode()),
                              proba_cols=["a", "b", "c"])
    with pytest.raises(MeasurelabError, match="line 2"):
        mlio.read_score_table(io.BytesIO(f"1 0.5\n0 {text}\n".encode()), fmt="perf")
