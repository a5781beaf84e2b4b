"""Fixtures for every test and doctest (tests/ and the doctests in src/)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

#: Tests (node-id prefixes) that take more than a few seconds on a quiet 2-core machine
#: (``pytest --durations``, docs/DEVELOPING.md "Tests"): marked ``slow``, so ``make test``
#: runs them and ``make test-fast`` leaves them out. Listed here rather than decorated so
#: that a parameter or a doctest can be named too.
SLOW = (
    # NumPyro's hierarchical model: JAX compiles and samples 4 chains
    "tests/inference/test_bayes.py::test_hierarchical_clearly_better",
    "tests/inference/test_bayes.py::test_hierarchical_equivalent",
    "tests/inference/test_bayes.py::test_hierarchical_same_seed_same_answer",
    "tests/inference/test_bayes.py::test_hierarchical_runs_and_constant_data_sets",
    "tests/inference/test_learners.py::test_hierarchical_verdicts_over_data_sets",
    # the simulation studies' small versions (their harnesses have tiny tests that stay)
    "tests/inference/test_coverage.py::test_coverage_small",
    "tests/inference/test_coverage.py::test_population_matches_exact",
    "tests/inference/test_calibration_inference.py::test_a_small_calibration_study",
    "tests/inference/test_decisions_study.py::test_net_benefit_intervals_cover",
    # the guides' examples (hundreds of fits)
    "tests/docs/test_comparing.py::test_comparing_examples_run",
    "tests/docs/test_comparing.py::test_comparing_k_class_cli_example",
    "tests/docs/test_decisions_docs.py::test_examples_run[POWER.md]",
    # the study runner in real processes: killed, resumed, run concurrently
    "tests/lab/study/test_runner.py::test_cli_study_writes_results_and_analysis",
    "tests/lab/study/test_runner.py::test_sigkill_mid_run_then_rerun_gives_identical_tables",
    "tests/lab/study/test_runner.py::test_every_algorithm_gives_probabilities_and_is_det",
    "tests/lab/study/test_store.py::test_workers_end_when_the_driver_is_killed",
    "tests/lab/study/test_store.py::test_sigkill_at_random_moments_then_rerun_equals",
    "tests/lab/study/test_store.py::test_two_concurrent_runs_cooperate",
    "tests/lab/study/test_store.py::test_cli_accepts_problems_separated_by_commas_or_spaces",
    # the demo and its report, the reproduction reports
    "tests/cli/test_demo.py::test_demo_writes_report_and_agrees_with_sklearn",
    "src/measurelab/cli/demo.py::measurelab.cli.demo.run_demo",
    "tests/inference/test_classifiers.py::test_demo_comparison_section",
    "tests/papers/test_huang2007_ann.py::test_report_verdicts_follow_the_rule",
    # every pair of lists of a domain, by brute force
    "tests/metaeval/test_pairs.py::test_compiled_route_equals_brute_force",
    "src/measurelab/metaeval/consistency.py::measurelab.metaeval.consistency.compare_on_ranked",
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
