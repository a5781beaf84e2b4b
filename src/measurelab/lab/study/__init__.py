"""The metric-space study of Caruana & Niculescu-Mizil (2004) at scale.

:mod:`~measurelab.lab.study.problems` (binary problems, seeded splits, preprocessing),
:mod:`~measurelab.lab.study.zoo` (learners and grids), :mod:`~measurelab.lab.study.store` (the
atomic, resumable result store), :mod:`~measurelab.lab.study.runner` (local processes or Dask)
and :mod:`~measurelab.lab.study.analysis` (normalized scores, MDS, correlations, selection).
"""

from measurelab.lab.study.runner import StudyResult, extend_study, run_study

__all__ = ["StudyResult", "extend_study", "run_study"]
