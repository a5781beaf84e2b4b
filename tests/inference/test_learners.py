"""compare_learners and its results (inference/learners/compare.py, learner_comparison.py,
learner_datasets.py, _learner_runs.py, _learners_report.py).

Oracles: a hand-written cross-validation loop scored by scikit-learn's metrics; a
brute-force nested cross-validation (every inner fit made by hand); baycomp's
``two_on_single`` on the fold scores (1e-9); ``demsar`` on the table of mean fold scores;
the per-case losses' mean against the registry's fold value (an identity); the same run on
a Dask cluster and locally.
"""

from __future__ import annotations

import gc
import math
import warnings
import weakref
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.metrics import accuracy_score, brier_score_loss, log_loss, roc_auc_score
from sklearn.model_selection import (
    KFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_score,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import measurelab as ml
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference.learners import _runs as runs
from measurelab.inference.learners.cvstats import corrected_t


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=90, n_features=6, flip_y=0.15, random_state=3)
    return X, y


@pytest.fixture(scope="module")
def learners():
    return {"lr": LogisticRegression(), "nb": GaussianNB(),
            "tree": DecisionTreeClassifier(max_depth=3, random_state=0)}


@pytest.fixture(scope="module")
def result(data, learners):
    X, y = data
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=1)
    return compare(learners, X, y, cv=cv, measures=["acc", "auc", "brier", "mxe"])


def compare(*args, **kwargs):
    kwargs.setdefault("progress", False)
    return ml.compare_learners(*args, **kwargs)


# -------------------------------------------------------------- fold scores
def test_fold_scores_equal_a_hand_written_loop(data, learners, result):
    X, y = data
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=1)
    f = result.fold_scores()
    assert list(f.columns) == ["learner", "measure", "repeat", "fold", "value", "n_train",
                               "n_test"]
    for s, (train, test) in enumerate(cv.split(X, y)):
        for name, est in learners.items():
            p = est.fit(X[train], y[train]).predict_proba(X[test])[:, 1]
            want = {"acc": accuracy_score(y[test], p > 0.5), "auc": roc_auc_score(y[test], p),
                    "brier": brier_score_loss(y[test], p), "mxe": log_loss(y[test], p)}
            got = f[(f.learner == name) & (f.repeat == s // 5) & (f.fold == s % 5)]
            assert got.n_train.iloc[0] == train.size and got.n_test.iloc[0] == test.size
            for m, v in want.items():
                assert got[got.measure == m].value.iloc[0] == pytest.approx(v, abs=1e-12), \
                    (name, s, m)


#: learners whose fit depends on the order of the training cases: a random forest with a
#: fixed seed (its bootstrap draws pick cases by position) and stochastic gradient descent
#: (its epochs visit the cases in a seeded permutation of their order)
ORDER_SENSITIVE = {
    "rf": lambda: RandomForestClassifier(random_state=0),
    "sgd": lambda: SGDClassifier(loss="log_loss", random_state=0),
}


@pytest.mark.parametrize("splitter", [
    StratifiedShuffleSplit(n_splits=4, test_size=0.3, random_state=0),   # train shuffled
    ShuffleSplit(n_splits=3, test_size=0.5, random_state=2),   # halves: every case used
    StratifiedKFold(n_splits=4, shuffle=True, random_state=0),   # train in case order
], ids=["stratified-shuffle", "shuffle-halves", "k-fold"])
def test_fold_scores_equal_cross_val_score_on_the_same_splitter(splitter):
    """A learner is fitted on the training cases in the order the splitter yields them,
    so its fold scores are scikit-learn's, fold by fold, even where the order matters."""
    X, y = make_classification(n_samples=150, n_features=8, flip_y=0.1, random_state=4)
    ests = {k: make() for k, make in ORDER_SENSITIVE.items()}
    r = compare(ests, X, y, cv=splitter, measures=["acc"])
    f = r.fold_scores()
    for name, est in ests.items():
        want = cross_val_score(est, X, y, cv=splitter, scoring="accuracy")
        got = f[f.learner == name].value.to_numpy()
        np.testing.assert_array_equal(got, want, err_msg=name)
    # where the splitter shuffles, sorting the training cases changes the forest's scores
    # (so the equality above is about the order, not a coincidence of these data)
    pairs = list(splitter.split(X, y))
    if all((np.diff(train) > 0).all() for train, _ in pairs):
        return
    rf = ORDER_SENSITIVE["rf"]()
    in_case_order = [accuracy_score(y[te], rf.fit(X[np.sort(tr)], y[np.sort(tr)])
                                    .predict(X[te])) for tr, te in pairs]
    assert not np.array_equal(in_case_order, f[f.learner == "rf"].value.to_numpy())


def test_values_tests_and_intervals_from_the_fold_scores(result):
    f = result.fold_scores()
    ratio = float(f.n_test.mean() / f.n_train.mean())
    v = result.values()
    t = result.tests()
    assert list(t.columns[:9]) == ["a", "b", "measure", "diff", "lo", "hi", "p", "p_holm",
                                   "method"]
    assert len(t) == 3 * 4 and set(t.method) == {"corrected-t"}
    iv = result.intervals()
    assert list(iv.columns[:6]) == ["learner", "measure", "value", "lo", "hi", "method"]
    for row in iv.itertuples():
        s = f[(f.learner == row.learner) & (f.measure == row.measure)].value.to_numpy()
        ref = corrected_t(s, test_train_ratio=ratio)
        assert (row.value, row.lo, row.hi) == pytest.approx((s.mean(), ref.lo, ref.hi))
        assert v.loc[row.measure, row.learner] == pytest.approx(s.mean())
    for row in t.itertuples():
        a = f[(f.learner == row.a) & (f.measure == row.measure)].value.to_numpy()
        b = f[(f.learner == row.b) & (f.measure == row.measure)].value.to_numpy()
        ref = corrected_t(a - b, test_train_ratio=ratio)
        assert (row.diff, row.p, row.lo, row.hi) == pytest.approx(
            (ref.estimate, ref.pvalue, ref.lo, ref.hi))
    assert t.p_holm.to_numpy() == pytest.approx(ml.inference.holm(t.p.to_numpy()))


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_bayes_equals_baycomp_two_on_single(result, rope):
    baycomp = pytest.importorskip("baycomp")
    f = result.fold_scores()
    b = result.bayes(rope=rope)
    assert list(b.columns[:6]) == ["a", "b", "measure", "p_a_better", "p_rope", "p_b_better"]
    for row in b.itertuples():
        x = f[(f.learner == row.a) & (f.measure == row.measure)].value.to_numpy()
        y = f[(f.learner == row.b) & (f.measure == row.measure)].value.to_numpy()
        if not ml.registry.get(row.measure).higher_is_better:
            x, y = -x, -y  # baycomp: the larger score is the better one
        got = baycomp.two_on_single(x, y, rope, runs=3)
        want = got if rope else (got[0], 0.0, got[1])  # rope 0: two numbers
        assert (row.p_a_better, row.p_rope, row.p_b_better) == pytest.approx(want, abs=1e-9)


def test_the_runs_are_read_from_the_splits(data, learners):
    X, y = data
    two = {k: learners[k] for k in ("lr", "nb")}
    r = compare(two, X, y, cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=4,
                                                      random_state=0), measures=["acc"])
    assert (r.n_repeats, r.n_folds) == (4, 3)
    d = r.bayes(0.01)
    f = r.fold_scores()
    x = f[f.learner == "lr"].value.to_numpy()
    z = f[f.learner == "nb"].value.to_numpy()
    ref = ml.bayes_compare(x, z, rope=0.01, method="correlated-t", runs=4)
    assert d.p_a_better.iloc[0] == pytest.approx(ref.p_a_better, abs=1e-12)
    # random subsamples are not folds: the correlated t refuses, the corrected t runs
    r = compare(two, X, y, cv=ShuffleSplit(n_splits=6, test_size=0.3, random_state=0),
                measures=["acc"])
    assert r.n_folds is None and r.tests().method.tolist() == ["corrected-t"]
    with pytest.raises(MeasurelabError, match="k-fold"):
        r.bayes(0.01)


# ---------------------------------------------------------------- per-case values
@pytest.mark.parametrize("k", [2, 3])
def test_per_case_values_average_to_the_fold_values(k):
    X, y = make_classification(n_samples=80, n_features=6, n_informative=4, n_classes=k,
                               random_state=k)
    r = compare({"lr": LogisticRegression(), "nb": GaussianNB()}, X, y, cv=4,
                measures=["acc", "err", "brier", "mxe"])
    f = r.fold_scores()
    for a, name in enumerate(r.names):
        for m in ("acc", "err", "brier", "mxe"):
            pr = r._preds[a]
            for s, test in enumerate(r._splits.tests):
                e = runs.case_values(m, pr.outer[s], pr.kind, r._target, test)
                want = f[(f.learner == name) & (f.measure == m) & (f.fold == s)].value.iloc[0]
                assert e.mean() == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_k_classes_against_scikit_learn():
    X, y = make_classification(n_samples=120, n_features=6, n_informative=4, n_classes=3,
                               random_state=5)
    labels = np.array(["ant", "bee", "cat"])[y]
    r = compare({"lr": LogisticRegression(), "nb": GaussianNB()}, X, labels,
                cv=KFold(4, shuffle=True, random_state=0), measures=["acc", "auc"])
    f = r.fold_scores()
    for s, (train, test) in enumerate(KFold(4, shuffle=True, random_state=0).split(X)):
        P = LogisticRegression().fit(X[train], labels[train]).predict_proba(X[test])
        got = f[(f.learner == "lr") & (f.fold == s)].set_index("measure").value
        assert got["acc"] == pytest.approx(accuracy_score(labels[test], P.argmax(1)
                                                          .choose(["ant", "bee", "cat"])))
        assert got["auc"] == pytest.approx(roc_auc_score(labels[test], P, multi_class="ovo"))


def test_decision_scores_and_labels(data):
    X, y = data
    r = compare({"svm": LinearSVC(), "lr": LogisticRegression()}, X, y, cv=3,
                measures=["acc", "auc"])
    f = r.fold_scores()
    from sklearn.model_selection import StratifiedKFold

    for s, (train, test) in enumerate(StratifiedKFold(3, shuffle=True, random_state=0)
                                      .split(X, y)):
        svm = LinearSVC().fit(X[train], y[train])
        got = f[(f.learner == "svm") & (f.fold == s)].set_index("measure").value
        assert got["acc"] == pytest.approx(accuracy_score(y[test], svm.predict(X[test])))
        assert got["auc"] == pytest.approx(roc_auc_score(y[test],
                                                         svm.decision_function(X[test])))
    assert r.values().index.tolist() == ["acc", "auc"]
    with pytest.raises(MeasurelabError, match="'svm' gives decision scores"):
        compare({"svm": LinearSVC(), "lr": LogisticRegression()}, X, y, cv=3,
                measures=["brier"])
    # the default measures leave out brier when a learner has no probabilities
    assert compare({"svm": LinearSVC(), "lr": LogisticRegression()}, X, y,
                   cv=3).measures == ["acc", "auc"]


class LabelsOnly(BaseEstimator, ClassifierMixin):
    """A classifier that gives labels only (no predict_proba, no decision_function)."""

    def fit(self, X, y):
        self.nb_ = GaussianNB().fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)


@pytest.mark.parametrize("pos_label", ["no", "yes"])
def test_a_learner_of_labels_only(data, pos_label):
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedKFold

    X, y = data
    text = np.where(y == 1, "yes", "no")
    r = compare({"labels": LabelsOnly(), "nb": GaussianNB()}, X, text, cv=3,
                pos_label=pos_label)
    assert r.measures == ["acc"]  # no ranking or probability measure from labels
    f = r.with_measures(["acc", "f1"]).fold_scores()
    for s, (train, test) in enumerate(StratifiedKFold(3, shuffle=True, random_state=0)
                                      .split(X, text)):
        pred = GaussianNB().fit(X[train], text[train]).predict(X[test])
        got = f[(f.learner == "labels") & (f.fold == s)].set_index("measure").value
        assert got["acc"] == pytest.approx(accuracy_score(text[test], pred))
        assert got["f1"] == pytest.approx(f1_score(text[test], pred, pos_label=pos_label))


def test_pos_label_and_text_labels(data):
    X, y = data
    text = np.where(y == 1, "yes", "no")
    a = compare({"lr": LogisticRegression(), "nb": GaussianNB()}, X, text, cv=3,
                measures=["auc", "brier"])
    b = compare({"lr": LogisticRegression(), "nb": GaussianNB()}, X, y, cv=3,
                measures=["auc", "brier"])
    pd.testing.assert_frame_equal(a.values(), b.values())
    c = compare({"lr": LogisticRegression(), "nb": GaussianNB()}, X, text, cv=3,
                measures=["auc"], pos_label="no")
    assert c.values().loc["auc"].to_numpy() == pytest.approx(a.values().loc["auc"].to_numpy())


# ------------------------------------------------------------------- nested CV
def test_nested_cv_equals_a_brute_force_nested_loop():
    X, y = make_classification(n_samples=48, n_features=4, flip_y=0.2, random_state=2)
    cv = RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=3)
    ests = {"lr": LogisticRegression(), "nb": GaussianNB()}
    r = compare(ests, X, y, cv=cv, method="nested-cv", measures=["err", "auc", "brier"])
    folds = np.empty((2, 48), dtype=int)
    splits = list(cv.split(X, y))
    for s, (_train, test) in enumerate(splits):
        folds[s // 4, test] = s % 4
    losses = {}
    for name, est in ests.items():
        for m in ("err", "brier"):
            outer = np.empty((2, 48))
            inner = np.full((2, 48, 4), np.nan)
            for rep in range(2):
                for k in range(4):
                    test = np.flatnonzero(folds[rep] == k)
                    p = est.fit(X[folds[rep] != k], y[folds[rep] != k]).predict_proba(
                        X[test])[:, 1]
                    outer[rep, test] = (p > 0.5) != y[test] if m == "err" else (p - y[test])**2
                for k1, k2 in combinations(range(4), 2):
                    keep = (folds[rep] != k1) & (folds[rep] != k2)
                    p = est.fit(X[keep], y[keep]).predict_proba(X)[:, 1]
                    e = (p > 0.5) != y if m == "err" else (p - y) ** 2
                    for own, other in ((k1, k2), (k2, k1)):
                        idx = folds[rep] == own
                        inner[rep, idx, other] = e[idx]
            losses[name, m] = (outer, inner)
    iv = r.intervals().set_index(["learner", "measure"])
    for (name, m), (outer, inner) in losses.items():
        ref = ml.inference.nested_cv_interval(outer, inner, folds)
        row = iv.loc[(name, m)]
        assert row["method"] == "nested-cv"
        assert (row["value"], row["lo"], row["hi"]) == pytest.approx((ref.estimate, ref.lo,
                                                                      ref.hi), rel=1e-12)
    t = r.tests().set_index("measure")
    (oa, ia), (ob, ib) = losses["lr", "err"], losses["nb", "err"]
    ref = ml.inference.nested_cv_interval(oa - ob, ia - ib, folds)
    assert (t.loc["err", "lo"], t.loc["err", "hi"], t.loc["err", "p"]) == pytest.approx(
        (ref.lo, ref.hi, ref.pvalue), rel=1e-12)
    # auc is not a mean over cases: the corrected t, and the rows say so
    assert t.loc["auc", "method"] == "corrected-t" and "nested CV" in t.loc["auc", "note"]
    assert "auc used the corrected t" in r.summary()


def test_nested_cv_needs_folds(data, learners):
    X, y = data
    with pytest.raises(MeasurelabError, match="nested-cv"):
        compare(learners, X, y, cv="5x2", method="nested-cv", measures=["acc"])
    with pytest.raises(MeasurelabError, match="5x2cv"):
        compare(learners, X, y, cv=3, method="5x2cv", measures=["acc"])


# ------------------------------------------------------------- no refit, no X
class Counting(BaseEstimator, ClassifierMixin):
    """GaussianNB that counts its fits (in the parent process: n_jobs=None)."""

    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        self.nb_ = GaussianNB().fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict_proba(self, X):
        return self.nb_.predict_proba(X)

    def predict(self, X):
        return self.nb_.predict(X)


def test_a_new_measure_never_refits_and_x_is_not_kept():
    X, y = make_classification(n_samples=60, random_state=0)
    Counting.fits = 0
    ref = weakref.ref(X)
    r = compare({"c": Counting(), "lr": LogisticRegression()}, X, y, cv="5x2",
                measures=["acc"])
    assert Counting.fits == 10
    del X
    gc.collect()
    assert ref() is None  # the result holds the fold predictions, not the data
    more = r.with_measures(["f1", "mcc", "auc"])
    assert Counting.fits == 10 and more.measures == ["f1", "mcc", "auc"]
    assert more.tests().method.unique().tolist() == ["5x2cv-paired-t", "5x2cv-combined-F"]


def test_the_same_numbers_with_n_jobs(data, learners):
    from joblib import parallel_config

    X, y = data
    one = compare(learners, X, y, cv=4, measures=["acc", "auc"])
    with parallel_config(backend="threading"):  # joblib's route without starting processes
        two = compare(learners, X, y, cv=4, measures=["acc", "auc"], n_jobs=2)
    pd.testing.assert_frame_equal(one.fold_scores(), two.fold_scores())


def test_the_same_numbers_on_a_dask_cluster(data, learners, dask_cluster):
    X, y = data
    local = compare(learners, X, y, cv=4, measures=["acc", "auc"])
    far = compare(learners, X, y, cv=4, measures=["acc", "auc"],
                  scheduler=dask_cluster.scheduler_address)
    pd.testing.assert_frame_equal(local.fold_scores(), far.fold_scores())
    with pytest.raises(MeasurelabError, match="cannot reach the Dask scheduler"):
        compare(learners, X, y, cv=4, scheduler="tcp://127.0.0.1:1")


# ------------------------------------------------------------------ many data sets
@pytest.mark.filterwarnings("ignore::measurelab.exceptions.UndefinedMeasureWarning")
def test_many_data_sets_ranks_and_tables():  # (separable data: equal folds warn)
    data = {f"d{i}": make_classification(n_samples=50, n_features=5, random_state=i)
            for i in range(4)}
    ests = {"nb": GaussianNB(), "prior": DummyClassifier(), "lr": LogisticRegression()}
    r = compare(ests, datasets=data, cv=3, measures=["acc", "brier"])
    assert isinstance(r, ml.inference.LearnerComparisonOverDatasets)
    f = r.fold_scores()
    assert list(f.columns[:3]) == ["dataset", "learner", "measure"] and len(f) == 4 * 3 * 2 * 3
    table = f[f.measure == "brier"].groupby(["dataset", "learner"]).value.mean().unstack()
    want = ml.demsar(table[["nb", "prior", "lr"]], higher_is_better=False)
    got = r.ranks("brier")
    pd.testing.assert_series_equal(got.avg_ranks, want.avg_ranks, check_names=False,
                                   check_index_type=False)
    assert got.friedman.pvalue == pytest.approx(want.friedman.pvalue)
    t = r.tests()
    assert t.dataset.unique().tolist() == ["d0", "d1", "d2", "d3"]
    for name, g in t.groupby("dataset"):
        assert g.p_holm.to_numpy() == pytest.approx(ml.inference.holm(g.p.to_numpy()))
        assert g.reset_index(drop=True).drop(columns="dataset").equals(
            r.comparisons[name].tests())
    per = r.bayes(0.01, method="correlated-t")
    assert per.columns[0] == "dataset" and len(per) == 4 * 3 * 2
    lines = r.summary().splitlines()
    assert lines[0].startswith("3 learners on 4 data sets")
    assert any(s.startswith("brier: Average ranks") for s in lines)


def test_hierarchical_model_gets_data_sets_by_folds(monkeypatch):
    from measurelab.inference import bayes as bayes_module

    real, seen = bayes_module.bayes_compare, []

    def spy(a, b, **kw):
        seen.append((np.array(a), np.array(b), kw))
        return real(np.mean(a, axis=1), np.mean(b, axis=1),
                    **{**kw, "method": "signed-rank", "runs": 1})

    monkeypatch.setattr(bayes_module, "bayes_compare", spy)
    data = {f"d{i}": make_classification(n_samples=60, n_features=5, random_state=i)
            for i in range(3)}
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    r = compare({"nb": GaussianNB(), "prior": DummyClassifier()}, datasets=data, cv=cv,
                measures=["acc", "brier"])
    b = r.bayes({"acc": 0.01, "brier": 0.005})
    assert list(b.columns) == ["a", "b", "measure", "p_a_better", "p_rope", "p_b_better",
                               "verdict"]
    f = r.fold_scores()
    for (a, z, kw), m in zip(seen, ("acc", "brier"), strict=True):
        assert kw["method"] == "hierarchical" and kw["runs"] == 2
        assert kw["higher_is_better"] is (m == "acc") and kw["rope"] == {"acc": 0.01,
                                                                          "brier": 0.005}[m]
        want = f[(f.learner == "nb") & (f.measure == m)].value.to_numpy().reshape(3, 6)
        assert np.array_equal(a, want) and z.shape == (3, 6)


@pytest.mark.slow
def test_hierarchical_verdicts_over_data_sets():
    pytest.importorskip("numpyro")
    g = np.random.default_rng(0)
    data = {f"d{i}": make_classification(n_samples=60, n_features=5, flip_y=0.1,
                                         random_state=int(g.integers(1000))) for i in range(5)}
    r = compare({"nb": GaussianNB(), "prior": DummyClassifier()}, datasets=data, cv=4,
                measures=["acc"])
    b = r.bayes(0.01, n_samples=800, n_warmup=300, chains=2)
    assert b.iloc[0][["p_a_better", "p_rope", "p_b_better"]].sum() == pytest.approx(1.0)
    assert b.verdict.iloc[0] == "a better"  # naive Bayes against guessing the prior


# --------------------------------------------------------------------- pages
def test_summary_plot_and_page(tmp_path, result):
    text = result.summary()
    assert text.splitlines()[0] == ("3 learners, 5-fold cross-validation repeated 3 times "
                                    "(15 folds) of 90 cases in 2 classes.")
    assert len(text.splitlines()) == 1 + 3  # a sentence per pair
    fig = result.plot()
    assert len(fig.axes) == 2 * 4
    p = result.to_html(tmp_path / "learners.html")
    page = p.read_text()
    from measurelab import pages

    assert pages.STYLESHEET in page and "Bayesian verdicts" in page
    for suffix in (".json", "-folds.csv", "-folds.png"):
        assert p.with_name("learners" + suffix).exists()
    assert not p.with_name("learners-folds.svg").exists()  # one format, drawn once
    folds = pd.read_csv(p.with_name("learners-folds.csv"))
    assert len(folds) == len(result.fold_scores())
    assert "measurelab-learners" in result._repr_html_()
    assert "Bayesian" not in result.to_html(rope=None)


def test_the_5x2cv_table_and_summary_state_their_centre(data, learners):
    """diff is the mean of the ten fold differences; centre is what the row's statistic
    and interval are centred on: the first fold's difference for the paired t (read from
    the fold scores), the mean for the combined F and the corrected t."""
    X, y = data
    two = {k: learners[k] for k in ("lr", "tree")}
    r = compare(two, X, y, cv="5x2", measures=["acc", "brier"])
    f = r.fold_scores()
    t = r.tests()
    assert list(t.columns) == ["a", "b", "measure", "diff", "lo", "hi", "p", "p_holm",
                               "method", "centre", "statistic", "df", "note"]
    for row in t.itertuples(index=False):
        a = f[(f.learner == row.a) & (f.measure == row.measure)].sort_values(["repeat", "fold"])
        b = f[(f.learner == row.b) & (f.measure == row.measure)].sort_values(["repeat", "fold"])
        d = a.value.to_numpy() - b.value.to_numpy()
        assert row.diff == pytest.approx(d.mean(), abs=1e-15)
        want = d[0] if row.method == "5x2cv-paired-t" else d.mean()
        assert row.centre == pytest.approx(want, abs=1e-15), row.method
        if row.method == "5x2cv-paired-t":  # the t is the centre over its standard error
            grid = d.reshape(5, 2)
            s2 = ((grid - grid.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
            assert row.statistic == pytest.approx(d[0] / math.sqrt(s2.mean()), rel=1e-12)
    assert not np.allclose(t.loc[t.method == "5x2cv-paired-t", "centre"],
                           t.loc[t.method == "5x2cv-paired-t", "diff"])
    text = r.summary()
    assert "centred on the first fold's difference" in text
    # the corrected t's centre is its diff
    k = compare(two, X, y, cv=5, measures=["acc"]).tests()
    assert (k["centre"] == k["diff"]).all()


def test_print_gives_the_answer_then_where_the_tables_are(result):
    lines = str(result).splitlines()
    assert lines[0] == ("LearnerComparison of 3 learners (lr, nb, tree) by 5-fold "
                        "cross-validation repeated 3 times (15 folds) of 90 cases in 2 "
                        "classes; 95% intervals, corrected t")
    assert lines[1:-1] == result.summary().splitlines()[1:]
    assert lines[-1].startswith("Tables: .fold_scores() .values() .intervals() .tests()")
    assert repr(result) == str(result)


def test_the_ranks_command_reads_the_fold_scores(tmp_path, capsys):
    from measurelab.cli import main

    data = {f"d{i}": make_classification(n_samples=50, n_features=5, random_state=i)
            for i in range(3)}
    r = compare({"nb": GaussianNB(), "prior": DummyClassifier()}, datasets=data, cv=3,
                measures=["acc"])
    path = tmp_path / "folds.csv"
    r.fold_scores().to_csv(path, index=False)
    assert main(["ranks", str(path), "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["avg_ranks"] == pytest.approx(r.ranks("acc").avg_ranks.to_dict())
    assert out["columns"]["fold"] == "fold" and out["columns"]["run"] == "repeat"


# ------------------------------------------------------------------- refusals
def test_refusals(data, learners):
    X, y = data
    with pytest.raises(MeasurelabTypeError, match="mapping"):
        compare([GaussianNB()], X, y)
    with pytest.raises(MeasurelabError, match="two or more"):
        compare({"nb": GaussianNB()}, X, y)
    with pytest.raises(MeasurelabTypeError, match="not a scikit-learn estimator"):
        compare({"nb": GaussianNB(), "x": "tree"}, X, y)
    with pytest.raises(MeasurelabError, match="not both"):
        compare(learners, X, y, datasets={"a": (X, y), "b": (X, y)})
    with pytest.raises(MeasurelabError, match="method must be one of"):
        compare(learners, X, y, method="t-test")
    with pytest.raises(MeasurelabError, match="X has 90 rows but y has 89"):
        compare(learners, X, y[:-1])
    with pytest.raises(MeasurelabError, match="one class"):
        compare(learners, X, np.zeros(90))
    with pytest.raises(MeasurelabError, match="group 0 is in both"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: KFold ignores groups
        compare(learners, X, y, cv=KFold(3), groups=np.arange(90) % 2, measures=["acc"])
    with pytest.raises(MeasurelabError, match="measures: 'acc' is given twice"):
        compare(learners, X, y, measures=["acc", "accuracy"])
    with pytest.raises(MeasurelabError, match="no value for 'auc'"):
        compare(learners, X, y, cv=3, measures=["acc", "auc"]).bayes({"acc": 0.01})
    with pytest.raises(MeasurelabError, match="split 1: case"):
        compare(learners, X, y, cv=[(np.arange(50), np.arange(40, 90))])


def test_groups_stay_apart(data):
    X, y = data
    groups = np.arange(90) // 3
    r = compare({"prior": DummyClassifier(), "nb": GaussianNB()}, X, y, groups=groups,
                measures=["acc"])
    assert (r.n_repeats, r.n_folds) == (10, 10)
    for test in r._splits.tests:
        assert not set(groups[test]) & set(np.delete(groups, test))


def test_an_undefined_fold_warns_and_gives_nan():
    X, y = make_classification(n_samples=60, weights=[0.8], flip_y=0, random_state=0)
    neg, pos = np.flatnonzero(y == 0), np.flatnonzero(y == 1)
    tests = [neg[:15], np.r_[neg[15:25], pos[:3]]]  # the first has no positive
    cv = [(np.setdiff1d(np.arange(60), t), t) for t in tests]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = compare({"lr": LogisticRegression(), "nb": GaussianNB()}, X, y, cv=cv,
                    measures=["auc"])
        t = r.tests()
    assert any("undefined on 1 of 2 folds" in str(x.message) for x in w)
    assert math.isnan(t.p.iloc[0]) and math.isnan(t.p_holm.iloc[0])


# ------------------------------------------------------------ a small size study
def test_size_small_simulation():
    """Two learners of equal expected performance (one randomized tree, two seeds drawn
    anew) on data sets drawn anew: every offered test rejects at 0.05 about 5% of the time
    (the full study is benchmarks/learners_study.py, docs/learners_study.md). With 30 data
    sets a test at its level rejects 6 or more times with probability 0.003."""
    from scipy import stats

    g = np.random.default_rng(2024)
    counts: dict[str, int] = {}
    plain = corrected = 0
    for _ in range(30):
        X, y = make_classification(n_samples=80, n_features=6, n_informative=3,
                                   flip_y=0.05, random_state=int(g.integers(2**31 - 1)))
        ests = {k: DecisionTreeClassifier(max_features="sqrt", min_samples_leaf=5,
                                          random_state=int(g.integers(2**31 - 1)))
                for k in ("a", "b")}
        seed = int(g.integers(2**31 - 1))
        runs5 = compare(ests, X, y, cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=2,
                                                               random_state=seed),
                        method="nested-cv", measures=["acc", "auc"])
        runs2 = compare(ests, X, y, cv="5x2", random_state=seed, measures=["acc", "auc"])
        for t in (runs5.tests(), runs2.tests()):
            for row in t.itertuples():
                key = f"{row.method} {row.measure}"
                counts[key] = counts.get(key, 0) + int(row.p < 0.05)
        f = runs5.fold_scores()
        d = (f[(f.learner == "a") & (f.measure == "auc")].value.to_numpy()
             - f[(f.learner == "b") & (f.measure == "auc")].value.to_numpy())
        corrected += int(corrected_t(d, test_train_ratio=0.25).pvalue < 0.05)
        plain += int(stats.ttest_1samp(d, 0.0).pvalue < 0.05)
    assert set(counts) == {"nested-cv acc", "corrected-t auc", "5x2cv-paired-t acc",
                           "5x2cv-combined-F acc", "5x2cv-paired-t auc",
                           "5x2cv-combined-F auc"}
    assert max(counts.values()) <= 5, counts
    assert plain >= corrected  # the plain t's smaller standard error: an identity


@pytest.mark.parametrize(("option", "value", "message"), [
    ("ci", "0.9", "ci must be a number in (0, 1)"),
    ("ci", 1.5, "ci must be in (0, 1)"),
    ("n_jobs", 0, "n_jobs"),
    ("progress", "yes", "progress"),
    ("random_state", -1, "random_state"),
    ("scheduler", 5, "scheduler must be a Dask scheduler address"),
    ("cv", "10", "cv must be None, '5x2'"),
    ("cv", 1, "cv=1 folds"),
    ("measures", ["nope"], "nope"),
    ("measures", [], "measures is empty"),
    ("pos_label", 7, "pos_label=7 is not a label of y"),
])
def test_bad_options_are_refused_naming_them(data, option, value, message):
    X, y = data
    with pytest.raises(MeasurelabError) as e:
        compare({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y, **{option: value})
    assert message in str(e.value) and "\n" not in str(e.value)
