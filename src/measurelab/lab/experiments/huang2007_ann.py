"""Huang & Ling (2007), *Constructing new and better evaluation measures*, Sec. 5,
Tables 7–8: back-propagation networks stopped by monitoring AUC:acc, AUC or acc.

One network per fold is trained by back-propagation on squared error
(:func:`measurelab.lab.learn.mlp.train_monitored`); the three stopping rules (f = AUC:acc,
AUC, acc; N = 100, ε = 0.01; f measured on the training data, as the paper implies) are
applied to the same weight trajectory, so ANN_AUC:acc, ANN_AUC and ANN_acc share their
initial weights and differ only in where they stop. Each is evaluated on the test fold by
acc, AUC (Hand & Till's M on multi-class sets) and AUC:acc (shown, as in the paper, as
AUC + acc/100; the t-test on AUC:acc uses that display number per fold). 5-fold CV,
paired t-test at 95 % per data set, win/draw/loss counts (Table 8).

Settings the paper leaves open, and our choice (see :mod:`measurelab.lab.learn.mlp`):
one hidden layer of (attributes + outputs)/2 sigmoid units, learning rate 0.3, momentum
0.2, mini-batches of 10, initial weights U[−0.05, 0.05], a cap of 3000 epochs (2000 in
quick mode); "improved by more than ε" for AUC:acc is lexicographic
(:mod:`measurelab.lab.learn.stopping`). Data: ``car`` is UCI Car Evaluation (1728 rows, 4
classes; the paper's "cars" has 700 rows and 2 classes, source unknown); ``pima`` keeps
the 392 rows without a zero in plas/pres/skin/insu/mass (the paper's 392-row version);
``diabetes`` is the full 768-row file.

Verdicts follow the rules of :mod:`measurelab.lab.experiments._verdict` (win/draw/loss of the
per-set t-test, judged by the sign test). :func:`sensitivity` applies every reading of
the stopping rule (:data:`READINGS`) × monitoring data × learning rate × N × ε to one
recorded trajectory per fold (:mod:`measurelab.lab.learn.trajectory`); ``run`` adds its small
grid by default and the full grid with ``full=True`` (:data:`SENS_GRID`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from measurelab.lab.report.page import Report, comparison

MODELS = ("auc:acc", "auc", "acc")
LABEL = {"auc:acc": "ANN_AUC:acc", "auc": "ANN_AUC", "acc": "ANN_acc"}
MEASURES = ("acc", "auc", "auc:acc")

#: Table 6 name → shipped data set
DATASETS = {
    "anneal": "anneal", "autos": "autos", "breast": "breast-cancer", "cars": "car",
    "colic": "colic", "credit-a": "credit-a", "diabetes": "diabetes", "eco": "ecoli",
    "Glass": "glass", "heart-c": "heart-c", "hepatitis": "hepatitis",
    "ionosph.": "ionosphere", "primary-tumor": "primary-tumor", "pima": "pima",
    "segment": "segment", "sonar": "sonar", "soybean": "soybean", "splice": "splice",
    "vehicle": "vehicle", "vote": "vote",
}
QUICK_DATASETS = ("breast", "hepatitis", "sonar", "heart-c", "Glass", "vote", "ionosph.",
                  "eco")

#: Table 7: (acc, AUC, AUC:acc) per data set and model, as printed
PAPER_TABLE7: dict[str, dict[str, tuple[float, float, float]]] = {
    "anneal": {"auc:acc": (0.9631, 0.9462, 0.9558), "auc": (0.9434, 0.9308, 0.9402),
               "acc": (0.9376, 0.9055, 0.9148)},
    "autos": {"auc:acc": (0.7880, 0.9217, 0.9296), "auc": (0.7843, 0.8943, 0.9021),
              "acc": (0.7735, 0.8809, 0.8886)},
    "breast": {"auc:acc": (0.8432, 0.6531, 0.6615), "auc": (0.8446, 0.6553, 0.6637),
               "acc": (0.8447, 0.6527, 0.6611)},
    "cars": {"auc:acc": (0.8686, 0.9231, 0.9318), "auc": (0.8643, 0.9214, 0.9301),
             "acc": (0.7829, 0.8782, 0.8860)},
    "colic": {"auc:acc": (0.8239, 0.8543, 0.8625), "auc": (0.7821, 0.8187, 0.8265),
              "acc": (0.8057, 0.8087, 0.8168)},
    "credit-a": {"auc:acc": (0.7058, 0.6518, 0.6589), "auc": (0.6936, 0.6245, 0.6314),
                 "acc": (0.7058, 0.6520, 0.6591)},
    "diabetes": {"auc:acc": (0.7509, 0.8071, 0.8146), "auc": (0.7608, 0.8084, 0.8160),
                 "acc": (0.7650, 0.7936, 0.8013)},
    "eco": {"auc:acc": (0.9488, 0.9390, 0.9485), "auc": (0.8497, 0.9436, 0.9521),
            "acc": (0.9548, 0.9458, 0.9553)},
    "Glass": {"auc:acc": (0.5865, 0.7908, 0.7967), "auc": (0.5603, 0.7752, 0.7808),
              "acc": (0.5298, 0.7317, 0.7369)},
    "heart-c": {"auc:acc": (0.7778, 0.8201, 0.8279), "auc": (0.7854, 0.8163, 0.8242),
                "acc": (0.7778, 0.8098, 0.8176)},
    "hepatitis": {"auc:acc": (0.8305, 0.8050, 0.8133), "auc": (0.8305, 0.8050, 0.8133),
                  "acc": (0.8305, 0.7503, 0.7586)},
    "ionosph.": {"auc:acc": (0.9072, 0.9538, 0.9629), "auc": (0.9153, 0.9622, 0.9713),
                 "acc": (0.9047, 0.9477, 0.9567)},
    "primary-tumor": {"auc:acc": (0.4576, 0.7751, 0.7797), "auc": (0.4637, 0.7803, 0.7849),
                      "acc": (0.4505, 0.7492, 0.7537)},
    "pima": {"auc:acc": (0.7122, 0.7311, 0.7382), "auc": (0.7009, 0.7038, 0.7108),
             "acc": (0.6233, 0.6621, 0.6683)},
    "segment": {"auc:acc": (0.9246, 0.9927, 1.00), "auc": (0.9063, 0.9910, 1.00),
                "acc": (0.8806, 0.9839, 0.9927)},
    "sonar": {"auc:acc": (0.7419, 0.8532, 0.8606), "auc": (0.7203, 0.8537, 0.8609),
              "acc": (0.6958, 0.8710, 0.8779)},
    "soybean": {"auc:acc": (0.9280, 0.9923, 1.00), "auc": (0.8872, 0.9710, 0.9799),
                "acc": (0.8761, 0.9229, 0.9317)},
    "splice": {"auc:acc": (0.9546, 0.9887, 0.9982), "auc": (0.9533, 0.9612, 0.9707),
               "acc": (0.9341, 0.9253, 0.9346)},
    "vehicle": {"auc:acc": (0.6804, 0.8735, 0.8803), "auc": (0.7019, 0.8806, 0.8876),
                "acc": (0.6673, 0.8299, 0.8366)},
    "vote": {"auc:acc": (0.7627, 0.6802, 0.6878), "auc": (0.7586, 0.6588, 0.6664),
             "acc": (0.7456, 0.6324, 0.6399)},
}
#: Table 7's printed "Average" rows
PAPER_TABLE7_AVERAGE = {"auc:acc": (0.7978, 0.8476, 0.8556), "auc": (0.7853, 0.8378, 0.8457),
                        "acc": (0.7743, 0.8167, 0.8244)}
#: Table 8: win-draw-loss of row model over column model, per evaluation measure
PAPER_TABLE8 = {
    "auc:acc": {("auc:acc", "auc"): "8-11-1", ("auc:acc", "acc"): "12-8-0",
                ("auc", "acc"): "10-9-1"},
    "auc": {("auc:acc", "auc"): "8-11-1", ("auc:acc", "acc"): "12-8-0",
            ("auc", "acc"): "10-9-1"},
    "acc": {("auc:acc", "auc"): "8-12-0", ("auc:acc", "acc"): "11-8-1",
            ("auc", "acc"): "11-8-1"},
}
SEED = 2007


def load(name: str) -> tuple[pd.DataFrame, np.ndarray, int]:
    """Features, class codes and number of classes of a shipped data set as used here
    (``pima``: the 392 complete rows).

    Examples
    --------
    >>> X, y, k = load("pima")
    >>> X.shape, k
    ((392, 8), 2)
    """
    from measurelab.io import datasets
    from measurelab.lab.preprocess import encode_labels

    X, y = datasets.load(name)
    if name == "pima":
        keep = (X[["plas", "pres", "skin", "insu", "mass"]] != 0).all(axis=1).to_numpy()
        X, y = X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
    codes, labels = encode_labels(y)
    return X, codes, int(labels.size)


def _fold_fn(X: pd.DataFrame, y: np.ndarray, k: int, options: dict[str, Any]):
    from measurelab.lab.learn.mlp import MLP, measure_monitor, scores_from_outputs, train_monitored
    from measurelab.lab.preprocess import Preprocessor

    evals = {m: measure_monitor(m, n_classes=k) for m in ("acc", "auc")}

    def fn(split: Any) -> dict[str, Any]:
        prep = Preprocessor().fit(X.iloc[split.train])
        Xtr, Xte = prep.transform(X.iloc[split.train]), prep.transform(X.iloc[split.test])
        seed = SEED + 100 * split.repeat + split.fold
        res = train_monitored(Xtr, y[split.train], list(MODELS), n_classes=k,
                              random_state=seed, **options)
        out: dict[str, Any] = {}
        for model in MODELS:
            w = res.weights[model]
            net = MLP(w[0].shape[0] - 1, w[0].shape[1], w[1].shape[1])
            net.set_weights(w)
            s = scores_from_outputs(net.forward(Xte))
            a = float(evals["acc"](y[split.test], s))
            u = float(evals["auc"](y[split.test], s))
            out[f"{model}|acc"] = a
            out[f"{model}|auc"] = u
            out[f"{model}|auc:acc"] = u + a / 100.0
            out[f"{model}|stop_epoch"] = res.stop_epoch[model]
            out[f"{model}|hit_cap"] = bool(res.hit_max_epochs[model])
        return out

    return fn


def run(out: str | Path, *, quick: bool = False, full: bool = False, progress: bool = True,
        datasets: list[str] | None = None, k: int = 5, repeats: int = 1,
        readings: dict[str, Any] | Literal["auto"] | None = "auto", **options: Any) -> Report:
    """Huang & Ling Tables 7–8 with our networks; writes Markdown, CSV and a figure.

    ``quick=True``: eight small data sets, epochs capped at 2000. ``options`` go to
    :func:`~measurelab.lab.learn.mlp.train_monitored` (``monitor_on``, ``rule``,
    ``learning_rate``, ...). Per-fold results are stored under ``out/folds`` (resume).
    ``readings``: the grid of the stopping-rule sensitivity study (:func:`sensitivity`);
    ``"auto"`` = :data:`SENS_GRID` ``"full"`` with ``full=True``, else ``"quick"``;
    None skips it.
    """
    from measurelab.inference.ranks.significance import paired_ttest, win_draw_loss
    from measurelab.lab.learn.cv import cv_splits, run_folds

    out = Path(out)
    names = datasets or list(QUICK_DATASETS if quick else DATASETS)
    options = {"max_epochs": 2000 if quick else 3000, **options}
    tag = "-".join(f"{a}{b}" for a, b in sorted(options.items()))
    per: dict[str, pd.DataFrame] = {}
    from measurelab.progress import progress_iter

    for name in progress_iter(names, "huang2007-ann data sets", progress, unit="data set"):
        X, y, kc = load(DATASETS[name])
        splits = cv_splits(y, k=k, repeats=repeats, seed=SEED)
        per[name] = pd.DataFrame(run_folds(
            _fold_fn(X, y, kc, options), splits, store=out / "folds",
            key=f"huang2007_ann/{DATASETS[name]}-{tag}", progress=progress, desc=name))

    rows = []
    for name, df in per.items():
        for model in MODELS:
            for j, meas in enumerate(MEASURES):
                rows.append({"data set": name, "model": LABEL[model], "measure": meas,
                             "paper": PAPER_TABLE7[name][model][j],
                             "ours": float(df[f"{model}|{meas}"].mean())})
    table7 = comparison(rows, index=["data set", "model", "measure"])
    wide = table7["ours"].unstack("measure")[list(MEASURES)]
    avg_rows = []
    for model in MODELS:
        for j, meas in enumerate(MEASURES):
            avg_rows.append({"model": LABEL[model], "measure": meas,
                             "paper (20 sets)": PAPER_TABLE7_AVERAGE[model][j],
                             "paper (these sets)": float(np.mean(
                                 [PAPER_TABLE7[n][model][j] for n in names])),
                             "ours": float(np.mean([per[n][f"{model}|{meas}"].mean()
                                                    for n in names]))})
    averages = pd.DataFrame(avg_rows).set_index(["model", "measure"])

    t8_rows, verdict_rows = [], []
    for meas in MEASURES:
        for a, b in (("auc:acc", "auc"), ("auc:acc", "acc"), ("auc", "acc")):
            pair_verdicts = []
            for name, df in per.items():
                r = paired_ttest(df[f"{a}|{meas}"], df[f"{b}|{meas}"])
                pair_verdicts.append(r.verdict)
                verdict_rows.append({"data set": name, "measure": meas,
                                     "pair": f"{LABEL[a]} vs {LABEL[b]}",
                                     "mean diff": r.mean_diff, "p": r.pvalue,
                                     "verdict": r.verdict})
            w, d, lo = win_draw_loss(pair_verdicts)
            t8_rows.append({"measure": meas, "row vs column": f"{LABEL[a]} vs {LABEL[b]}",
                            "paper (20 sets)": PAPER_TABLE8[meas][(a, b)],
                            "ours": f"{w}-{d}-{lo}"})
    table8 = pd.DataFrame(t8_rows).set_index(["measure", "row vs column"])
    ttests = pd.DataFrame(verdict_rows).set_index(["data set", "measure", "pair"])

    stops = []
    for name, df in per.items():
        row: dict[str, Any] = {"data set": name, "folds": len(df)}
        for model in MODELS:
            row[f"stop epoch {LABEL[model]}"] = float(df[f"{model}|stop_epoch"].mean())
        row["folds AUC:acc ≠ AUC stop"] = int(
            (df["auc:acc|stop_epoch"] != df["auc|stop_epoch"]).sum())
        row["folds at cap"] = int(df[[f"{m}|hit_cap" for m in MODELS]].any(axis=1).sum())
        stops.append(row)
    stops_df = pd.DataFrame(stops).set_index("data set")

    rep = Report("huang2007-ann", "Huang & Ling (2007) Tables 7–8: networks stopped by "
                 "AUC:acc, AUC and acc")
    rep.add_text(
        f"Setup: {len(names)} data sets, {repeats} × {k}-fold stratified CV (seed {SEED}); "
        f"one network per fold, three stopping rules (N = {options.get('look_ahead', 100)}, "
        f"ε = {options.get('epsilon', 0.01)}, f on the "
        f"{options.get('monitor_on', 'train')} data, AUC:acc improvement "
        f"{options.get('rule', 'lexicographic')}); options {options}."
    )
    from measurelab.lab.experiments._verdict import all_of, count_directional

    n_diff = int(stops_df["folds AUC:acc ≠ AUC stop"].sum())
    n_folds = int(stops_df["folds"].sum())
    parts, vrows = [], []
    for meas in MEASURES:
        for a, b in PAIRS:
            pair = f"{LABEL[a]} vs {LABEL[b]}"
            w, d, lo = (int(x) for x in table8.loc[(meas, pair), "ours"].split("-"))
            pw, pd_, pl = (int(x) for x in PAPER_TABLE8[meas][(a, b)].split("-"))
            v = count_directional(w, d, lo, what=f"{pair} by {meas}")
            parts.append(v)
            vrows.append({"measure": meas, "claim": f"{LABEL[a]} better than {LABEL[b]}",
                          "paper": PAPER_TABLE8[meas][(a, b)],
                          "paper by the rule": count_directional(pw, pd_, pl).label,
                          "ours": f"{w}-{d}-{lo}", "sign test p": v.p, "verdict": v.label})
    verdicts = pd.DataFrame(vrows).set_index(["measure", "claim"])
    overall = all_of(parts, what="ANN_AUC:acc > ANN_AUC > ANN_acc on acc, AUC and AUC:acc")
    stop_means = ", ".join(f"{LABEL[m]} {stops_df[f'stop epoch {LABEL[m]}'].mean():.0f}"
                           for m in MODELS)
    rep.add_text(
        "Verdicts (the paper's test: per data set paired t-test at 95 %, counted as "
        "win-draw-loss; table 'verdicts'). Rule for each comparison: "
        f"{parts[0].rule}. The whole claim: {overall}. Per comparison: "
        + "; ".join(f"{r.Index[1]} by {r.Index[0]}: {r.ours} → {r.verdict}"
                    for r in verdicts.itertuples())
        + f". Mean test acc {averages.loc[(LABEL['auc:acc'], 'acc'), 'ours']:.4f} / "
        f"{averages.loc[(LABEL['auc'], 'acc'), 'ours']:.4f} / "
        f"{averages.loc[(LABEL['acc'], 'acc'), 'ours']:.4f} and mean test AUC "
        f"{averages.loc[(LABEL['auc:acc'], 'auc'), 'ours']:.4f} / "
        f"{averages.loc[(LABEL['auc'], 'auc'), 'ours']:.4f} / "
        f"{averages.loc[(LABEL['acc'], 'auc'), 'ours']:.4f} (AUC:acc / AUC / acc). "
        f"Mean stopping epoch: {stop_means}. AUC:acc and AUC stopped at a different epoch "
        f"in {n_diff} of {n_folds} folds under the main reading "
        f"({options.get('rule', 'lexicographic')}, f on the "
        f"{options.get('monitor_on', 'train')} data)."
    )
    rep.add_table("table7", table7, "Table 7: test acc, AUC, AUC:acc (paper vs ours)")
    rep.add_table("table7_wide", wide, "Ours, one row per data set and model")
    rep.add_table("averages", averages, "Averages over data sets")
    rep.add_table("table8", table8, "Table 8: win-draw-loss (paired t-test, 95 %)")
    rep.add_table("ttests", ttests, "Per data set t-tests")
    rep.add_table("verdicts", verdicts, "Verdict per comparison (rule in the text)")
    if len(names) >= 2:
        from measurelab.lab.experiments._ranks import add_demsar

        add_demsar(rep, {meas: pd.DataFrame({LABEL[m]: [per[n][f"{m}|{meas}"].mean()
                                                         for n in names] for m in MODELS},
                                            index=names) for meas in ("acc", "auc")})
    rep.add_table("stopping", stops_df, "Where the three rules stopped (mean epoch)")
    if readings == "auto":
        readings = SENS_GRID["full" if full else "quick"]
    if readings is not None:
        sens = sensitivity(out / "readings", progress=progress, grid=readings)
        _add_sensitivity(rep, sens, readings)
    rep.add_figure("table7", _figure(table7, names))
    rep.meta.update({"seed": SEED, "k": k, "repeats": repeats, "options": options,
                     "datasets": {n: DATASETS[n] for n in names}, "quick": quick})
    rep.write(out)
    return rep


#: readings of "the difference between the two f values is larger than ε" for a
#: two-level f: slug -> (rule of :func:`measurelab.lab.learn.stopping.improved`, signed, text)
READINGS: dict[str, tuple[str, bool, str]] = {
    "lex": ("lexicographic", True,
            "lexicographic: AUC up by > ε, or AUC exactly tied and acc up by > ε"),
    "display": ("display", True, "display number AUC + acc/100 up by > ε"),
    "tolerant": ("tolerant", True,
                 "ε-tolerant lexicographic: AUC up by > ε, or |ΔAUC| ≤ ε and acc up by > ε"),
    "lex-abs": ("lexicographic", False, "lexicographic, absolute differences"),
    "display-abs": ("display", False, "display number, absolute difference"),
    "tolerant-abs": ("tolerant", False, "ε-tolerant lexicographic, absolute differences"),
}
#: the grid of the sensitivity study: full (``--full``) and the small quick version
SENS_GRID: dict[str, dict[str, Any]] = {
    "full": {"datasets": ("breast", "hepatitis", "sonar", "heart-c", "Glass", "vote",
                          "ionosph.", "eco", "colic", "credit-a", "pima", "autos"),
             "monitor_on": ("train", "validation"), "learning_rate": (0.3, 0.1),
             "N": (25, 50, 100, 200), "epsilon": (0.01, 0.001), "every": 25,
             "max_epochs": 3000},
    "quick": {"datasets": ("hepatitis", "sonar", "breast"),
              "monitor_on": ("train", "validation"), "learning_rate": (0.3,),
              "N": (50, 100), "epsilon": (0.01,), "every": 50, "max_epochs": 1000},
}
PAIRS = (("auc:acc", "auc"), ("auc:acc", "acc"), ("auc", "acc"))


def _sequences(monitor: dict[str, list[float]]) -> dict[str, list[Any]]:
    """The three monitored sequences f = AUC:acc (two-level), AUC, acc."""
    from measurelab.measures.twolevel import TwoLevelValue

    return {"auc:acc": [TwoLevelValue(a, b) for a, b in
                        zip(monitor["auc"], monitor["acc"], strict=True)],
            "auc": list(monitor["auc"]), "acc": list(monitor["acc"])}


def reading_stops(monitor: dict[str, list[float]], reading: str, *, step: int,
                  epsilon: float) -> dict[str, tuple[int, bool]]:
    """Where each of the three rules stops under one reading: model → (index of the kept
    weights in the record, still going at the end of the record).

    Examples
    --------
    >>> mon = {"auc": [0.5, 1.0, 1.0, 1.0], "acc": [0.5, 0.8, 0.9, 0.905]}
    >>> reading_stops(mon, "lex", step=1, epsilon=0.01)
    {'auc:acc': (2, False), 'auc': (1, False), 'acc': (2, False)}
    """
    from measurelab.lab.learn.trajectory import stop_index

    rule, signed, _ = READINGS[reading]
    return {m: stop_index(v, step=step, epsilon=epsilon, rule=rule, signed=signed)
            for m, v in _sequences(monitor).items()}


def _traj_fold_fn(X: pd.DataFrame, y: np.ndarray, k: int, grid: dict[str, Any]):
    from measurelab.lab.learn.trajectory import record_trajectory
    from measurelab.lab.preprocess import Preprocessor

    steps = [n // grid["every"] for n in grid["N"]]

    def done(traj: Any) -> bool:
        return all(not going for r in READINGS for st in steps for e in grid["epsilon"]
                   for _, going in reading_stops(traj.monitor, r, step=st,
                                                 epsilon=e).values())

    def fn(split: Any) -> dict[str, Any]:
        prep = Preprocessor().fit(X.iloc[split.train])
        Xtr, Xte = prep.transform(X.iloc[split.train]), prep.transform(X.iloc[split.test])
        seed = SEED + 100 * split.repeat + split.fold
        out: dict[str, Any] = {}
        for mon in grid["monitor_on"]:
            for lr in grid["learning_rate"]:
                t = record_trajectory(Xtr, y[split.train], Xte, y[split.test], n_classes=k,
                                      every=grid["every"], max_epochs=grid["max_epochs"],
                                      monitor_on=mon, learning_rate=lr, random_state=seed,
                                      done=done)
                out[f"{mon}|{lr}"] = {"epochs": t.epochs, "monitor": t.monitor,
                                      "test": t.test}
        return out

    return fn


def sensitivity(out: str | Path, *, quick: bool = True, progress: bool = True,
                grid: dict[str, Any] | None = None) -> dict[str, pd.DataFrame]:
    """The stopping rule's readings × where f is measured × learning rate × N × ε.

    One training trajectory per (fold, monitoring data, learning rate) is recorded
    (:func:`measurelab.lab.learn.trajectory.record_trajectory`, stored per fold under
    ``out/folds`` so a run resumes) and every reading and N is applied to it. Returns
    ``{"table": ..., "mechanism": ...}``: per configuration, how often AUC:acc and AUC
    stop at different epochs and the win/draw/loss tables (paired t-test per data set);
    and, per (monitoring data, learning rate, N, ε), what the AUC rule saw at its stop.
    """
    from measurelab.inference.ranks.significance import paired_ttest, win_draw_loss
    from measurelab.lab.experiments._verdict import count_directional
    from measurelab.lab.learn.cv import cv_splits, run_folds

    grid = grid or SENS_GRID["quick" if quick else "full"]
    out = Path(out)
    tag = (f"e{grid['every']}-x{grid['max_epochs']}-m{'+'.join(grid['monitor_on'])}-"
           f"lr{'+'.join(map(str, grid['learning_rate']))}-"
           f"N{'+'.join(map(str, grid['N']))}-eps{'+'.join(map(str, grid['epsilon']))}")
    folds: dict[str, list[dict[str, Any]]] = {}
    names = list(grid["datasets"])
    from measurelab.progress import progress_iter

    for name in progress_iter(names, "huang2007-ann stopping readings", progress,
                              unit="data set"):
        X, y, kc = load(DATASETS[name])
        splits = cv_splits(y, k=5, seed=SEED)
        folds[name] = run_folds(_traj_fold_fn(X, y, kc, grid), splits, store=out / "folds",
                                key=f"huang2007_ann_traj/{DATASETS[name]}-{tag}",
                                progress=progress, desc=name)
    rows, mech = [], []
    for mon in grid["monitor_on"]:
        for lr in grid["learning_rate"]:
            for n_look in grid["N"]:
                step = n_look // grid["every"]
                for eps in grid["epsilon"]:
                    mech.append(_mechanism(folds, f"{mon}|{lr}", step, eps,
                                           {"monitored on": mon, "learning rate": lr,
                                            "N": n_look, "ε": eps}))
                    for reading in READINGS:
                        rows.append(_config_row(folds, f"{mon}|{lr}", reading, step, eps,
                                                grid["every"], paired_ttest, win_draw_loss,
                                                count_directional,
                                                {"reading": reading, "monitored on": mon,
                                                 "learning rate": lr, "N": n_look,
                                                 "ε": eps}))
    idx = ["reading", "monitored on", "learning rate", "N", "ε"]
    return {"table": pd.DataFrame(rows).set_index(idx),
            "mechanism": pd.DataFrame(mech).set_index(idx[1:])}


def _config_row(folds: dict[str, list[dict[str, Any]]], key: str, reading: str, step: int,
                eps: float, every: int, paired_ttest: Any, win_draw_loss: Any,
                count_directional: Any, head: dict[str, Any]) -> dict[str, Any]:
    row = dict(head)
    n_diff = n_folds = n_cap = 0
    per_set: dict[str, dict[str, list[float]]] = {}
    epochs: dict[str, list[int]] = {m: [] for m in MODELS}
    for name, fl in folds.items():
        vals: dict[str, list[float]] = {f"{m}|{t}": [] for m in MODELS for t in ("acc", "auc")}
        for f in fl:
            t = f[key]
            stops = reading_stops(t["monitor"], reading, step=step, epsilon=eps)
            n_folds += 1
            n_diff += stops["auc:acc"][0] != stops["auc"][0]
            n_cap += any(going for _, going in stops.values())
            for m, (i, _) in stops.items():
                epochs[m].append(i * every)
                for tm in ("acc", "auc"):
                    vals[f"{m}|{tm}"].append(t["test"][tm][i])
        per_set[name] = vals
    row["folds"] = n_folds
    row["AUC:acc ≠ AUC stop"] = n_diff
    row["share ≠"] = n_diff / n_folds
    row["folds at cap"] = n_cap
    for m in MODELS:
        row[f"mean stop {LABEL[m]}"] = float(np.mean(epochs[m]))
    for tm in ("auc", "acc"):
        for a, b in PAIRS:
            verdicts = [paired_ttest(v[f"{a}|{tm}"], v[f"{b}|{tm}"]).verdict
                        for v in per_set.values()]
            w, d, lo = win_draw_loss(verdicts)
            row[f"{LABEL[a]} vs {LABEL[b]} by {tm}"] = f"{w}-{d}-{lo}"
            if (a, b) == ("auc:acc", "auc") and tm == "auc":
                row["verdict AUC:acc > AUC (by AUC)"] = count_directional(w, d, lo).label
        diffs = [np.mean(np.subtract(v[f"auc:acc|{tm}"], v[f"auc|{tm}"]))
                 for v in per_set.values()]
        row[f"mean test {tm} AUC:acc − AUC"] = float(np.mean(diffs))
    return row


def _mechanism(folds: dict[str, list[dict[str, Any]]], key: str, step: int, eps: float,
               head: dict[str, Any]) -> dict[str, Any]:
    """At the check where the (signed) AUC rule stops: how AUC and acc changed there —
    the quantities that decide whether each reading of AUC:acc can go on."""
    n = tie0 = tie_eps = acc_up = at_one = both0 = both_eps = 0
    for fl in folds.values():
        for f in fl:
            mon = f[key]["monitor"]
            i, going = reading_stops(mon, "lex", step=step, epsilon=eps)["auc"]
            if going:
                continue
            j = i + step  # the check that failed
            n += 1
            d_auc = mon["auc"][j] - mon["auc"][i]
            z, small = mon["auc"][j] == mon["auc"][i], abs(d_auc) <= eps
            up = mon["acc"][j] - mon["acc"][i] > eps
            tie0 += z
            tie_eps += small
            acc_up += up
            both0 += z and up
            both_eps += small and up
            at_one += mon["auc"][i] == 1.0
    row = dict(head)
    row["AUC stops (folds)"] = n
    row["ΔAUC exactly 0"] = tie0
    row["|ΔAUC| ≤ ε"] = tie_eps
    row["Δacc > ε"] = acc_up
    row["monitored AUC = 1 at stop"] = at_one
    row["ΔAUC = 0 and Δacc > ε"] = both0
    row["|ΔAUC| ≤ ε and Δacc > ε"] = both_eps
    return row


def _add_sensitivity(rep: Report, sens: dict[str, pd.DataFrame], grid: dict[str, Any]) -> None:
    """Summarize the stopping-rule study in the report (text computed from the tables)."""
    from measurelab.lab.experiments._verdict import HOLDS, IN_PART, Check, explain, sign_test_p

    tab, mech = sens["table"], sens["mechanism"]
    vcol = "verdict AUC:acc > AUC (by AUC)"
    wcol = "ANN_AUC:acc vs ANN_AUC by auc"
    main = ("train" if "train" in grid["monitor_on"] else grid["monitor_on"][0],
            0.3 if 0.3 in grid["learning_rate"] else grid["learning_rate"][0],
            100 if 100 in grid["N"] else grid["N"][-1],
            0.01 if 0.01 in grid["epsilon"] else grid["epsilon"][0])
    n_cfg = len(tab) // len(READINGS)
    per_reading = []
    for r in READINGS:
        sub = tab.xs(r, level="reading")
        wl = [tuple(int(x) for x in c.split("-")) for c in sub[wcol]]
        at = sub.loc[main]
        per_reading.append(
            f"{r}: stops differ in {sub['share ≠'].min():.0%}–{sub['share ≠'].max():.0%} of "
            f"folds; AUC:acc wins more than it loses in {sum(w > lo for w, _, lo in wl)} of "
            f"{len(wl)} settings, verdict 'holds' in {int((sub[vcol] == HOLDS).sum())}; at "
            f"the paper's setting {at[wcol]} ({at[vcol]}), mean stop "
            f"{at['mean stop ANN_AUC:acc']:.0f} vs {at['mean stop ANN_AUC']:.0f} epochs, "
            f"mean test AUC difference AUC:acc − AUC "
            f"{at['mean test auc AUC:acc − AUC']:+.4f}")
    holds = tab[tab[vcol] == HOLDS].index.tolist()
    part = tab[tab[vcol] == IN_PART].index.tolist()
    wl_all = tab[wcol].map(lambda c: int(c.split("-")[0]) - int(c.split("-")[2]))
    dir_cells = tab[wl_all > 0]
    dir_text = (
        "Readings with AUC:acc winning more often than losing (by AUC) in some setting: "
        + ", ".join(f"{r} ({n})" for r, n in
                    dir_cells.index.get_level_values("reading").value_counts().items())
        + f"; in those {len(dir_cells)} settings AUC:acc stops "
        f"{(dir_cells['mean stop ANN_AUC:acc'] - dir_cells['mean stop ANN_AUC']).mean():.0f} "
        "epochs later than AUC on average and its mean test AUC differs by "
        f"{dir_cells['mean test auc AUC:acc − AUC'].mean():+.4f} (over all settings of "
        f"those readings: {tab.loc[list(dict.fromkeys(dir_cells.index.get_level_values('reading')))]['mean test auc AUC:acc − AUC'].mean():+.4f}). "  # noqa: E501
        if len(dir_cells) else
        "No reading and setting gives AUC:acc more wins than losses over AUC (by AUC). ")
    m = mech.loc[main]
    rep.add_text(
        f"Which reading of the stopping rule? {len(READINGS)} readings × {n_cfg} settings "
        f"(monitored on {', '.join(grid['monitor_on'])}; learning rate "
        f"{', '.join(map(str, grid['learning_rate']))}; N {', '.join(map(str, grid['N']))}; "
        f"ε {', '.join(map(str, grid['epsilon']))}) on {len(grid['datasets'])} data sets "
        f"({', '.join(grid['datasets'])}), 5-fold CV, one trajectory per fold, monitoring "
        "data and learning rate, every reading applied to it (table 'readings'). Readings: "
        + "; ".join(f"{k} = {v[2]}" for k, v in READINGS.items()) + ". Per reading: "
        + "; ".join(per_reading) + ". "
        + (f"The paper's direction with significance (AUC:acc over AUC by AUC, sign test "
           f"over data sets, rule of the verdicts above) is recovered in {len(holds)} "
           f"setting{'' if len(holds) == 1 else 's'}: {'; '.join(map(str, holds[:6]))}"
           + (" …" if len(holds) > 6 else "") + ". "
           if holds else "No reading and setting recovers the paper's direction with "
           "significance (verdict 'holds'); "
           + (f"{len(part)} give it without significance. " if part else
              "none gives it even without significance. "))
        + dir_text
        + (f"With {len(grid['datasets'])} data sets the sign test cannot reach p < 0.05 "
           f"(its smallest p is {sign_test_p(len(grid['datasets']), 0):.3g}), so only the "
           "direction can be judged here; `--full` runs "
           f"{len(SENS_GRID['full']['datasets'])} data sets."
           if sign_test_p(len(grid["datasets"]), 0) >= 0.05 else "")
    )
    rep.add_text(
        "Why the readings differ (computed at the check where the AUC rule stopped, "
        f"paper's setting: monitored on {main[0]}, learning rate {main[1]}, N = {main[2]}, "
        f"ε = {main[3]}; table 'stop_mechanism'): of {m['AUC stops (folds)']} folds, the "
        f"monitored AUC was exactly unchanged in {m['ΔAUC exactly 0']} "
        f"({m['monitored AUC = 1 at stop']} of them at AUC = 1), changed by at most ε in "
        f"{m['|ΔAUC| ≤ ε']}; acc rose by more than ε in {m['Δacc > ε']}. The lexicographic "
        "reading lets AUC:acc go on past AUC only when ΔAUC = 0 and Δacc > ε "
        f"({m['ΔAUC = 0 and Δacc > ε']} folds); the ε-tolerant one when |ΔAUC| ≤ ε and "
        f"Δacc > ε ({m['|ΔAUC| ≤ ε and Δacc > ε']} folds); the display number when "
        "ΔAUC + Δacc/100 > ε, which needs ΔAUC > ε − Δacc/100 ≥ ε − 0.01 — so at "
        "ε = 0.01 AUC and the display number part only when acc rises while AUC is "
        "nearly flat."
    )
    paper_dir = tab[wcol].map(lambda c: int(c.split("-")[0]) > int(c.split("-")[2]))
    val = tab.xs("validation", level="monitored on") if "validation" in grid[
        "monitor_on"] else None
    other = tab.index.get_level_values("reading") != "lex"
    checks = [Check(
        "the paper read 'larger than ε' other than lexicographically",
        "every other reading applied to the same trajectories (table 'readings'); "
        "supported if one makes AUC:acc beat AUC with the verdict 'holds'",
        f"AUC:acc beats AUC (wins > losses by AUC) in {int(paper_dir[other].sum())} of "
        f"{int(other.sum())} non-lexicographic reading × setting cells, 'holds' in "
        f"{int((tab[vcol][other] == HOLDS).sum())}",
        bool((tab[vcol][other] == HOLDS).any()))]
    if val is not None:
        checks.append(Check(
            "the paper monitored f on held-out data",
            "the same readings with f on a 25 % validation split",
            f"'holds' in {int((val[vcol] == HOLDS).sum())} of {len(val)} cells",
            bool((val[vcol] == HOLDS).any())))
    rep.add_text("Why ours differs from the paper's "
                 f"{PAPER_TABLE8['auc'][('auc:acc', 'auc')]} (ANN_AUC:acc vs ANN_AUC by "
                 "AUC): " + explain(checks))
    rep.add_table("readings", tab, "Stopping-rule readings × settings: how often AUC:acc "
                  "and AUC stop differently; win-draw-loss (paired t-test per data set)")
    rep.add_table("stop_mechanism", mech, "At the check where the AUC rule stopped: what "
                  "AUC and acc did")


def _figure(table7: pd.DataFrame, names: list[str]) -> Any:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(max(6, 0.45 * len(names) + 2.5), 6.5),
                             sharex=True)
    x = np.arange(len(names))
    colors = {"auc:acc": "tab:red", "auc": "tab:blue", "acc": "tab:gray"}
    for ax, meas in zip(axes, ("acc", "auc"), strict=True):
        for i, model in enumerate(MODELS):
            off = (i - 1) * 0.22
            ours = [table7.loc[(n, LABEL[model], meas), "ours"] for n in names]
            paper = [table7.loc[(n, LABEL[model], meas), "paper"] for n in names]
            ax.scatter(x + off, ours, color=colors[model], s=22, label=f"{LABEL[model]} ours")
            ax.scatter(x + off, paper, facecolors="none", edgecolors=colors[model], s=22,
                       label=f"{LABEL[model]} paper")
        ax.set_xticks(x, names, rotation=45, ha="right", fontsize=8)
        ax.set_ylabel(f"test {meas.upper() if meas == 'auc' else meas}")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6, ncol=3, loc="lower left")
    axes[0].set_title("filled: ours; hollow: paper (Table 7)", fontsize=9)
    fig.tight_layout()
    return fig
