"""The pytest plugin, as a user's project runs it: the two README examples (a monoid
law about the user's own combine, a certified kernel) and a failing law, under
``pytest -n 2`` with certificates written."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MONOID_TEST = '''\
def merge(a, b):
    return max(a, b)


def test_merge_is_a_monoid(lawcheck):
    lawcheck.monoid(merge, identity=float("-inf"), commutative=True)
'''

KERNEL_TEST = '''\
def test_softmax_is_certified(lawcheck):
    certificate = lawcheck.certify("softmax")
    assert certificate.passed
'''

WRONG_TEST = '''\
def merge(a, b):
    return a - b


def test_subtraction_is_a_monoid(lawcheck):
    lawcheck.monoid(merge, identity=0.0)
'''


def pytest_in(directory: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("TRITON_INTERPRET", None)  # the plugin chooses the backend itself
    # the plugin comes from the distribution's entry point, as in a user's project
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           *args],
                          cwd=directory, env=env, capture_output=True, text=True,
                          timeout=600)


def test_the_plugin_is_registered_by_the_entry_point():
    from importlib.metadata import entry_points
    found = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert found.get("lawcheck") == "verify.pytest_plugin"


def test_readme_examples_are_short():
    assert len(MONOID_TEST.splitlines()) <= 10 and len(KERNEL_TEST.splitlines()) <= 10


def test_users_suite_under_xdist_writes_certificates(tmp_path):
    (tmp_path / "test_merge.py").write_text(MONOID_TEST)
    (tmp_path / "test_kernel.py").write_text(KERNEL_TEST)
    (tmp_path / "test_wrong.py").write_text(WRONG_TEST)
    p = pytest_in(tmp_path, "-n", "2", "--lawcheck-certificates", "certs")
    assert p.returncode == 1, p.stdout[-3000:] + p.stderr[-3000:]
    assert "1 failed, 2 passed" in p.stdout
    # the failure shows the law, the replayed counterexample and both sides
    assert "merge.associative: verdict refuted, expected it to hold" in p.stdout
    assert "counterexample (replayed with the original function" in p.stdout
    assert "lhs = " in p.stdout and "rhs = " in p.stdout
    [path] = (tmp_path / "certs").glob("softmax.*.json")
    cert = json.loads(path.read_text())
    assert cert["kernel"] == "softmax" and cert["pass"] is True
    assert not list((tmp_path / "certs").glob(".*.tmp"))


def test_certificate_directory_is_checked_before_tests_run(tmp_path):
    (tmp_path / "test_merge.py").write_text(MONOID_TEST)
    (tmp_path / "a_file").write_text("")
    p = pytest_in(tmp_path, "--lawcheck-certificates", "a_file")
    assert p.returncode == 4  # pytest's usage error
    assert "--lawcheck-certificates a_file: exists and is not a directory" in p.stderr
