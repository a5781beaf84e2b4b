"""The interval methods: one :class:`IntervalMethod` per method, registered here, and the
choices every engine reads from the registry.

A method is one object in one module: its name, the settings it applies to (measure, two
or k classes, whole counts or weights, the design of the cases), its forms (one model, a
paired and an unpaired difference), whether it needs the bootstrap's replicates and
whether ``ci_method=`` may force it. :func:`choose` gives a value's method (the default, or
the forced one where it applies), :func:`difference_form` the method of a difference,
:func:`forceable_names` the CLI's ``--ci-method`` choices, :func:`method_table` the docs'
table. Adding a method is a new module calling :func:`register` plus its line in
the import list at
the end of this module (docs/DEVELOPING.md, "Adding an interval method").

Examples
--------
>>> choose(Setting("acc")).name, choose(Setting("sens"), "agresti-coull").name
('wilson', 'agresti-coull')
>>> difference_form(Setting("auc", kind="unpaired"), "delong-logit").name
'delong-unpaired'
"""

from __future__ import annotations

from measurelab.inference.methods._registry import (
    CASE_DESIGNS,
    Form,
    IntervalMethod,
    Setting,
    check_ci_method,
    choose,
    difference_form,
    forceable_names,
    get,
    method_table,
    methods,
    register,
    replicate_names,
)

__all__ = [
    "CASE_DESIGNS",
    "Form",
    "IntervalMethod",
    "Setting",
    "check_ci_method",
    "choose",
    "difference_form",
    "forceable_names",
    "get",
    "method_table",
    "methods",
    "register",
    "replicate_names",
]

# the shipped methods, registered in this order (the order of ``ci_method``'s choices and of
# the docs' table): a new method is a module calling ``register`` and its line here
from measurelab.inference.methods import calibration  # noqa: F401, I001
from measurelab.inference.methods import proportion  # noqa: F401
from measurelab.inference.methods import delong  # noqa: F401
from measurelab.inference.methods import bootstrap  # noqa: F401
from measurelab.inference.methods import mcnemar  # noqa: F401
from measurelab.inference.methods import net_benefit  # noqa: F401
from measurelab.inference.methods import agresti_coull  # noqa: F401
from measurelab.inference.methods import dirichlet  # noqa: F401
from measurelab.inference.methods import newcombe_auc  # noqa: F401
from measurelab.inference.methods import influence  # noqa: F401
