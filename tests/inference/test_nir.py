"""acc_vs_nir against scipy's exact binomial test and interval, its weights, its refusals,
and the k-class note of evaluate."""

import numpy as np
import pytest
import scipy.stats as st

import measurelab as ml
from measurelab.exceptions import MeasurelabError
from measurelab.inference import AccuracyNIRTest, acc_vs_nir


@pytest.mark.parametrize("seed", range(8))
def test_equals_scipy_binomtest(seed):
    rng = np.random.default_rng(seed)
    k = [2, 3, 5, 2, 4, 3, 2, 6][seed]
    n = [20, 50, 200, 1000, 37, 300, 9, 500][seed]
    y = rng.choice(k, n, p=rng.dirichlet(np.ones(k) * 2))
    pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    r = acc_vs_nir(y, pred)
    counts = np.bincount(y, minlength=k)
    correct = int(np.sum(y == pred))
    nir = counts.max() / n
    ref = st.binomtest(correct, n, p=nir, alternative="greater")
    assert isinstance(r, AccuracyNIRTest)
    assert r.statistic == correct / n and r.nir == nir and r.nir_class == int(counts.argmax())
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
    for level in (0.9, 0.95, 0.99):
        lo, hi = r.confidence_interval(level)
        ref_ci = st.binomtest(correct, n).proportion_ci(level, method="exact")
        assert (lo, hi) == pytest.approx((ref_ci.low, ref_ci.high), abs=1e-12)


def test_text_labels_and_caret_example():
    # caret's confusionMatrix prints P-Value [Acc > NIR] for 9 of 10 right at NIR 0.6
    r = acc_vs_nir(["a"] * 6 + ["b"] * 4, ["a"] * 5 + ["b"] * 5)
    assert r.nir_class == "a"
    assert r.pvalue == pytest.approx(st.binomtest(9, 10, 0.6, "greater").pvalue, rel=1e-12)


def test_whole_number_weights_are_frequencies():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 60)
    pred = np.where(rng.random(60) < 0.5, y, rng.integers(0, 3, 60))
    w = rng.integers(0, 4, 60)
    rep = np.repeat(np.arange(60), w)
    a, b = acc_vs_nir(y, pred, sample_weight=w), acc_vs_nir(y[rep], pred[rep])
    assert (a.correct, a.n, a.nir) == (b.correct, b.n, b.nir)
    assert a.pvalue == b.pvalue


def test_refusals():
    with pytest.raises(MeasurelabError, match=r"sample_weight holds 0\.5 at position 1.*whole"):
        acc_vs_nir([0, 1, 1], [0, 1, 0], sample_weight=[1, 0.5, 2])
    with pytest.raises(MeasurelabError, match="inconsistent numbers of examples"):
        acc_vs_nir([0, 1, 1], [0, 1])
    with pytest.raises(MeasurelabError, match="empty"):
        acc_vs_nir([], [])


def test_evaluate_k_class_notes_say_when_accuracy_does_not_beat_the_nir():
    rng = np.random.default_rng(0)
    y = rng.choice(3, 200, p=[0.5, 0.3, 0.2])
    noise = rng.dirichlet([1, 1, 1], 200)
    r = ml.evaluate(y, noise)
    t = acc_vs_nir(y, noise.argmax(axis=1))
    assert not t.beats_nir()
    assert "does not beat the no-information rate" in r.notes()["acc"]
    assert f"p = {t.pvalue:.3g}" in r.notes()["acc"]
    assert "does not beat" in r.to_frame().loc["acc", "note"]
    good = np.eye(3)[y] * 0.7 + 0.1
    assert "acc" not in ml.evaluate(y, good).notes()
    # with intervals too
    assert "acc" in ml.evaluate(y, noise, measures=["acc"], ci=0.95, n_boot=100).notes()
