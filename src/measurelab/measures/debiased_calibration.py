"""Deprecated: moved to :mod:`measurelab.measures.calibration.debiased` (names read from here
warn with :class:`~measurelab.exceptions.MeasurelabDeprecationWarning`)."""

from measurelab._util.lazy import moved_face

__getattr__, __dir__ = moved_face("measurelab.measures.debiased_calibration",
                                  "measurelab.measures.calibration.debiased")
