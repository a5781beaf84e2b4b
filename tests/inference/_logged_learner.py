"""A learner that writes a line to a log file at every fit and takes its time, for the
test that kills a run mid-way (tests/inference/test_learner_resume.py)."""

from __future__ import annotations

import os
import time

from sklearn.naive_bayes import GaussianNB


class LoggedNB(GaussianNB):
    """Gaussian naive Bayes that appends one line to ``$ML_FIT_LOG`` per fit and sleeps
    ``$ML_FIT_SLEEP`` seconds first."""

    def fit(self, X, y, sample_weight=None):  # type: ignore[override]
        time.sleep(float(os.environ.get("ML_FIT_SLEEP", "0")))
        log = os.environ.get("ML_FIT_LOG")
        if log:
            with open(log, "a") as fh:
                fh.write(f"{os.getpid()}\n")
        return super().fit(X, y, sample_weight=sample_weight)
