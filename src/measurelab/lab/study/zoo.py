"""The model zoo: scikit-learn learners and parameter grids, grouped into work units.

A :class:`Unit` is one training job. It fits one learner (or one learner per variant) on
the training split and yields one or more *models*: the predictions of boosting after 4, 16,
64 ... steps come from a single boosted run, a neural net is read off after several epochs,
k-NN shares one neighbour search among all K, and an unpruned tree yields its raw and
Laplace-smoothed leaf estimates. Every model's scores are probabilities in [0, 1].

Algorithms (the paper's names): ``ann`` (MLP trained by back-propagation with momentum, no
weight decay, no early stopping), ``svm`` (linear, polynomial, RBF; Platt scaling by
``CalibratedClassifierCV(method="sigmoid")``), ``bag-dt``, ``bst-dt`` (AdaBoost of trees),
``bst-stmp`` (AdaBoost of stumps), ``dt`` (several criteria and leaf sizes; raw, Laplace and
m-estimate smoothing), ``knn`` (K grid, uniform or distance weighting), plus ``nb``
(Gaussian naive Bayes), ``lr`` (logistic regression) and ``bst-dt+platt`` (boosted trees
with Platt scaling, to test the paper's claim that calibration repairs boosting).
"""

from __future__ import annotations

import json
import re
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError

#: the ten measures of the study: our column name -> registry spec
MEASURES: dict[str, str] = {
    "acc": "acc", "fsc": "f1", "lft": "lift", "auc": "auc", "apr": "apr", "bep": "bep",
    "rms": "rms", "mxe": "mxe@2", "cal": "cal", "sar": "sar",
}

ALGORITHMS: tuple[str, ...] = (
    "ann", "svm", "bag-dt", "bst-dt", "bst-stmp", "dt", "knn", "nb", "lr", "bst-dt+platt",
)


@dataclass(frozen=True)
class Unit:
    """One training job: an algorithm, its fixed parameters and the variants it yields."""

    problem: str
    algo: str
    params: tuple[tuple[str, Any], ...]
    variants: tuple[tuple[tuple[str, Any], ...], ...] = ((),)

    @property
    def id(self) -> str:
        """A readable, file-safe name, e.g. ``svm_kernel=rbf_C=1``."""
        body = "_".join(f"{k}={v}" for k, v in self.params)
        return re.sub(r"[^A-Za-z0-9=._+-]", "-", f"{self.algo}_{body}" if body else self.algo)

    @property
    def n_models(self) -> int:
        return len(self.variants)

    def model_ids(self) -> list[str]:
        return [model_id(self.algo, {**dict(self.params), **dict(v)}) for v in self.variants]


def model_id(algo: str, params: dict[str, Any]) -> str:
    """The model's name: algorithm and sorted JSON parameters.

    Examples
    --------
    >>> model_id("knn", {"weights": "uniform", "k": 5})
    'knn {"k": 5, "weights": "uniform"}'
    """
    return f"{algo} {json.dumps(params, sort_keys=True)}"


def _t(d: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(d.items())


def grid(name: str, problem: str) -> list[Unit]:
    """The units of grid ``"quick"``, ``"full"`` or ``"tiny"`` (tests) for one problem.

    Examples
    --------
    >>> units = grid("quick", "sonar")
    >>> sum(u.n_models for u in units) >= 30
    True
    >>> sorted({u.algo for u in units}) == sorted(ALGORITHMS)
    True
    """
    if name not in GRIDS:
        raise MeasurelabError(f"grid={name!r} is not valid; expected one of {sorted(GRIDS)}")
    g = GRIDS[name]
    units: list[Unit] = []
    add = units.append
    for h in g["ann_hidden"]:
        for m in g["ann_momentum"]:
            add(Unit(problem, "ann", _t({"hidden": h, "momentum": m}),
                     tuple(_t({"epochs": e}) for e in g["ann_epochs"])))
    for kernel, cs, extra in g["svm"]:
        for c in cs:
            add(Unit(problem, "svm", _t({"kernel": kernel, "C": c, **extra})))
    for crit in g["bag_criteria"]:
        add(Unit(problem, "bag-dt", _t({"criterion": crit, "trees": g["bag_trees"]})))
    for crit in g.get("bst_criteria", [None]):
        for depth in g["bst_depths"]:
            fixed = {"max_depth": depth, **({"criterion": crit} if crit else {})}
            add(Unit(problem, "bst-dt", _t(fixed),
                     tuple(_t({"steps": s}) for s in g["bst_steps"])))
    for crit in g["stmp_criteria"]:
        add(Unit(problem, "bst-stmp", _t({"criterion": crit}),
                 tuple(_t({"steps": s}) for s in g["stmp_steps"])))
    for depth, steps in g["bst_platt"]:
        add(Unit(problem, "bst-dt+platt", _t({"max_depth": depth, "steps": steps})))
    for crit in g["dt_criteria"]:
        for leaf in g["dt_leaf"]:
            add(Unit(problem, "dt", _t({"criterion": crit, "min_leaf": leaf}),
                     tuple(_t({"smoothing": s}) for s in g["dt_smoothing"])))
    for w in g["knn_weights"]:
        add(Unit(problem, "knn", _t({"weights": w}), tuple(_t({"k": k}) for k in g["knn_k"])))
    add(Unit(problem, "nb", (), tuple(_t({"var_smoothing": v}) for v in g["nb_smoothing"])))
    add(Unit(problem, "lr", (), tuple(_t({"C": c}) for c in g["lr_C"])))
    return units


GRIDS: dict[str, dict[str, Any]] = {
    "tiny": {
        "ann_hidden": [4], "ann_momentum": [0.9], "ann_epochs": [5, 20],
        "svm": [("rbf", [1.0], {})],
        "bag_criteria": ["gini"], "bag_trees": 5,
        "bst_depths": [2], "bst_steps": [2, 8],
        "stmp_criteria": ["gini"], "stmp_steps": [4, 16],
        "bst_platt": [],
        "dt_criteria": ["gini"], "dt_leaf": [2], "dt_smoothing": ["none", "laplace"],
        "knn_weights": ["uniform"], "knn_k": [3, 15],
        "nb_smoothing": [1e-9], "lr_C": [1.0],
    },
    "quick": {
        "ann_hidden": [4, 16], "ann_momentum": [0.0, 0.9], "ann_epochs": [16, 64],
        "svm": [("linear", [0.01, 1.0], {}), ("rbf", [1.0, 10.0], {}),
                ("poly", [1.0], {"degree": 2})],
        "bag_criteria": ["gini", "entropy"], "bag_trees": 25,
        "bst_depths": [3, 8], "bst_steps": [4, 16, 64],
        "stmp_criteria": ["gini"], "stmp_steps": [16, 64, 256],
        "bst_platt": [(8, 64)],
        "dt_criteria": ["gini", "entropy"], "dt_leaf": [2, 32],
        "dt_smoothing": ["none", "laplace"],
        "knn_weights": ["uniform", "distance"], "knn_k": [5, 25, 101],
        "nb_smoothing": [1e-9, 1e-3], "lr_C": [0.01, 1.0, 100.0],
    },
    "full": {
        "ann_hidden": [1, 2, 4, 8, 32, 128], "ann_momentum": [0.0, 0.2, 0.5, 0.9],
        "ann_epochs": [4, 16, 64, 256],
        "svm": [("linear", [1e-4, 1e-3, 0.01, 0.1, 1.0, 10.0, 100.0], {}),
                ("rbf", [0.01, 0.1, 1.0, 10.0, 100.0], {"gamma": 0.001}),
                ("rbf", [0.01, 0.1, 1.0, 10.0, 100.0], {"gamma": 0.01}),
                ("rbf", [0.01, 0.1, 1.0, 10.0, 100.0], {"gamma": 0.1}),
                ("rbf", [0.01, 0.1, 1.0, 10.0, 100.0], {"gamma": 1.0}),
                ("poly", [0.01, 0.1, 1.0, 10.0], {"degree": 2}),
                ("poly", [0.01, 0.1, 1.0, 10.0], {"degree": 3})],
        "bag_criteria": ["gini", "entropy", "log_loss"], "bag_trees": 100,
        "bst_depths": [2, 4, 8, 16], "bst_criteria": ["gini", "entropy"],
        "bst_steps": [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
        "stmp_criteria": ["gini", "entropy"],
        "stmp_steps": [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192],
        "bst_platt": [(4, 256), (8, 256), (8, 1024)],
        "dt_criteria": ["gini", "entropy", "log_loss"], "dt_leaf": [1, 2, 8, 32, 128],
        "dt_smoothing": ["none", "laplace", "m-estimate"],
        "knn_weights": ["uniform", "distance"],
        "knn_k": [1, 3, 5, 9, 15, 25, 41, 65, 101, 151, 251, 401, 651, 1001, 1501],
        "nb_smoothing": [1e-9, 1e-6, 1e-3, 1e-1], "lr_C": [1e-3, 0.01, 0.1, 1.0, 10.0, 100.0],
    },
}


# ----------------------------------------------------------------------------- fitting
@dataclass
class Fitted:
    """The models of one unit: ``[(params, p_valid, p_test)]`` and the seconds spent."""

    models: list[tuple[dict[str, Any], np.ndarray, np.ndarray]] = field(default_factory=list)
    train_seconds: float = 0.0


def fit_unit(unit: Unit, data: Any, seed: int) -> Fitted:
    """Train ``unit`` on ``data`` (a :class:`~measurelab.lab.study.problems.Prepared`) and
    predict the validation and test sets with every model it yields.

    Examples
    --------
    >>> from measurelab.lab.study.problems import load_problem, make_split, prepare
    >>> p = load_problem("sonar")
    >>> d = prepare(p, make_split(p.y, seed=0))
    >>> f = fit_unit(Unit("sonar", "knn", (("weights", "uniform"),), ((("k", 3),),)), d, 0)
    >>> len(f.models), f.models[0][2].shape
    (1, (63,))
    """
    from threadpoolctl import threadpool_limits

    fn = _FITTERS[unit.algo]
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        models = fn(dict(unit.params), [dict(v) for v in unit.variants], data, seed)
    out = Fitted(train_seconds=time.perf_counter() - t0)
    for params, pv, pt in models:
        pv, pt = _proba(pv), _proba(pt)
        out.models.append((params, pv, pt))
    return out


def _proba(p: np.ndarray) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    return np.clip(p, 0.0, 1.0)


def _pos(model: Any, X: np.ndarray) -> np.ndarray:
    return model.predict_proba(X)[:, list(model.classes_).index(1)]


def _fit_ann(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.neural_network import MLPClassifier

    net = MLPClassifier(hidden_layer_sizes=(params["hidden"],), activation="logistic",
                        solver="sgd", momentum=params["momentum"],
                        nesterovs_momentum=False, learning_rate_init=0.05, batch_size=32,
                        alpha=0.0, random_state=seed, shuffle=True)
    out = []
    done = 0
    for v in sorted(variants, key=lambda v: v["epochs"]):
        while done < v["epochs"]:
            net.partial_fit(d.X_train, d.y_train, classes=[0, 1])
            done += 1
        out.append(({**params, **v}, _pos(net, d.X_valid), _pos(net, d.X_test)))
    return out


def _fit_svm(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import SVC, LinearSVC

    if params["kernel"] == "linear":
        svm = LinearSVC(C=params["C"], max_iter=5000, random_state=seed)
    else:
        svm = SVC(kernel=params["kernel"], C=params["C"], gamma=params.get("gamma", "scale"),
                  degree=params.get("degree", 3), coef0=1.0, cache_size=200,
                  max_iter=200_000, random_state=seed)
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    model = CalibratedClassifierCV(svm, method="sigmoid", cv=cv).fit(d.X_train, d.y_train)
    return [(dict(params), _pos(model, d.X_valid), _pos(model, d.X_test))]


def _tree(criterion: str = "gini", **kw: Any) -> Any:
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(criterion=criterion, **kw)


def _fit_bag(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.ensemble import BaggingClassifier

    bag = BaggingClassifier(_tree(params["criterion"]), n_estimators=params["trees"],
                            random_state=seed).fit(d.X_train, d.y_train)
    return [(dict(params), _pos(bag, d.X_valid), _pos(bag, d.X_test))]


def _staged(model: Any, X: np.ndarray, steps: list[int]) -> dict[int, np.ndarray]:
    want = set(steps)
    got: dict[int, np.ndarray] = {}
    last: Any = None  # the first stage sets it (there is always one)
    for i, p in enumerate(model.staged_predict_proba(X), start=1):
        last = p[:, list(model.classes_).index(1)]
        if i in want:
            got[i] = last
    for s in steps:  # boosting stopped early (a perfect or useless learner): final model
        got.setdefault(s, last)
    return got


def _fit_boost(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.ensemble import AdaBoostClassifier

    steps = sorted(v["steps"] for v in variants)
    base = _tree(params.get("criterion", "gini"), max_depth=params.get("max_depth", 1),
                 random_state=seed)
    ada = AdaBoostClassifier(base, n_estimators=steps[-1], random_state=seed)
    ada.fit(d.X_train, d.y_train)
    pv, pt = _staged(ada, d.X_valid, steps), _staged(ada, d.X_test, steps)
    return [({**params, "steps": s}, pv[s], pt[s]) for s in steps]


def _fit_boost_platt(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.model_selection import StratifiedKFold

    ada = AdaBoostClassifier(_tree(max_depth=params["max_depth"], random_state=seed),
                             n_estimators=params["steps"], random_state=seed)
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    model = CalibratedClassifierCV(ada, method="sigmoid", cv=cv).fit(d.X_train, d.y_train)
    return [(dict(params), _pos(model, d.X_valid), _pos(model, d.X_test))]


def _fit_dt(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    tree = _tree(params["criterion"], min_samples_leaf=params["min_leaf"],
                 random_state=seed).fit(d.X_train, d.y_train)
    leaves = tree.apply(d.X_train)
    n_nodes = tree.tree_.node_count
    n = np.bincount(leaves, minlength=n_nodes).astype(float)
    k = np.bincount(leaves, weights=d.y_train.astype(float), minlength=n_nodes)
    prior = float(d.y_train.mean())
    lv, lt = tree.apply(d.X_valid), tree.apply(d.X_test)
    out = []
    for v in variants:
        s = v["smoothing"]
        if s == "none":
            p = np.divide(k, n, out=np.full_like(k, prior), where=n > 0)
        elif s == "laplace":
            p = (k + 1.0) / (n + 2.0)
        elif s == "m-estimate":  # m = 2 virtual cases at the training prior
            p = (k + 2.0 * prior) / (n + 2.0)
        else:
            raise MeasurelabError(f"smoothing={s!r} is not valid")
        out.append(({**params, **v}, p[lv], p[lt]))
    return out


def _fit_knn(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.neighbors import NearestNeighbors

    ks = [min(v["k"], d.X_train.shape[0]) for v in variants]
    nn = NearestNeighbors(n_neighbors=max(ks)).fit(d.X_train)
    y = d.y_train.astype(float)
    preds = []
    for X in (d.X_valid, d.X_test):
        dist, idx = nn.kneighbors(X)
        preds.append((dist, y[idx]))
    out = []
    for v, k in zip(variants, ks, strict=True):
        res = []
        for dist, lab in preds:
            dk, lk = dist[:, :k], lab[:, :k]
            if params["weights"] == "uniform":
                res.append(lk.mean(axis=1))
            else:  # 1/d; a case at distance 0 takes the vote of the zero-distance cases
                zero = dk == 0
                w = np.where(zero.any(axis=1, keepdims=True), zero.astype(float),
                             1.0 / np.where(zero, 1.0, dk))
                res.append((w * lk).sum(axis=1) / w.sum(axis=1))
        out.append(({**params, **v}, res[0], res[1]))
    return out


def _fit_nb(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.naive_bayes import GaussianNB

    out = []
    for v in variants:
        nb = GaussianNB(var_smoothing=v["var_smoothing"]).fit(d.X_train, d.y_train)
        out.append(({**params, **v}, _pos(nb, d.X_valid), _pos(nb, d.X_test)))
    return out


def _fit_lr(params: dict, variants: list[dict], d: Any, seed: int) -> list:
    from sklearn.linear_model import LogisticRegression

    out = []
    for v in variants:
        lr = LogisticRegression(C=v["C"], max_iter=2000).fit(d.X_train, d.y_train)
        out.append(({**params, **v}, _pos(lr, d.X_valid), _pos(lr, d.X_test)))
    return out


_FITTERS = {
    "ann": _fit_ann, "svm": _fit_svm, "bag-dt": _fit_bag, "bst-dt": _fit_boost,
    "bst-stmp": _fit_boost, "bst-dt+platt": _fit_boost_platt, "dt": _fit_dt,
    "knn": _fit_knn, "nb": _fit_nb, "lr": _fit_lr,
}
