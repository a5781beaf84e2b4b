"""The lab: what measurelab does with its own library, built on its public API only.

* :mod:`~measurelab.lab.experiments` — one module per paper; ``measurelab reproduce NAME``
  runs one and sets the paper's numbers beside ours;
* :mod:`~measurelab.lab.study` — resumable studies over many data sets, models and
  measures;
* :mod:`~measurelab.lab.learn` — learning with measures: training stopped by a measure,
  prototype selection by a measure, model selection by a measure, seeded CV;
* :mod:`~measurelab.lab.report` — the pages and the site of the reproductions;
* :mod:`~measurelab.lab.preprocess` — the discretization and encodings the papers' models
  need.

Nothing in the library imports the lab.
"""
