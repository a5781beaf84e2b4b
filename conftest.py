"""Fixtures for every test and doctest (tests/ and the doctests in src/)."""

from __future__ import annotations

import contextlib
import doctest
import inspect
import io
import os
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

# figures are drawn off screen in tests and doctests (and in the interpreters they start):
# the test session chooses the backend, the library never does
os.environ.setdefault("MPLBACKEND", "Agg")

#: Left out of doctest collection: the generated per-measure functions, whose docstrings
#: (attached from the registry on import) show their formulas' examples, which run as
#: doctests of the formulas (tests/metrics/test_functions.py checks that), so once.
collect_ignore = ["src/measurelab/metrics/_measures.py"]

#: Tests (node-id prefixes) that take more than about 2 s on a quiet 2-core machine
#: (``pytest --durations``, docs/DEVELOPING.md "Tests"): marked ``slow``, so ``make test``
#: runs them and ``make test-fast`` leaves them out. Listed here rather than decorated so
#: that a parameter, a doctest or a whole file can be named.
SLOW = (
    # NumPyro's hierarchical model: JAX compiles and samples 4 chains
    "tests/inference/test_bayes.py::test_hierarchical_clearly_better",
    "tests/inference/test_bayes.py::test_hierarchical_equivalent",
    "tests/inference/test_bayes.py::test_hierarchical_same_seed_same_answer",
    "tests/inference/test_bayes.py::test_hierarchical_runs_and_constant_data_sets",
    "tests/inference/test_bayes.py::test_plot_hierarchical",
    "tests/inference/test_learners.py::test_hierarchical_verdicts_over_data_sets",
    # simulations: the studies' small versions, coverage, size and power (the harnesses'
    # tiny tests and test_intervals' fast coverage check stay in make test-fast)
    "tests/inference/test_coverage.py::test_coverage_small",
    "tests/inference/test_coverage.py::test_population_matches_exact",
    "tests/inference/test_coverage.py::test_calibrated_generator",
    "tests/inference/test_coverage.py::test_verdict_reaches_the_library",
    "tests/inference/test_calibration_inference.py::test_a_small_calibration_study",
    "tests/inference/test_calibration_inference.py::test_calibration_test_holds_its_level",
    "tests/inference/test_decisions_study.py::",
    "tests/inference/test_learners.py::test_size_small_simulation",
    "tests/inference/test_intervals.py::test_tango_interval_covers_where_the_conditional",
    # property tests over many drawn cases
    "tests/stats/test_block.py::test_block_equals_scalar_hypothesis",
    "tests/stats/test_merge_property.py::test_chunks_in_any_order_equal_whole",
    "tests/inference/test_intervals.py::test_tango_interval_equals_its_definition",
    "tests/inference/test_intervals.py::test_bounded_interval_ends_stay_in_range_and_rest",
    "tests/inference/test_intervals.py::test_threads_give_the_replicates_of_one_thread",
    "tests/metaeval/test_pairs.py::test_compiled_route_equals_brute_force",
    "src/measurelab/metaeval/consistency.py::measurelab.metaeval.consistency.compare_on_ranked",
    "tests/_kernels/test_fused.py::test_fused_and_numpy_routes_agree_on_every_measure",
    "tests/_kernels/test_calibration_kernels.py::test_loess_fits_and_ici_family_agree",
    "tests/_kernels/test_calibration_kernels.py::test_smece_grid_is_equal_bit_for_bit",
    # oracles that refit (mlxtend's 5x2cv) or loop by hand
    "tests/inference/test_cvstats.py::test_5x2cv_equals_mlxtend_on_the_same_splits",
    "tests/inference/test_learners.py::test_fold_scores_equal_a_hand_written_loop",
    "tests/metrics/test_scorers.py::test_a_fold_of_one_class_needs_the_positive_class_or",
    # the guides' examples (hundreds of fits)
    "tests/docs/test_comparing.py::",
    "tests/docs/test_calibration.py::test_calibration_examples_run",
    "tests/docs/test_decisions_docs.py::test_examples_run[POWER.md]",
    "tests/inference/test_bayes.py::test_bayesian_guide_examples_run",
    # pages and figures rendered in full
    "tests/inference/test_comparison_page.py::",
    "tests/inference/test_classifiers.py::test_plot_and_html",
    "tests/inference/test_figures.py::test_multiclass_html_has_figures_before_tables",
    "tests/inference/test_figures.py::test_html_png_decodes",
    "tests/inference/test_figures.py::test_to_html_creates_missing_folder",
    "tests/inference/test_decision.py::test_plot_and_page",
    "tests/inference/test_learners.py::test_summary_plot_and_page",
    "tests/test_pages.py::test_comparison_demsar_reproduction_and_evaluation_pages_share",
    "tests/hardening/test_api.py::test_names_are_drawn_literally[",
    "tests/hardening/test_api.py::test_entry_point_refuses_bad_parameters[ClassifierCompar",
    "tests/hardening/test_api.py::test_pages_escape_names",
    "src/measurelab/inference/classifiers/binary.py::measurelab.inference.classifiers.binary"
    ".ClassifierComparison.to_html",
    # command lines with bootstrap intervals at their default sizes
    "tests/cli/test_compare_multiclass.py::test_ci_json_equals_the_api",
    "tests/cli/test_evaluate_models.py::test_ci_json_equals_the_api",
    "tests/cli/test_versus.py::test_versus_defaults_to_intervals_and_equals_the_api",
    # fresh interpreters: a route chosen in a cold process, scikit-learn's private classes,
    # an unreachable scheduler waited out (5 s each)
    "tests/_kernels/test_fused.py::test_route_depends_on_the_table_alone",
    "tests/test_layout.py::test_no_scikit_learn_private_class_is_subclassed",
    "tests/test_bad_inputs.py::test_unreachable_scheduler_fails_within_seconds",
    # the study runner: a reference study, real processes killed, resumed, run together
    "tests/lab/study/test_runner.py::",
    "tests/lab/study/test_store.py::",
    "src/measurelab/lab/study/analysis.py::measurelab.lab.study.analysis.analyze",
    # the demo, the reproductions and their reports
    "tests/cli/test_demo.py::test_demo_writes_report_and_agrees_with_sklearn",
    "src/measurelab/cli/demo.py::measurelab.cli.demo.run_demo",
    "tests/inference/test_classifiers.py::test_demo_comparison_section",
    "tests/lab/report/test_site.py::",
    "tests/papers/test_huang2007_ann.py::test_report_verdicts_follow_the_rule",
    "tests/papers/test_huang2007_ann.py::test_tiny_run_tables_and_resume",
    "tests/papers/test_ling2003.py::test_write_produces_files",
    "tests/papers/test_ling2003_nb_trees.py::",
    # multi-label: the scikit-learn models' comparison and page, the coverage plan's run
    "tests/inference/test_classifiers_multilabel.py::test_multioutput_models_from_predict_",
    "tests/inference/test_classifiers_multilabel.py::test_intervals_and_tests_from_one_",
    "tests/inference/test_coverage_multilabel.py::test_tiny_run_and_its_verdicts_reach_",
    "tests/inference/test_coverage_multilabel.py::test_generator_correlated_labels_at_",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        # a test of the session's Dask cluster (tests/conftest.py) is a cluster test, and
        # the cluster tests share one xdist group, hence one worker and one cluster
        if "dask_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.cluster)
        if item.get_closest_marker("cluster") is not None:
            item.add_marker(pytest.mark.xdist_group("cluster"))


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Close the figures a test or doctest left open (plot helpers return their Axes)."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


#: A docstring whose examples say they use "the module example" (e.g. "With ``r`` from the
#: module example:") runs in the names that its module docstring's example binds: a
#: module's comparison is fitted once, in its module example, and every method's example
#: reads it (docs/DEVELOPING.md, "Conventions"); copied by hand, the module example runs
#: first, so the doctest runs what a reader who copies the two would run.
MODULE_EXAMPLE = "the module example"

#: module name → the names its module example binds, once per process
_module_examples: dict[str, dict[str, Any]] = {}


def _bound(module: ModuleType, names: dict[str, Any]) -> dict[str, Any]:
    """The names of ``names`` that the module example bound (not the module's own)."""
    own = vars(module)
    return {k: v for k, v in names.items()
            if k not in ("__builtins__", "getfixture") and (k not in own or own[k] is not v)}


def _run_module_example(module: ModuleType) -> dict[str, Any]:
    """Run a module example to get its names, when its own doctest did not run (or did not
    pass) in this process (another xdist worker ran it, or ``-k`` left it out). Outputs
    are not compared here: its own doctest compares them."""
    names = dict(vars(module))
    with contextlib.redirect_stdout(io.StringIO()):
        for ex in doctest.DocTestParser().get_examples(module.__doc__ or ""):
            if ex.options.get(doctest.SKIP):
                continue
            code = compile(ex.source, f"<example of {module.__name__}>", "exec")
            with contextlib.suppress(Exception) if ex.exc_msg else contextlib.nullcontext():
                exec(code, names)
    return _bound(module, names)


@pytest.fixture(autouse=True)
def _module_example(request: pytest.FixtureRequest) -> Iterator[None]:
    """MODULE_EXAMPLE: keep what a module example binds when its doctest passes, and give
    it to the examples of the same module that say they use it."""
    item = request.node
    test = getattr(item, "dtest", None)   # a doctest's DocTest
    name = test.globs.get("__name__", "") if test is not None else ""
    module = sys.modules.get(name)   # a module's doctests run in a copy of its globals
    if module is None or not test.name.startswith(name) or name == "__main__":
        yield
        return
    if test.name != name:
        if MODULE_EXAMPLE in (test.docstring or ""):
            if name not in _module_examples:
                _module_examples[name] = _run_module_example(module)
            test.globs.update(_module_examples[name])
        yield
        return
    if name in _module_examples or MODULE_EXAMPLE not in _source(module):
        yield
        return
    # the module example itself: its names outlive the run (doctest clears them after)
    runner = item.runner

    def run(t: doctest.DocTest, *args: Any, **kwargs: Any) -> Any:
        try:
            result = type(runner).run(runner, t, *args, **{**kwargs, "clear_globs": False})
            if not result.failed:
                _module_examples[name] = _bound(module, t.globs)
            return result
        finally:
            t.globs.clear()

    runner.run = run
    try:
        yield
    finally:
        del runner.run


def _source(module: ModuleType) -> str:
    """A module's source ('' when it has none)."""
    try:
        return inspect.getsource(module)
    except (OSError, TypeError):
        return ""
