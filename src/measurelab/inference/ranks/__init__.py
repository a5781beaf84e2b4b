"""Many data sets: which classifiers rank better? (Demšar 2006.)

* :mod:`.friedman` — :func:`demsar`: average ranks, Friedman and Iman–Davenport, Nemenyi
  and Bonferroni–Dunn with the critical-difference diagram;
* :mod:`.significance` — paired t and Wilcoxon signed-rank tests over data sets,
  win/draw/loss tables;
* :mod:`.report` — the sentences and the page of a ranking (shared with the learners'
  report).
"""
