"""Shared test setup. Prefect settings go into the environment before anything imports prefect."""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from cli.app import COLLECT_AFTER

# no per-example time limit: property tests parse and rate, and two processes share the cores,
# so an example's time says more about the machine than about the code (no test is timed)
settings.register_profile("clubratings", deadline=None)
settings.load_profile("clubratings")

# Python's cycle collector after as many new objects as the command line waits for
# (cli/app.py), and none of what collection made (modules, strategies) looked at again: a test
# process holds a large heap, and each full collection went over all of it
gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    gc.unfreeze()  # the process's end collects everything, as always


# each pytest-xdist worker starts its own temporary Prefect server, so each needs a home of its
# own (the controller's would otherwise be inherited and its database shared)
if os.environ.get("PYTEST_XDIST_WORKER") or "PREFECT_HOME" not in os.environ:
    os.environ["PREFECT_HOME"] = tempfile.mkdtemp(prefix="clubratings-prefect-")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "90")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
JFR_SAMPLE = FIXTURES / "jfr_pary" / "W-wb130808.html"
SEASON = sorted((FIXTURES / "club_season").glob("*.csv"))
CHROMIUM = Path(os.environ.get("CLUBRATINGS_CHROMIUM", "/usr/bin/chromium"))
"""Debian's Chromium, which the browser tests drive (``CLUBRATINGS_CHROMIUM`` names another)."""
REQUIRE_BROWSER = os.environ.get("CLUBRATINGS_REQUIRE_BROWSER", "") not in ("", "0")
"""In CI: fail instead of skipping when playwright or Chromium is missing."""


@pytest.fixture(scope="session")
def chromium_binary() -> Path:
    """Chromium for the browser tests. ``bash dev.sh test`` may still be installing it in the
    background: ``CLUBRATINGS_CHROMIUM_PENDING`` names a file that is there until the install has
    ended, waited for here (15 minutes at most). Without Chromium the test is skipped, or fails
    with ``CLUBRATINGS_REQUIRE_BROWSER=1`` (CI)."""
    pending = os.environ.get("CLUBRATINGS_CHROMIUM_PENDING")
    deadline = time.monotonic() + 900
    while pending and Path(pending).exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    if not CHROMIUM.exists():
        if REQUIRE_BROWSER:
            pytest.fail(f"no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    return CHROMIUM


@pytest.fixture
def wh(tmp_path: Path) -> Iterator[object]:
    from warehouse import open_warehouse

    with open_warehouse(tmp_path / "data" / "wh.duckdb") as w:
        yield w


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with a configuration whose sources are copies of the bundled fixtures."""
    (tmp_path / "fixtures").mkdir()
    shutil.copytree(FIXTURES / "club_season", tmp_path / "fixtures" / "club_season")
    (tmp_path / "fixtures" / "jfr_pary").mkdir()
    shutil.copy(JFR_SAMPLE, tmp_path / "fixtures" / "jfr_pary")
    shutil.copytree(FIXTURES / "identity", tmp_path / "fixtures" / "identity")
    shutil.copytree(FIXTURES / "opengotha", tmp_path / "fixtures" / "opengotha")
    shutil.copytree(FIXTURES / "preferans_log", tmp_path / "fixtures" / "preferans_log")
    shutil.copytree(ROOT / "identity", tmp_path / "identity")
    (tmp_path / "clubratings.toml").write_text(
        (ROOT / "clubratings.toml").read_text(encoding="utf-8"), encoding="utf-8",
    )
    return tmp_path


DEFAULT_PROJECT_FILES = ("clubratings.toml", "sources.toml", "fixtures", "identity", "docs")
"""What the embedded default reads: its configuration, the bundled fixtures and identity
decisions, and docs/ (the quality page's docs/quality.json, the documentation's example files)."""


PINNED_CLOCK = "1798761600"
"""2027-01-01 00:00 UTC: the clock of the default run (``SOURCE_DATE_EPOCH``: the rating runs'
day on the index, the import report's date), so its published bytes are the recorded ones
(tests/test_default_outputs.py)."""


@pytest.fixture(scope="session")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded default after one ``clubratings run`` (warehouse, lists, site, report,
    snapshot), made once per test process for the tests that only read it: a test that changes
    a project copies this one first."""
    from cli import main

    base = tmp_path_factory.mktemp("default-run") / "project"
    base.mkdir()
    for name in DEFAULT_PROJECT_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, base / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.is_file():
            shutil.copy2(src, base / name)
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = PINNED_CLOCK
    try:
        assert main(["run", "--config", str(base / "clubratings.toml")]) == 0
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before
    return base


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """One temporary Prefect server for the whole session (only the end-to-end flow tests)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=90):
        yield


HEAVY_FIRST = (
    "tests/test_killtest.py::test_killed_commands",
    "tests/test_schedule.py::test_deploy_server_script",
    "tests/test_lifecycle.py::test_files_in_force_are_a_fresh_load",
    "tests/test_quality_docs.py",
    "tests/test_fuzz.py",
    "tests/test_identity_warehouse.py::test_nothing_ever_merges",
    "tests/test_pipeline_flow.py",
    "tests/test_core.py::test_a_deployment_flow",
    "tests/test_real_files.py::test_every_real_result_file",
    "tests/test_nonresults.py::test_no_non_result_loads",
    "tests/test_field_corpus.py",
    "tests/test_schedule.py::test_dask_task_runner",
    "tests/test_not_results.py::test_no_generated_non_result_loads",
    "tests/test_quality_real.py",
    "tests/test_deployments.py",
)
"""Tests (and modules) of half a minute to two minutes, run first: spread over the processes
while the rest still waits, they do not end the run alone on one core (``--durations=25``
shows the list)."""

LAST = ("tests/test_site_browser.py", "tests/test_report_browser.py",
        "tests/test_quality_browser.py")
"""The browser tests, run last: `bash dev.sh test` may still be installing Chromium when the tests
start (:func:`chromium_binary`)."""


SHARED: dict[str, tuple[str, ...]] = {
    "prefect_harness": (
        "tests/test_pipeline_flow.py",
        "tests/test_core.py::test_a_deployment_flow",
        "tests/test_schedule.py::test_dask_task_runner",
        "tests/test_deployments.py",
    ),
    "default_run": (
        "tests/test_docs_examples.py",
        "tests/test_list_standing.py",
        "tests/test_site_browser.py",
        "tests/test_default_outputs.py",
        "tests/test_cli_identity.py::test_the_readme_identity_example_twice_then_run",
    ),
}
"""The tests of each session fixture made once per process (a temporary Prefect server, the
default run): spread over processes, they run in one, so the fixture is made once, not once in
each process (a check below keeps the lists complete)."""


def _shared_fixture(nodeid: str) -> str | None:
    return next((name for name, prefixes in SHARED.items() if nodeid.startswith(prefixes)), None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadscope`` whose unit is a module, or all the tests of one :data:`SHARED`
    session fixture together."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            shared = _shared_fixture(nodeid)
            return f"session fixture {shared}" if shared else super()._split_scope(nodeid)

    return SharedFixtureScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Heavy tests first. Spread over processes by module (``--dist loadscope``), the tests of
    one module run in one process, so a fixture made once per module is made once (the hostile
    and field corpora, a module's project); modules whose tests are heavy start first, the
    browser tests last (:data:`LAST`). A test that asks for a :data:`SHARED` session fixture
    must be listed there."""
    for item in items:
        for name in set(getattr(item, "fixturenames", ())) & set(SHARED):
            if _shared_fixture(item.nodeid) != name:
                raise pytest.UsageError(f"{item.nodeid} uses the session fixture {name}: add "
                                        f"it to SHARED[{name!r}] in tests/conftest.py")

    def rank(item: pytest.Item) -> int:
        if item.nodeid.startswith(LAST):
            return len(HEAVY_FIRST) + 1
        return next((k for k, prefix in enumerate(HEAVY_FIRST)
                     if item.nodeid.startswith(prefix)), len(HEAVY_FIRST))

    items.sort(key=rank)  # stable: the others keep their order
