"""The public API, used the way a user's code uses it: ``import verify``,
``verify.testing`` and the law types from ``laws``; nothing else from the package."""
import doctest
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import verify
from laws import Monoid, Var
from verify.testing import LawFailure, assert_law, assert_monoid

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "verify", *args], env=env,
                       capture_output=True, text=True, timeout=300)
    return p


def without_timings(doc):
    """The document minus wall-clock figures, which differ between two runs."""
    if isinstance(doc, dict):
        return {k: without_timings(v) for k, v in doc.items()
                if k not in ("seconds", "elapsed_s")}
    if isinstance(doc, list):
        return [without_timings(v) for v in doc]
    return doc


def test_all_names_resolve_and_import_is_light():
    for name in verify.__all__:
        assert getattr(verify, name) is not None, name
    code = ("import sys, time; t = time.perf_counter(); import verify; "
            "dt = time.perf_counter() - t; "
            "heavy = [m for m in ('torch', 'triton', 'z3', 'mpmath', 'numpy') "
            "if m in sys.modules]; print(dt, heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True).stdout
    seconds, heavy = out.split(" ", 1)
    assert float(seconds) < 1.0 and heavy.strip() == "[]"


def test_check_equals_law_json():
    result = verify.check("online_softmax.no_rescale")
    assert isinstance(result, verify.LawResult)
    assert result.verdict is verify.Verdict.REFUTED and result.ok
    p = cli("law", "online_softmax.no_rescale", "--json")
    assert p.returncode == 0, p.stderr
    assert without_timings(result.to_json()) == without_timings(json.loads(p.stdout))


def test_audit_equals_audit_json(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("import math\n\n\ndef merge(a, b):\n    m = max(a[0], b[0])\n"
                    "    return m, a[1] * math.exp(a[0] - m) + b[1] * math.exp(b[0] - m)\n")
    target = f"{os.path.relpath(path)}:merge"
    result = verify.audit(target)
    assert isinstance(result, verify.AuditResult)
    assert result.verdict("associative") is verify.Verdict.PROVED
    p = cli("audit", target, "--json")
    assert p.returncode == 0, p.stderr
    assert without_timings(result.to_json()) == without_timings(json.loads(p.stdout))


def test_audit_of_a_function_object_labels_it_by_file(tmp_path):
    path = tmp_path / "mine_sub.py"
    path.write_text("def sub(a, b):\n    return a - b\n")
    spec = importlib.util.spec_from_file_location("mine_sub", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = verify.audit(module.sub, policy=verify.Policy(floats=False))
    assert result["function"] == f"{os.path.relpath(path)}:sub"
    assert result.verdict("associative") is verify.Verdict.REFUTED
    assert result.properties["associative"]["reals"]["bindings"]


def test_unknown_law_and_bad_function_are_bad_input():
    with pytest.raises(verify.BadInput, match="did you mean online_softmax.associative"):
        verify.check("online_softmax.associativ")

    async def coroutine(a, b):
        return a

    with pytest.raises(verify.VerifyError, match="async function"):
        verify.audit(coroutine)


def merge(a, b):
    return max(a, b)


def test_assert_monoid_on_a_users_combine():
    results = assert_monoid(merge, identity=float("-inf"), commutative=True,
                            idempotent=True)
    assert [r.id for r in results] == ["merge.associative", "merge.identity",
                                       "merge.commutative", "merge.idempotent"]
    assert all(r.verdict is verify.Verdict.PROVED for r in results)


def rescale_left_only(a, b):
    import math
    m = max(a[0], b[0])
    return m, a[1] * math.exp(a[0] - m) + b[1]


def test_assert_monoid_failure_shows_law_counterexample_and_both_sides():
    state = Var("s", (2,), ("real", "positive"), labels=("m", "d"))
    with pytest.raises(LawFailure) as info:
        assert_monoid(rescale_left_only, identity=(float("-inf"), 0.0), state=state)
    assert isinstance(info.value, AssertionError)
    text = str(info.value)
    assert "rescale_left_only.associative: verdict refuted, expected it to hold" in text
    assert "statement: (a ⊕ b) ⊕ c = a ⊕ (b ⊕ c)" in text
    for part in ("    a = (", "    b = (", "    c = (", "lhs = (", "rhs = (", "|lhs − rhs| = "):
        assert part in text, part
    assert [r.verdict for r in info.value.results] == [verify.Verdict.REFUTED]


def test_assert_law_on_a_users_monoid_with_its_specification():
    def add(a, b):
        return a + b

    mine = Monoid(family="my_sum", combine=add, identity=0.0, state=Var("s"),
                  lift=lambda x: x, lower=lambda s: s, spec=lambda xs: sum(xs),
                  licenses="chunked sums", statement="a + b", commutative=True)
    results = assert_law(mine)
    assert {r.id for r in results} == {"my_sum.associative", "my_sum.identity",
                                       "my_sum.commutative", "my_sum.homomorphism"}
    assert all(r.ok for r in results)


def test_assert_law_accepts_ids_and_anti_laws():
    assert_law(["sum.associative", "online_softmax.no_rescale"])  # an anti-law refuted


def test_verdicts_are_ordered_and_policy_is_a_value():
    V = verify.Verdict
    assert V.PROVED > V.PROVED_BOUNDED > V.TESTED > V.UNKNOWN > V.REFUTED
    assert verify.Policy().with_(cases=10).cases == 10


@pytest.mark.parametrize("module", ["verify", "verify.testing", "verify.jsonio",
                                    "verify.results", "verify.errors", "verify.api",
                                    "verify.decide.policy", "verify.decide.query",
                                    "verify.engine.ties", "verify.engine.rational_only"])
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
