"""Test setup: Triton's interpreter unless a GPU is present, hypothesis profiles."""
import os

try:
    import torch
    _has_cuda = torch.cuda.is_available()
except ImportError:  # pragma: no cover
    _has_cuda = False
if not _has_cuda:
    os.environ.setdefault("TRITON_INTERPRET", "1")

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Shared helpers (kernel_checks, replay, radius_orders) live at the top of tests/;
# the test modules sit in one folder per stage of verify/.
import sys  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def pytest_configure(config):
    # A stage's time limit swallowed in a destructor (z3's objects free themselves in
    # __del__) would let the stage run on unlimited: such a test fails instead of
    # passing with a warning.
    config.addinivalue_line(
        "filterwarnings",
        "error:(?s).*TimeLimit:pytest.PytestUnraisableExceptionWarning")


def pytest_collection_modifyitems(config, items):
    # Tests that use a module- or session-scoped fixture of this suite (a kernel's
    # certificate, the catalog's verdicts, the report site) run on one worker of a
    # distributed run, one group per file or folder defining such fixtures, so each is
    # computed once (--dist loadgroup, pyproject's addopts); the rest are spread by load.
    # pytest's own fixtures (tmp_path_factory) and autouse bookkeeping do not group.
    import pytest

    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        owners = sorted({defs[-1].baseid for defs in info.name2fixturedefs.values()
                         if defs and defs[-1].baseid
                         and defs[-1].scope in ("module", "package", "session")
                         and not getattr(defs[-1], "_autouse", False)})
        if owners:
            item.add_marker(pytest.mark.xdist_group(owners[0]))
