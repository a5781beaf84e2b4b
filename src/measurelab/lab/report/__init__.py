"""Reports of the lab: one page per reproduced table (:mod:`~measurelab.lab.report.page`)
and the site that links them (:mod:`~measurelab.lab.report.site`)."""
