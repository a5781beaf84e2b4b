"""Multi-label models on two different test sets (compare_unpaired with (n, L) y_true):
each side's values are the multi-label evaluate's (and scikit-learn's), the difference's
bootstrap comes from two independent case bootstraps (its spread is the two sides' spreads
added in quadrature, checked against a brute-force scikit-learn bootstrap), the p-value
agrees with the interval, and bad input is refused in one line."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import measurelab as ml
from measurelab.exceptions import MeasurelabError

pytestmark = pytest.mark.filterwarnings("ignore::measurelab.UndefinedMeasureWarning")


def sets(na=90, nb=70, L=4, seed=0):
    g = np.random.default_rng(seed)
    Ya, Yb = g.random((na, L)) < 0.4, g.random((nb, L)) < 0.4
    Sa = np.round(np.clip(0.45 * Ya + 0.6 * g.random((na, L)), 0, 1), 2)
    Sb = np.round(np.clip(0.25 * Yb + 0.75 * g.random((nb, L)), 0, 1), 1)  # ties
    return Ya, Sa, Yb, Sb


MEASURES = ["subset_acc", "hamming_loss", "f1", "jaccard", "auc", "ap", "lrap",
            "ranking_loss"]


@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "samples", None])
def test_values_are_each_test_sets_multilabel_evaluate(average):
    Ya, Sa, Yb, Sb = sets()
    wa = np.linspace(0.5, 2, len(Ya))
    r = ml.compare_unpaired(Ya, Sa, Yb, Sb, measures=MEASURES, average=average, n_boot=100,
                            sample_weight_a=wa)
    v = r.values()
    for col, (Y, S, w) in (("a", (Ya, Sa, wa)), ("b", (Yb, Sb, None))):
        e = ml.evaluate(Y, S, measures=MEASURES, average=average, sample_weight=w)
        for m in MEASURES:
            got = np.atleast_1d(e[m])
            rows = [m] if len(got) == 1 else [f"{m}[{j}]" for j in range(Y.shape[1])]
            np.testing.assert_allclose(v.loc[rows, col].to_numpy(), got, rtol=0, atol=1e-12)
    t = r.tests()
    np.testing.assert_allclose(t["diff"], (v["a"] - v["b"]).loc[t["measure"]], atol=1e-12)


def test_values_equal_scikit_learn_and_predict_proba_lists_are_read():
    Ya, Sa, Yb, Sb = sets(seed=1)
    proba_b = [np.c_[1 - Sb[:, j], Sb[:, j]] for j in range(Sb.shape[1])]
    r = ml.compare_unpaired(Ya, Sa, Yb, proba_b, measures=["f1", "auc"], n_boot=100)
    v = r.values()
    for col, Y, S in (("a", Ya, Sa), ("b", Yb, Sb)):
        assert v.loc["f1", col] == pytest.approx(
            skm.f1_score(Y, S > 0.5, average="macro", zero_division=0), abs=1e-12)
        assert v.loc["auc", col] == pytest.approx(skm.roc_auc_score(Y, S), abs=1e-12)


def test_difference_spread_adds_the_two_sides_in_quadrature():
    """The unpaired bootstrap SE of a − b ≈ sqrt(SE_a² + SE_b²), each side's SE from a
    brute-force case bootstrap of scikit-learn's value on that test set alone."""
    Ya, Sa, Yb, Sb = sets(na=150, nb=110, seed=2)
    B = 1000
    r = ml.compare_unpaired(Ya, Sa, Yb, Sb, measures=["f1", "subset_acc"], n_boot=B,
                            random_state=3)
    g = np.random.default_rng(7)

    def se(Y, S, fn):
        n = len(Y)
        return np.std([fn(Y[i], S[i]) for i in (g.integers(0, n, n) for _ in range(B))],
                      ddof=1)

    f1 = lambda Y, S: skm.f1_score(Y, S > 0.5, average="macro", zero_division=0)  # noqa: E731
    acc = lambda Y, S: skm.accuracy_score(Y, S > 0.5)  # noqa: E731
    t = r.tests().set_index("measure")
    for m, fn in (("f1", f1), ("subset_acc", acc)):
        want = np.hypot(se(Ya, Sa, fn), se(Yb, Sb, fn))
        # each SE from 1000 replicates has ~2.2% Monte Carlo error
        assert t.loc[m, "se"] == pytest.approx(want, rel=0.12)


def test_p_value_agrees_with_the_interval_and_holm_runs_over_rows():
    Ya, Sa, Yb, Sb = sets(seed=4)
    r = ml.compare_unpaired(Ya, Sa, Yb, Sb, measures=["f1", "auc", "lrap", "jaccard"],
                            average=None, n_boot=300)
    t = r.tests()
    outside = (t["lo"] > 0) | (t["hi"] < 0)
    assert ((t["p"] < 0.05) == outside).all()
    ranked = np.sort(t["p"].to_numpy())
    holm = np.maximum.accumulate(np.minimum(1, ranked * np.arange(len(t), 0, -1)))
    np.testing.assert_allclose(np.sort(t["p_holm"].to_numpy()), holm, atol=1e-12)
    assert (t["method"] == "bootstrap").all()
    # no coverage study of the unpaired multi-label difference yet: the column says so
    assert t["interval"].str.endswith("(no coverage evidence)").all()
    one = ml.compare_unpaired(Ya[:, 0], Sa[:, 0], Yb[:, 0], Sb[:, 0], n_boot=100,
                              measures=["f1"])
    assert t.columns.tolist() == one.tests().columns.tolist()


def test_result_prints_an_answer_and_pickles():
    Ya, Sa, Yb, Sb = sets(seed=5)
    r = ml.compare_unpaired(Ya, Sa, Yb, Sb, measures=["f1", "auc"], n_boot=200,
                            names=("ours", "published"))
    text = str(r)
    assert text.startswith("MultiLabelUnpairedComparison of ours (on 90 cases) and "
                           "published (on 70 cases), multi-label with 4 labels")
    assert "ours is better than published on" in r.summary()
    s = pickle.loads(pickle.dumps(r))
    assert s.tests().equals(r.tests()) and s.values().equals(r.values())
    assert set(r.intervals()["model"]) == {"ours", "published"}
    assert set(r.to_dict()["models"]) == {"ours", "published"}


def test_refusals_are_one_line():
    Ya, Sa, Yb, Sb = sets()
    cases = [
        (dict(y_b=Yb[:, :3], s_b=Sb[:, :3]),
         "y_a has 4 labels but y_b has 3; an unpaired multi-label comparison needs the "
         "same L labels in both test sets"),
        (dict(s_b=Sb[:, :3]), "y_score of model 'b' has 3 columns but y_true has 4 labels"),
        (dict(groups_a=np.arange(90), groups_b=np.arange(70)),
         "groups_a/groups_b do not apply to multi-label input yet"),
        (dict(stratify=True), "stratify=True does not apply to multi-label input"),
    ]
    for kw, message in cases:
        args = dict(y_a=Ya, s_a=Sa, y_b=Yb, s_b=Sb)
        args.update({k: kw.pop(k) for k in list(kw) if k in args})
        with pytest.raises(MeasurelabError) as e, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ml.compare_unpaired(args["y_a"], args["s_a"], args["y_b"], args["s_b"],
                                n_boot=100, **kw)
        assert str(e.value).startswith(message) and "\n" not in str(e.value)
    import pandas as pd

    with pytest.raises(MeasurelabError, match=r"^y_a's labels \['p', 'q', 'r', 's'\] differ "
                                              r"from y_b's \['p', 'q', 's', 'r'\]"):
        ml.compare_unpaired(pd.DataFrame(Ya, columns=list("pqrs")), Sa,
                            pd.DataFrame(Yb, columns=list("pqsr")), Sb, n_boot=100)
