"""Classic learners for the naive Bayes vs decision tree comparison (Ling et al. 2003).

* :class:`DiscreteNaiveBayes` — naive Bayes on discretized attributes with Laplace
  smoothing: numeric attributes cut into ``n_bins`` equal-frequency bins learnt on the
  training data, nominal ones used as they are (missing → training median / mode).
* :func:`c45_like_tree` — an entropy tree pruned by minimal cost-complexity
  (``ccp_alpha=0.005``) with at least 2 examples per leaf; scores = leaf class frequencies.
  C4.5's own error-based pruning is not in scikit-learn; this stands in for it.
* :class:`LaplaceTree` (C4.4-like, Provost & Domingos 2003) — an unpruned entropy tree
  whose leaf scores are Laplace-corrected: (n_c + 1) / (n + k), counted from the training
  examples that reach each leaf.

All expose ``fit``, ``predict_proba`` and ``predict`` (scikit-learn style), with classes
given as codes 0..k−1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from measurelab.lab.preprocess import is_nominal, most_frequent


class DiscreteNaiveBayes:
    """Naive Bayes over discretized attributes with Laplace smoothing.

    Examples
    --------
    >>> import pandas as pd, numpy as np
    >>> X = pd.DataFrame({"a": [0.1, 0.2, 0.8, 0.9], "c": ["x", "x", "y", "y"]})
    >>> nb = DiscreteNaiveBayes(n_bins=2).fit(X, np.array([0, 0, 1, 1]))
    >>> nb.predict(X).tolist()
    [0, 0, 1, 1]
    >>> nb.predict_proba(X)[0].round(3).tolist()
    [0.9, 0.1]
    """

    def __init__(self, n_bins: int = 10, alpha: float = 1.0) -> None:
        self.n_bins = n_bins
        self.alpha = alpha

    def _discretize(self, X: pd.DataFrame) -> np.ndarray:
        cols = []
        for col in self.columns_:
            s = X[col]
            if col in self.edges_:
                med, edges = self.edges_[col]
                v = pd.to_numeric(s).astype(float).fillna(med).to_numpy()
                cols.append(np.searchsorted(edges, v, side="right"))
            else:
                mode, cats = self.cats_[col]
                v = s.astype(object).where(s.notna(), mode).astype(str).to_numpy()
                lookup = {c: i for i, c in enumerate(cats)}
                cols.append(np.array([lookup.get(x, len(cats)) for x in v]))
        return np.column_stack(cols) if cols else np.zeros((len(X), 0), dtype=int)

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> DiscreteNaiveBayes:
        X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
        y = np.asarray(y, dtype=np.int64)
        self.columns_ = list(X.columns)
        self.edges_: dict[Any, tuple[float, np.ndarray]] = {}
        self.cats_: dict[Any, tuple[Any, list[str]]] = {}
        for col in self.columns_:
            s = X[col]
            if is_nominal(s):
                self.cats_[col] = (most_frequent(s), sorted(s.dropna().astype(str).unique()))
            else:
                v = pd.to_numeric(s).astype(float)
                med = float(v.median()) if v.notna().any() else 0.0
                q = np.quantile(v.fillna(med), np.linspace(0, 1, self.n_bins + 1)[1:-1])
                self.edges_[col] = (med, np.unique(q))
        Z = self._discretize(X)
        self.k_ = int(y.max()) + 1
        self.log_prior_ = np.log((np.bincount(y, minlength=self.k_) + self.alpha)
                                 / (y.size + self.alpha * self.k_))
        self.tables_ = []
        for j in range(Z.shape[1]):
            n_vals = int(Z[:, j].max()) + 2  # + an "unseen" value
            counts = np.zeros((self.k_, n_vals))
            np.add.at(counts, (y, Z[:, j]), 1.0)
            probs = (counts + self.alpha) / (counts.sum(1, keepdims=True) + self.alpha * n_vals)
            self.tables_.append(np.log(probs))
        return self

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
        Z = self._discretize(X)
        L = np.tile(self.log_prior_, (Z.shape[0], 1))
        for j, tab in enumerate(self.tables_):
            L += tab[:, np.minimum(Z[:, j], tab.shape[1] - 1)].T
        L -= L.max(axis=1, keepdims=True)
        P = np.exp(L)
        return P / P.sum(axis=1, keepdims=True)

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        return np.argmax(self.predict_proba(X), axis=1)


def c45_like_tree(random_state: int = 0, ccp_alpha: float = 0.005) -> Any:
    """The C4.5 stand-in: entropy splits, ≥ 2 examples per leaf, cost-complexity pruning.

    Examples
    --------
    >>> c45_like_tree().get_params()["criterion"]
    'entropy'
    """
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
                                  ccp_alpha=ccp_alpha, random_state=random_state)


class LaplaceTree:
    """C4.4-like: an unpruned entropy tree with Laplace-corrected leaf probabilities.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [0.1], [0.9], [1.0]]); y = np.array([0, 0, 1, 1])
    >>> LaplaceTree().fit(X, y).predict_proba(X).round(3).tolist()[0]
    [0.75, 0.25]
    """

    def __init__(self, random_state: int = 0) -> None:
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray) -> LaplaceTree:
        from sklearn.tree import DecisionTreeClassifier

        y = np.asarray(y, dtype=np.int64)
        self.k_ = int(y.max()) + 1
        self.tree_ = DecisionTreeClassifier(criterion="entropy",
                                            random_state=self.random_state).fit(X, y)
        leaves = self.tree_.apply(X)
        counts = np.zeros((self.tree_.tree_.node_count, self.k_))
        np.add.at(counts, (leaves, y), 1.0)
        self.leaf_probs_ = (counts + 1.0) / (counts.sum(1, keepdims=True) + self.k_)
        return self

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        return self.leaf_probs_[self.tree_.apply(X)]

    def predict(self, X: np.ndarray) -> np.ndarray:
        return np.argmax(self.predict_proba(X), axis=1)
