"""Monte-Carlo Sampling prototype selection (Skalak 1994), with any selection measure.

Draw ``n_samples`` random sets of ``n_prototypes`` training examples; classify every
training example by its nearest prototype (Euclidean); keep the set that scores best by the
selection measure (``acc``, ``oarp`` or any registered measure or ``f:g`` spec). Hossin et
al. (2011) compare selection by accuracy with selection by OARP this way, with n = 500.

Defaults and why:

* ``n_samples=500`` — Hossin et al. (after Bezdek & Kuncheva 2001).
* ``n_prototypes=None`` → the number of classes, and ``stratified=False`` — Skalak's
  "Monte Carlo 1" drew m = (number of classes) prototypes uniformly from the training set,
  and Hossin et al. state that all other parameters follow Skalak. With
  ``stratified=True`` each class gets ⌊m/k⌋ prototypes (the remainder going to the
  largest classes), so no set lacks a class.
* Ties between sets: the **earliest** drawn set with the best value is kept (a later set
  replaces the current best only on strict improvement, as in Kuncheva's re-implementation).
* Ties in distance between prototypes of different classes: the lower class code wins
  (for a binary task: the negative class, since the positive score is then exactly 0.5
  and positive means score > 0.5). Fitting and :meth:`predict` use the same rule.

Scores. For rank measures every example gets class scores from the distances to the
nearest prototype of each class: ``s_j = (1/d_j) / Σ_c (1/d_c)`` (a class without a
prototype scores 0; at distance 0 the zero-distance classes share the score). For a
binary task the positive score is ``d_neg / (d_pos + d_neg)``, which exceeds 0.5 exactly
when the nearest prototype is positive, so threshold measures at 0.5 see the 1-NN labels.

Examples
--------
>>> import numpy as np
>>> X = np.array([[0.0], [0.1], [0.9], [1.0]]); y = np.array([0, 0, 1, 1])
>>> sel = MonteCarloPrototypeSelector(n_samples=20, random_state=0).fit(X, y)
>>> sel.best_score_, sel.predict(np.array([[0.05], [0.95]])).tolist()
(1.0, [0, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.validation import check_flag, check_int, make_rng

#: most prototype indices drawn at once (n_samples × n_prototypes, 8 bytes each)
MAX_DRAWN = 10**8


def draw_prototype_sets(
    y: np.ndarray,
    n_samples: int,
    n_prototypes: int,
    *,
    stratified: bool = False,
    rng: np.random.Generator,
) -> np.ndarray:
    """Index sets, shape (n_samples, n_prototypes), each without repeats.

    Examples
    --------
    >>> s = draw_prototype_sets(np.array([0, 0, 1, 1, 1]), 3, 2, stratified=True,
    ...                         rng=np.random.default_rng(0))
    >>> s.shape, all(sorted(np.array([0, 0, 1, 1, 1])[r].tolist()) == [0, 1] for r in s)
    ((3, 2), True)
    """
    n = y.size
    n_samples = check_int(n_samples, "n_samples", minimum=1)
    n_prototypes = check_int(n_prototypes, "n_prototypes", minimum=1, maximum=max(n, 1))
    if n_samples * n_prototypes > MAX_DRAWN:
        raise MeasurelabError(
            f"n_samples={n_samples} sets of n_prototypes={n_prototypes} are more than "
            f"{MAX_DRAWN:,} indices; draw fewer sets")
    stratified = check_flag(stratified, "stratified")
    if not isinstance(rng, np.random.Generator):
        raise MeasurelabTypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    if not stratified:
        return np.stack([rng.choice(n, n_prototypes, replace=False) for _ in range(n_samples)])
    classes, counts = np.unique(y, return_counts=True)
    per = np.full(classes.size, n_prototypes // classes.size)
    for i in np.argsort(-counts, kind="stable")[: n_prototypes % classes.size]:
        per[i] += 1
    per = np.minimum(per, counts)
    members = [np.flatnonzero(y == c) for c in classes]
    rows = []
    for _ in range(n_samples):
        parts = [rng.choice(m, p, replace=False) for m, p in zip(members, per, strict=True)]
        rows.append(np.concatenate(parts))
    return np.stack(rows)


def nearest_prototype_scores(
    D: np.ndarray, proto_labels: np.ndarray, n_classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """Predicted class codes and class scores from distances to the prototypes.

    ``D`` has shape (..., n, m): distances of n examples to m prototypes (leading axes =
    several prototype sets); ``proto_labels`` shape (..., m). Returns (pred (..., n),
    scores (..., n, k)).

    Examples
    --------
    >>> pred, S = nearest_prototype_scores(np.array([[1.0, 3.0]]), np.array([0, 1]), 2)
    >>> pred.tolist(), S.tolist()
    ([0], [[0.75, 0.25]])
    """
    nearest = np.argmin(D, axis=-1)
    pred = np.take_along_axis(
        np.broadcast_to(proto_labels[..., None, :], D.shape), nearest[..., None], axis=-1
    )[..., 0]
    dmin = np.full((*D.shape[:-1], n_classes), np.inf)
    for c in range(n_classes):
        mask = (proto_labels == c)[..., None, :]
        if mask.any():
            dmin[..., c] = np.where(mask, D, np.inf).min(axis=-1)
    zero = dmin == 0
    with np.errstate(divide="ignore"):
        inv = np.where(np.isinf(dmin), 0.0, 1.0 / np.where(zero, 1.0, dmin))
    anyzero = zero.any(axis=-1, keepdims=True)
    inv = np.where(anyzero, zero.astype(float), inv)
    S = inv / inv.sum(axis=-1, keepdims=True)
    return pred, S


def pairwise_distances(A: np.ndarray, B: np.ndarray, chunk: int = 64) -> np.ndarray:
    """Euclidean distances from differences (not the a² + b² − 2ab expansion, whose
    rounding would break exact distance ties), in row chunks to bound memory.

    Examples
    --------
    >>> pairwise_distances(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0], [0.0, 1.0]]))
    array([[5., 1.]])
    """
    out = np.empty((A.shape[0], B.shape[0]))
    for i in range(0, A.shape[0], chunk):
        diff = A[i : i + chunk, None, :] - B[None, :, :]
        out[i : i + chunk] = np.sqrt((diff * diff).sum(axis=-1))
    return out


class MonteCarloPrototypeSelector(ClassifierMixin, BaseEstimator):
    """Nearest-prototype classifier whose prototypes are chosen by Monte-Carlo Sampling.

    Parameters
    ----------
    n_samples : int, default 500
    n_prototypes : int, optional (default: the number of classes, as Skalak)
    stratified : bool, default False
    measure : str, default 'acc'
        The selection measure (registered name or ``f:g``), oriented higher-is-better.
    average : str, default 'macro' (multi-class measures)
    random_state : int, default 0

    Passes scikit-learn's ``check_estimator`` (``clone``, ``get_params``, ``score`` =
    accuracy, input validation), so it runs in ``cross_val_score`` and ``GridSearchCV``.

    Attributes
    ----------
    sampled_sets_ : (n_samples, m) indices into the training data
    scores_ : the selection measure's value of every sampled set
    best_index_, best_score_, prototypes_, prototype_labels_ (class codes), classes_,
    n_features_in_

    Notes
    -----
    A binary ``decision_function`` is ``s_pos − s_neg`` in [−1, 1]: positive exactly when
    the nearest prototype is positive (as scikit-learn requires); multi-class it is the
    score matrix.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((40, 2)); y = (X[:, 0] > 0.5).astype(int)
    >>> a = MonteCarloPrototypeSelector(n_samples=50, measure="oarp", random_state=3).fit(X, y)
    >>> b = MonteCarloPrototypeSelector(n_samples=50, measure="oarp", random_state=3).fit(X, y)
    >>> a.best_index_ == b.best_index_ and a.best_score_ == max(a.scores_)
    True
    """

    def __init__(
        self,
        n_samples: int = 500,
        n_prototypes: int | None = None,
        *,
        stratified: bool = False,
        measure: str = "acc",
        average: str = "macro",
        random_state: int = 0,
    ) -> None:
        self.n_samples = n_samples
        self.n_prototypes = n_prototypes
        self.stratified = stratified
        self.measure = measure
        self.average = average
        self.random_state = random_state

    def fit(
        self, X: Any, y: Any, *, distances: np.ndarray | None = None
    ) -> MonteCarloPrototypeSelector:
        """Draw the sets, score each on the training data, keep the first best.

        ``distances``: the (n, n) Euclidean distance matrix of X, if already computed
        (lets several selectors on the same fold share it).
        """
        from measurelab.lab.learn.mlp import _two_classes_or_more, measure_monitor

        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        k = _two_classes_or_more(self.classes_)
        m = self.n_prototypes if self.n_prototypes is not None else self.classes_.size
        rng = make_rng(self.random_state)
        sets = draw_prototype_sets(codes, self.n_samples, m, stratified=self.stratified,
                                   rng=rng)
        D = pairwise_distances(X, X) if distances is None else np.asarray(distances)
        if D.shape != (X.shape[0], X.shape[0]):
            raise MeasurelabError(f"distances must have shape {(X.shape[0],) * 2}, got {D.shape}")
        f = measure_monitor(self.measure, n_classes=k, average=self.average)
        scores: list[Any] = []
        best = None
        for i, idx in enumerate(sets):
            _, S = nearest_prototype_scores(D[:, idx], codes[idx], k)
            v = f(codes, S[:, 1] if k == 2 else S)
            scores.append(v)
            if best is None or _strictly_better(v, scores[best]):
                best = i
        assert best is not None  # at least one sampled set
        self.sampled_sets_ = sets
        self.scores_ = scores
        self.best_index_ = int(best)
        self.best_score_ = scores[best]
        self.prototypes_ = X[sets[best]]
        self.prototype_labels_ = codes[sets[best]]
        self.n_classes_ = k
        return self

    def _scores(self, X: Any) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        D = pairwise_distances(X, self.prototypes_)
        return nearest_prototype_scores(D, self.prototype_labels_, self.n_classes_)[1]

    def decision_function(self, X: Any) -> np.ndarray:
        """Binary: ``s_pos − s_neg`` = (d_neg − d_pos)/(d_pos + d_neg), > 0 iff the nearest
        prototype is positive; else the score matrix."""
        S = self._scores(X)
        return S[:, 1] - S[:, 0] if S.shape[1] == 2 else S

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class scores ``(1/d_j) / Σ_c (1/d_c)`` (rows sum to 1)."""
        return self._scores(X)

    def predict(self, X: Any) -> np.ndarray:
        """Label of the nearest prototype (distance ties: the lower class code)."""
        S = self._scores(X)
        return self.classes_[np.argmax(S, axis=1)]



def _strictly_better(a: Any, b: Any) -> bool:
    """a > b, with NaN never better and anything better than NaN."""
    try:
        if np.isnan(float(b)):
            return not np.isnan(float(a))
        if np.isnan(float(a)):
            return False
    except (TypeError, ValueError):
        pass
    return bool(a > b)
