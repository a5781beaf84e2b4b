"""A small numpy back-propagation network whose training is stopped by a measure.

Huang & Ling (2007, Sec. 5) train a feed-forward network by standard back-propagation on
the squared error and stop it by *monitoring* a measure f (AUC:acc, AUC or acc) with the
look-ahead rule of :mod:`measurelab.lab.learn.stopping`. The paper does not state the network;
the defaults here follow Weka's ``MultilayerPerceptron`` (which the authors' group used):

* one hidden layer of sigmoid units, ``hidden="a"`` = (attributes + outputs) / 2 units;
* sigmoid output units: one for a binary task (the score of the positive class, code 1),
  one per class otherwise (targets one-hot); the multi-class score matrix is the outputs
  divided by their row sum;
* weights drawn uniformly from [−0.05, 0.05]; learning rate 0.3, momentum 0.2;
* loss ½ Σ (output − target)²; mini-batch gradient descent (``batch_size=10``, mean
  gradient over the batch, examples shuffled every epoch). Weka updates after every
  example (``batch_size=1``); mini-batches make an epoch ~10× cheaper in numpy, an
  option users can set back to 1.

:func:`train_monitored` trains one network and applies several stopping rules to the
same weight trajectory: training is deterministic given the seed and never depends on f,
so "three networks stopped by AUC:acc, AUC and acc" with the same initial weights are
exactly three stopping points of one run (and a paired comparison).

Where f is measured: ``monitor_on="train"`` (the paper: the training data) or
``"validation"`` (a stratified hold-out of ``validation_fraction`` of the training data,
which is then not used for the gradient).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from measurelab.exceptions import MeasurelabError
from measurelab.lab.learn.stopping import ImprovementStop
from measurelab.pickling import versioned_pickle
from measurelab.validation import check_int, check_real, make_rng

#: most weights of a network (8 bytes each, times four copies while training)
MAX_WEIGHTS = 10**8

#: most training epochs of :func:`train_monitored`
MAX_EPOCHS = 10**7


Monitor = Callable[[np.ndarray, np.ndarray], Any]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # = 1/(1+e^−z), without overflow warnings


class MLP:
    """One-hidden-layer sigmoid network trained by back-propagation on squared error.

    Parameters
    ----------
    n_in, n_hidden, n_out : layer sizes
    learning_rate : float, default 0.3
    momentum : float, default 0.2
    batch_size : int, default 10
    random_state : int or numpy Generator, default 0
        Seeds the initial weights and the per-epoch shuffling.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], float)
    >>> net = MLP(2, 3, 1, learning_rate=2.0, random_state=0)
    >>> net.train_epochs(X, np.array([[0], [1], [1], [1]], float), 2000)
    >>> (net.forward(X)[:, 0] > 0.5).tolist()
    [False, True, True, True]
    """

    def __init__(
        self,
        n_in: int,
        n_hidden: int,
        n_out: int,
        *,
        learning_rate: float = 0.3,
        momentum: float = 0.2,
        batch_size: int = 10,
        random_state: int | np.random.Generator = 0,
    ) -> None:
        n_in = check_int(n_in, "n_in", minimum=1)
        n_hidden = check_int(n_hidden, "n_hidden", minimum=1)
        n_out = check_int(n_out, "n_out", minimum=1)
        cells = (n_in + 1) * n_hidden + (n_hidden + 1) * n_out
        if cells > MAX_WEIGHTS:
            raise MeasurelabError(
                f"a network of {n_in}-{n_hidden}-{n_out} units has {cells:,} weights, more "
                f"than {MAX_WEIGHTS:,}; use fewer hidden units")
        self.rng = make_rng(random_state)
        self.learning_rate = check_real(learning_rate, "learning_rate", low=0)
        self.momentum = check_real(momentum, "momentum", low=0, high=1)
        self.batch_size = check_int(batch_size, "batch_size", minimum=1)
        self.W1 = self.rng.uniform(-0.05, 0.05, size=(n_in + 1, n_hidden))
        self.W2 = self.rng.uniform(-0.05, 0.05, size=(n_hidden + 1, n_out))
        self._V1 = np.zeros_like(self.W1)
        self._V2 = np.zeros_like(self.W2)
        self.epochs = 0

    def get_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the two weight matrices (last row = bias)."""
        return self.W1.copy(), self.W2.copy()

    def set_weights(self, weights: tuple[np.ndarray, np.ndarray]) -> None:
        self.W1, self.W2 = weights[0].copy(), weights[1].copy()

    def forward(self, X: np.ndarray) -> np.ndarray:
        """Output-unit activations, shape (n, n_out)."""
        H = _sigmoid(X @ self.W1[:-1] + self.W1[-1])
        return _sigmoid(H @ self.W2[:-1] + self.W2[-1])

    def train_epochs(self, X: np.ndarray, T: np.ndarray, n_epochs: int) -> None:
        """Back-propagation on ½ Σ (o − t)² for ``n_epochs`` passes over (X, T)."""
        n = X.shape[0]
        bs = max(1, self.batch_size)
        lr, mom = self.learning_rate, self.momentum
        W1, W2, V1, V2 = self.W1, self.W2, self._V1, self._V2
        for _ in range(n_epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, bs):
                idx = order[start : start + bs]
                x, t = X[idx], T[idx]
                h = _sigmoid(x @ W1[:-1] + W1[-1])
                o = _sigmoid(h @ W2[:-1] + W2[-1])
                d2 = (o - t) * o * (1.0 - o)
                d1 = (d2 @ W2[:-1].T) * h * (1.0 - h)
                m = len(idx)
                V2[:-1] = mom * V2[:-1] - lr * (h.T @ d2) / m
                V2[-1] = mom * V2[-1] - lr * d2.sum(axis=0) / m
                V1[:-1] = mom * V1[:-1] - lr * (x.T @ d1) / m
                V1[-1] = mom * V1[-1] - lr * d1.sum(axis=0) / m
                W2 += V2
                W1 += V1
            self.epochs += 1


def scores_from_outputs(outputs: np.ndarray) -> np.ndarray:
    """Binary: the single output column as a 1-d score; multi-class: outputs / row sum.

    Examples
    --------
    >>> scores_from_outputs(np.array([[0.2], [0.9]])).tolist()
    [0.2, 0.9]
    >>> scores_from_outputs(np.array([[0.25, 0.75]])).tolist()
    [[0.25, 0.75]]
    """
    if outputs.shape[1] == 1:
        return outputs[:, 0]
    s = outputs.sum(axis=1, keepdims=True)
    return outputs / np.where(s > 0, s, 1.0)


def measure_monitor(spec: str, *, n_classes: int, average: str = "macro") -> Monitor:
    """A monitor ``f(y_codes, scores) -> value`` for a registered measure or ``f:g`` spec.

    Values are oriented so that higher is better (a lower-is-better measure enters as
    ``hi − v``). Multi-class AUC with ``average='macro'`` is Hand & Till's M.

    Examples
    --------
    >>> import numpy as np
    >>> f = measure_monitor("auc:acc", n_classes=2)
    >>> v = f(np.array([0, 0, 1, 1]), np.array([0.1, 0.6, 0.35, 0.8]))
    >>> v.first, v.second
    (0.75, 0.5)
    """
    from measurelab.measures.base import registry
    from measurelab.measures.twolevel import oriented
    from measurelab.metrics.evaluation import build_stats

    m = registry.resolve(spec)[0]
    labels = np.arange(n_classes)

    def f(y: np.ndarray, scores: np.ndarray) -> Any:
        if scores.ndim == 1:
            stats = build_stats(y, scores, pos_label=1)
            return oriented(m, m.compute(stats))
        stats = build_stats(y, scores, labels=labels)
        return oriented(m, m.compute(stats, average=average))

    f.__name__ = m.name
    return f


@versioned_pickle
@dataclass
class MonitoredResult:
    """Per monitor: the kept weights, the epoch they are from, and f at every check."""

    weights: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    stop_epoch: dict[str, int] = field(default_factory=dict)
    history: dict[str, list[Any]] = field(default_factory=dict)
    check_epochs: list[int] = field(default_factory=list)
    hit_max_epochs: dict[str, bool] = field(default_factory=dict)


def hidden_units(hidden: int | str, n_in: int, n_out: int) -> int:
    """Number of hidden units: an int, or Weka's ``'a'`` = (n_in + n_out) // 2 (min 1).

    Examples
    --------
    >>> hidden_units("a", 60, 1), hidden_units(5, 60, 1)
    (30, 5)
    """
    if hidden == "a":
        return max(1, (n_in + n_out) // 2)
    if isinstance(hidden, int | np.integer) and hidden >= 1:
        return int(hidden)
    raise MeasurelabError(f"hidden must be a positive int or 'a', got {hidden!r}")


def _targets(y: np.ndarray, n_classes: int) -> np.ndarray:
    if n_classes == 2:
        return y[:, None].astype(float)
    T = np.zeros((y.size, n_classes))
    T[np.arange(y.size), y] = 1.0
    return T


def _stratified_holdout(
    y: np.ndarray, fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    val = []
    for c in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == c))
        k = round(fraction * idx.size)
        if idx.size >= 2:
            k = min(max(k, 1), idx.size - 1)
        else:
            k = 0
        val.append(idx[:k])
    v = np.sort(np.concatenate(val))
    mask = np.ones(y.size, bool)
    mask[v] = False
    return np.flatnonzero(mask), v


def train_monitored(
    X: np.ndarray,
    y: np.ndarray,
    monitors: dict[str, Monitor] | Sequence[str],
    *,
    n_classes: int | None = None,
    hidden: int | str = "a",
    learning_rate: float = 0.3,
    momentum: float = 0.2,
    batch_size: int = 10,
    look_ahead: int = 100,
    epsilon: float = 0.01,
    rule: str = "lexicographic",
    max_epochs: int = 3000,
    monitor_on: str = "train",
    validation_fraction: float = 0.25,
    average: str = "macro",
    random_state: int = 0,
) -> MonitoredResult:
    """Train one network; stop it separately by each monitored measure (Huang & Ling).

    Parameters
    ----------
    X : array (n, d), already scaled (see :mod:`measurelab.lab.preprocess`)
    y : int array (n,) of class codes 0..k−1 (binary: 1 = positive)
    monitors : measure specs (``["auc:acc", "auc", "acc"]``) or ``{name: callable}``
        with ``callable(y_codes, scores) -> comparable value`` (higher is better).
    look_ahead : N, epochs between checks (default 100)
    epsilon : ε, the improvement needed to go on (default 0.01)
    rule : how two-level values improve ('lexicographic' or 'display')
    max_epochs : hard cap; a rule still improving there keeps its last saved weights
    monitor_on : 'train' (the paper) or 'validation'
    hidden, learning_rate, momentum, batch_size : network options (see :class:`MLP`)

    Returns
    -------
    MonitoredResult

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((60, 2)); y = (X[:, 0] > X[:, 1]).astype(int)
    >>> res = train_monitored(X, y, ["acc"], look_ahead=20, max_epochs=200)
    >>> res.stop_epoch["acc"] in res.check_epochs
    True
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.size or y.size == 0:
        raise MeasurelabError(f"X must be (n, d) and y (n,) with n >= 1, got shapes {X.shape} "
                              f"and {y.shape}")
    if y.min() < 0:
        raise MeasurelabError(f"y must hold class codes 0..k-1, got {int(y.min())}")
    if n_classes is not None:
        n_classes = check_int(n_classes, "n_classes", minimum=max(2, int(y.max()) + 1))
    k = int(n_classes if n_classes is not None else max(2, int(y.max()) + 1))
    if monitor_on not in ("train", "validation"):
        raise MeasurelabError(
            f"monitor_on={monitor_on!r} is not valid; expected 'train' or 'validation'"
        )
    look_ahead = check_int(look_ahead, "look_ahead", minimum=1)
    max_epochs = check_int(max_epochs, "max_epochs", minimum=0, maximum=MAX_EPOCHS)
    epsilon = check_real(epsilon, "epsilon", low=0)
    validation_fraction = check_real(validation_fraction, "validation_fraction", low=0,
                                     high=1)
    rng = make_rng(random_state)
    if not isinstance(monitors, dict):
        monitors = {s: measure_monitor(s, n_classes=k, average=average) for s in monitors}
    if monitor_on == "validation":
        tr, va = _stratified_holdout(y, validation_fraction, rng)
        Xf, yf, Xm, ym = X[tr], y[tr], X[va], y[va]
    else:
        Xf, yf, Xm, ym = X, y, X, y
    n_out = 1 if k == 2 else k
    net = MLP(
        X.shape[1],
        hidden_units(hidden, X.shape[1], n_out),
        n_out,
        learning_rate=learning_rate,
        momentum=momentum,
        batch_size=batch_size,
        random_state=rng,
    )
    T = _targets(yf, k)
    res = MonitoredResult()
    rules = {name: ImprovementStop(epsilon, rule) for name in monitors}
    saved = {}
    w = net.get_weights()
    s = scores_from_outputs(net.forward(Xm))
    for name, f in monitors.items():
        rules[name].start(f(ym, s))
        saved[name] = w
        res.stop_epoch[name] = 0
    res.check_epochs.append(0)
    active = set(monitors)
    while active and net.epochs + look_ahead <= max_epochs:
        net.train_epochs(Xf, T, look_ahead)
        res.check_epochs.append(net.epochs)
        w = net.get_weights()
        s = scores_from_outputs(net.forward(Xm))
        for name in sorted(active):
            if rules[name].update(monitors[name](ym, s)):
                saved[name] = w
                res.stop_epoch[name] = net.epochs
            else:
                active.discard(name)
    for name in monitors:
        res.weights[name] = saved[name]
        res.history[name] = list(rules[name].history)
        res.hit_max_epochs[name] = name in active
    return res


class MonitoredMLPClassifier(ClassifierMixin, BaseEstimator):
    """scikit-learn classifier: an :class:`MLP` stopped by a measure.

    Passes scikit-learn's ``check_estimator``, so it runs in ``cross_val_score``,
    ``GridSearchCV`` and pipelines (``get_params``/``set_params``, ``clone``, ``score`` =
    accuracy, ``classes_``, ``n_features_in_``, input validation).

    Parameters
    ----------
    monitor : str, default 'auc:acc'
        Registered measure or two-level spec that decides when to stop.
    hidden, learning_rate, momentum, batch_size, look_ahead, epsilon, rule, max_epochs,
    monitor_on, validation_fraction, average, random_state
        As in :func:`train_monitored` (same defaults).

    Attributes
    ----------
    classes_, n_features_in_, net_ (the kept :class:`MLP`), result_ (:class:`MonitoredResult`),
    stop_epoch_

    Notes
    -----
    A binary ``predict`` is positive iff the output ``s > 0.5`` (Huang & Ling), which is
    ``argmax`` of ``predict_proba = [1 − s, s]`` (first column on ties). A binary
    ``decision_function`` is ``P(positive) − P(negative)`` in [−1, 1]: positive exactly when
    ``predict`` is, as scikit-learn requires; multi-class it is the probability matrix.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> X = rng.random((80, 2)); y = (X[:, 0] + X[:, 1] > 1).astype(int)
    >>> clf = MonitoredMLPClassifier("acc", learning_rate=2.0, look_ahead=50,
    ...                              max_epochs=1000).fit(X, y)
    >>> clf.stop_epoch_, clf.result_.history["acc"]
    (100, [0.5125, 0.9625, 0.9875, 0.9875])
    """

    def __init__(
        self,
        monitor: str = "auc:acc",
        *,
        hidden: int | str = "a",
        learning_rate: float = 0.3,
        momentum: float = 0.2,
        batch_size: int = 10,
        look_ahead: int = 100,
        epsilon: float = 0.01,
        rule: str = "lexicographic",
        max_epochs: int = 3000,
        monitor_on: str = "train",
        validation_fraction: float = 0.25,
        average: str = "macro",
        random_state: int | None = 0,
    ) -> None:
        self.monitor = monitor
        self.hidden = hidden
        self.learning_rate = learning_rate
        self.momentum = momentum
        self.batch_size = batch_size
        self.look_ahead = look_ahead
        self.epsilon = epsilon
        self.rule = rule
        self.max_epochs = max_epochs
        self.monitor_on = monitor_on
        self.validation_fraction = validation_fraction
        self.average = average
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> MonitoredMLPClassifier:
        """Train the network and keep the weights where the monitor stopped it."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        k = _two_classes_or_more(self.classes_)
        options = {
            name: getattr(self, name)
            for name in ("hidden", "learning_rate", "momentum", "batch_size", "look_ahead",
                         "epsilon", "rule", "max_epochs", "monitor_on", "validation_fraction",
                         "average", "random_state")
        }
        res = train_monitored(X, codes, [self.monitor], n_classes=k, **options)
        n_out = 1 if k == 2 else k
        self.net_ = MLP(X.shape[1], res.weights[self.monitor][0].shape[1], n_out)
        self.net_.set_weights(res.weights[self.monitor])
        self.result_ = res
        self.stop_epoch_ = res.stop_epoch[self.monitor]
        return self

    def _outputs(self, X: Any) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return scores_from_outputs(self.net_.forward(X))

    def predict_proba(self, X: Any) -> np.ndarray:
        """Binary: ``[1 − s, s]``; multi-class: the outputs divided by their row sum."""
        s = self._outputs(X)
        return np.column_stack([1 - s, s]) if s.ndim == 1 else s

    def decision_function(self, X: Any) -> np.ndarray:
        """Binary: ``P(positive) − P(negative)`` (> 0 iff predicted positive); else the
        probability matrix."""
        P = self.predict_proba(X)
        return P[:, 1] - P[:, 0] if P.shape[1] == 2 else P

    def predict(self, X: Any) -> np.ndarray:
        """The class of the largest probability (binary: positive iff ``s > 0.5``)."""
        P = self.predict_proba(X)
        return self.classes_[np.argmax(P, axis=1)]


def _two_classes_or_more(classes: np.ndarray) -> int:
    if classes.size < 2:
        raise MeasurelabError(
            f"y has one class ({classes.tolist()}); a classifier needs at least two"
        )
    return int(classes.size)
