"""The metric space of Caruana & Niculescu-Mizil (2004): normalized scores, distances
between measures, multidimensional scaling and rank correlations.

Each measure is a point whose coordinates are its (normalized) scores of many models; two
measures are close when they judge the models alike.

Normalized scores (the paper's Section 2.4): on each problem a measure's value ``v`` maps to
``(v − baseline) / (best − baseline)`` where *baseline* is the value of the model that
predicts the test set's positive rate for every case and *best* the best value any model
achieved (max for higher-is-better measures, min for lower-is-better), so baseline → 0 and
best → 1 whatever the direction; worse than baseline is negative. CAL is the exception: the
constant baseline is almost perfectly calibrated, so its baseline is replaced by the *mean*
observed CAL of the models on the problem (the paper's treatment for its per-algorithm table);
for MDS the paper either leaves CAL out of the normalized scores or includes it after scaling
every measure to mean 0 and standard deviation 1 (:func:`standardize`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from measurelab._util.validation import check_int, check_random_state
from measurelab.exceptions import MeasurelabError


def directions(specs: Mapping[str, str]) -> dict[str, bool]:
    """``{column: higher_is_better}`` of study columns mapped to registry specs.

    Examples
    --------
    >>> directions({"acc": "acc", "rms": "rms"})
    {'acc': True, 'rms': False}
    """
    from measurelab.measures.base import registry

    out = {}
    for k, v in specs.items():
        m = registry.resolve(v)[0]
        if m.target is not None:
            raise MeasurelabError(
                f"{k}: {m.name} is best {m.direction}, not at an end of its range; the "
                "metric space normalizes measures that have a direction")
        out[k] = m.higher_is_better
    return out


def baseline_scores(y_true: Any, specs: Mapping[str, str]) -> dict[str, float]:
    """The measures of the baseline model: every case scored with the positive rate.

    Examples
    --------
    >>> b = baseline_scores([0, 0, 0, 1], {"acc": "acc", "auc": "auc", "rms": "rms"})
    >>> b["acc"], b["auc"], round(b["rms"], 6) == round((0.25 * 0.75) ** 0.5, 6)
    (0.75, 0.5, True)
    """
    from measurelab.metrics.evaluation import evaluate

    y = np.asarray(y_true).astype(int)
    if y.size == 0:
        raise MeasurelabError("baseline_scores needs at least one case")
    p = np.full(y.size, y.mean())
    res = evaluate(y, p, measures=list(specs.values()))
    return {k: float(res[v]) for k, v in specs.items()}


def normalize_scores(
    values: pd.DataFrame,
    baseline: Mapping[str, float],
    higher: Mapping[str, bool],
    *,
    mean_baseline: Iterable[str] = ("cal",),
) -> pd.DataFrame:
    """Map raw values (rows = models, columns = measures) so baseline → 0 and best → 1.

    Parameters
    ----------
    values : DataFrame of raw measure values of the models of ONE problem
    baseline : the baseline model's value of each column
    higher : whether higher is better, per column
    mean_baseline : columns whose baseline is the mean observed value instead (CAL)

    Examples
    --------
    >>> v = pd.DataFrame({"acc": [0.8, 0.9, 0.7], "rms": [0.3, 0.2, 0.5]})
    >>> n = normalize_scores(v, {"acc": 0.75, "rms": 0.4}, {"acc": True, "rms": False})
    >>> n["acc"].round(6).tolist(), n["rms"].round(6).tolist()
    ([0.333333, 1.0, -0.333333], [0.5, 1.0, -0.5])
    """
    out = {}
    mean_cols = set(mean_baseline)
    for col in values.columns:
        v = values[col].astype(float)
        base = float(v.mean()) if col in mean_cols else float(baseline[col])
        top = float(v.max() if higher[col] else v.min())
        span = top - base
        out[col] = (v - base) / span if span != 0 else v * np.nan
    return pd.DataFrame(out, index=values.index)


def below_baseline(norm: pd.DataFrame, *, exclude: Iterable[str] = ("cal",)) -> pd.Series:
    """Models (rows) worse than the baseline on any measure except ``exclude``.

    Examples
    --------
    >>> n = pd.DataFrame({"acc": [0.5, -0.1], "cal": [-3.0, 0.2]})
    >>> below_baseline(n).tolist()
    [False, True]
    """
    cols = [c for c in norm.columns if c not in set(exclude)]
    return (norm[cols] < 0).any(axis=1)


def standardize(norm: pd.DataFrame) -> pd.DataFrame:
    """Each column scaled to mean 0 and (population) standard deviation 1.

    Examples
    --------
    >>> standardize(pd.DataFrame({"a": [1.0, 3.0]}))["a"].tolist()
    [-1.0, 1.0]
    """
    sd = norm.std(axis=0, ddof=0).replace(0.0, np.nan)
    return (norm - norm.mean(axis=0)) / sd


def euclidean_distances(points: pd.DataFrame) -> pd.DataFrame:
    """Euclidean distances between the ROWS of ``points`` (one row per measure).

    Examples
    --------
    >>> d = euclidean_distances(pd.DataFrame([[0, 0], [3, 4]], index=["a", "b"]))
    >>> float(d.loc["a", "b"])
    5.0
    """
    X = points.to_numpy(dtype=float)
    diff = X[:, None, :] - X[None, :, :]
    D = np.sqrt(np.nansum(diff**2, axis=2))
    return pd.DataFrame(D, index=points.index, columns=points.index)


def rank_correlation(norm: pd.DataFrame) -> pd.DataFrame:
    """Spearman rank correlation between the measures (columns) over the models (rows).

    Examples
    --------
    >>> r = rank_correlation(pd.DataFrame({"a": [1, 2, 3], "b": [1, 3, 2], "c": [3, 2, 1]}))
    >>> float(r.loc["a", "b"]), float(r.loc["a", "c"])
    (0.5, -1.0)
    """
    return norm.rank(axis=0).corr(method="pearson")


def mean_rank_correlation(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """The mean over problems of :func:`rank_correlation` (NaN entries skipped).

    Examples
    --------
    >>> a = pd.DataFrame({"x": [1, 2, 3], "y": [1, 2, 3]})
    >>> b = pd.DataFrame({"x": [1, 2, 3], "y": [3, 2, 1]})
    >>> float(mean_rank_correlation([a, b]).loc["x", "y"])
    0.0
    """
    mats = [rank_correlation(f) for f in frames]
    if not mats:
        raise MeasurelabError("mean_rank_correlation needs at least one problem")
    stack = np.stack([m.to_numpy() for m in mats])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a pair NaN on every problem
        mean = np.nanmean(stack, axis=0)
    return pd.DataFrame(mean, index=mats[0].index, columns=mats[0].columns)


def kruskal_stress(D: np.ndarray, coords: np.ndarray) -> float:
    """Kruskal's stress-1: sqrt(Σ (d_ij − ‖x_i − x_j‖)² / Σ d_ij²) over pairs i < j.

    Examples
    --------
    >>> D = np.array([[0.0, 5.0], [5.0, 0.0]])
    >>> kruskal_stress(D, np.array([[0.0, 0.0], [3.0, 4.0]]))
    0.0
    """
    D = np.asarray(D, dtype=float)
    iu = np.triu_indices_from(D, k=1)
    E = np.sqrt(((coords[:, None, :] - coords[None, :, :]) ** 2).sum(axis=2))
    den = float((D[iu] ** 2).sum())
    return float(np.sqrt(((D[iu] - E[iu]) ** 2).sum() / den)) if den > 0 else 0.0


def classical_mds(D: np.ndarray, n_components: int) -> np.ndarray:
    """Torgerson's classical scaling; negative eigenvalues (non-Euclidean input) count as 0.

    Examples
    --------
    >>> D = np.array([[0.0, 3.0, 5.0], [3.0, 0.0, 2.0], [5.0, 2.0, 0.0]])  # points 0, 3, 5
    >>> x = classical_mds(D, 1)[:, 0]
    >>> np.allclose(np.abs(x - x[0]), [0.0, 3.0, 5.0])
    True
    """
    M = np.asarray(D, dtype=float)
    n = M.shape[0]
    J = np.eye(n) - np.ones((n, n)) / n
    B = -0.5 * J @ (M**2) @ J
    w, V = np.linalg.eigh((B + B.T) / 2)
    order = np.argsort(w)[::-1][:n_components]
    return V[:, order] * np.sqrt(np.clip(w[order], 0.0, None))


def mds(D: pd.DataFrame | np.ndarray, n_components: int = 2, *,
        random_state: int = 0) -> tuple[pd.DataFrame, float]:
    """Metric MDS of a dissimilarity matrix: coordinates and Kruskal stress-1.

    scikit-learn's SMACOF, started from :func:`classical_mds` so the result is
    deterministic; ``random_state`` (an int, default 0) is handed to scikit-learn's ``MDS``.

    Examples
    --------
    >>> pts = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [1.0, 2.0]])
    >>> D = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    >>> coords, stress = mds(D, 2)
    >>> coords.shape, stress < 1e-3
    ((4, 2), True)
    """
    from sklearn.manifold import MDS

    random_state = check_random_state(random_state)
    n_components = check_int(n_components, "n_components", minimum=1)
    names = list(D.index) if isinstance(D, pd.DataFrame) else list(range(len(D)))
    M = np.asarray(D, dtype=float)
    if M.shape[0] != M.shape[1] or not np.allclose(M, M.T):
        raise MeasurelabError("mds needs a square, symmetric dissimilarity matrix")
    n_components = min(n_components, M.shape[0] - 1)
    model = MDS(n_components=n_components, metric="precomputed", init="random", n_init=1,
                random_state=random_state, max_iter=1000, eps=1e-9,
                normalized_stress="auto")
    X = model.fit_transform(M, init=classical_mds(M, n_components))
    cols = [f"dim{i + 1}" for i in range(n_components)]
    return pd.DataFrame(X, index=names, columns=cols), kruskal_stress(M, X)


def stress_curve(D: pd.DataFrame | np.ndarray, max_dim: int = 6, *,
                 random_state: int = 0) -> pd.Series:
    """Kruskal stress of MDS in 1 … ``max_dim`` dimensions (the paper's Figure 2);
    ``random_state`` as :func:`mds`.

    Examples
    --------
    >>> pts = np.random.default_rng(0).normal(size=(6, 3))
    >>> D = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    >>> s = stress_curve(D, 4)
    >>> bool(s[1] > s[3] and s[3] < 1e-3)
    True
    """
    random_state = check_random_state(random_state)
    max_dim = check_int(max_dim, "max_dim", minimum=1)
    n = np.asarray(D).shape[0]
    dims = range(1, min(max_dim, n - 1) + 1)
    return pd.Series({k: mds(D, k, random_state=random_state)[1] for k in dims},
                     name="stress")
