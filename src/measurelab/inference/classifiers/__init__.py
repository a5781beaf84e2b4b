"""Is classifier A better than B on this test set? The comparison of several models scored
on the same cases — or on two test sets — with intervals, paired tests and a verdict.

* :mod:`.compare` — :func:`compare_classifiers`, the entry: it reads the input once and
  sends it to the binary or the k-class preparation;
* :mod:`.binary` — :class:`ClassifierComparison`, two classes; :mod:`.multiclass` — k ≥ 3
  classes (:class:`MultiClassComparison`);
* :mod:`.structured` — clustered cases (``groups=``) and subgroups (``by=``), with the
  cluster-aware tests of :mod:`.clustered`;
* :mod:`.unpaired` — :func:`compare_unpaired`, two models on two test sets;
* :mod:`.net_benefit` — net benefit in a comparison (decision curves, paired differences);
* :mod:`.simulation` — :func:`simulate_power`, the power of a comparison by simulation;
* :mod:`.offered` — which interval every measure gets, per design (the catalogue the
  coverage study checks);
* the reports (private): the rows of the pair table, the summary, the page and the figures.

The engine below them (the bootstrap and its case designs, DeLong, the posterior of the
confusion cells, the interval methods and their evidence) lives beside this package in
:mod:`measurelab.inference`.
"""
