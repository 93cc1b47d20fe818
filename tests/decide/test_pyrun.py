"""The plain-Python runner: the original function, as Python runs it, is the witness of
every proof and the replay of every refutation; state, identity and type tests are
decided by Python alone; domains are defined once and stated by the user."""
import math
from fractions import Fraction

import numpy as np
import pytest

from laws.core import Law, Property, Var
from verify.decide import oracle, pyrun
from verify.decide.decide import decide
from verify.decide.policy import AUDIT
from verify.decide.prover import prove
from verify.engine import domains, mathtext, z3interp
from verify.engine.tracked import Tracked, watching


def _law(lhs, rhs, n=2, domain="real", **kw):
    return Law(id="t.pyrun", property=Property.ASSOCIATIVITY, statement="test",
               licenses="test", vars=tuple(Var(v, domain=domain) for v in "abcd"[:n]),
               lhs=lhs, rhs=rhs, **kw)


# ----------------------------------------------------------------------------- tracked
def test_the_rounding_bound_is_exact_for_one_operation_and_covers_a_cancellation():
    with watching(set()) as w:
        x = Tracked(0.1) + Tracked(0.2)
        assert x.err == float(abs(Fraction(0.1) + Fraction(0.2) - Fraction(0.3000000000000000444)))
        big = Tracked(1e20) + Tracked(1.0)   # loses the 1
        assert big.err >= 1.0
        assert (big - Tracked(1e20)).err >= 1.0
        assert not w.uncertain
        assert (Tracked(2.0) * Tracked(3.0)).err == 0.0  # exact products carry no error


def test_a_branch_within_the_bound_is_uncertain_and_a_library_value_is_opaque():
    with watching(set()) as w:
        s = Tracked(1e20) + Tracked(1.0)
        assert (s - Tracked(1e20) == 0) is True
        assert w.uncertain
    with watching(set()) as w:
        Tracked(2.0) + math.exp(Tracked(1.0))
        assert w.opaque
    with watching({0.5}) as w:
        Tracked(2.0) * 0.5     # a constant of the code is exact
        assert not w.opaque


def test_a_floor_division_of_exact_doubles_is_exact_below_two_to_the_fifty():
    with watching(set()) as w:
        assert (Tracked(1.0) // 1.0 < 1) is False  # 1 // 1.0 is exactly 1
        assert (Tracked(1.0) // 0.1).err == 0      # 9, the exact floor of 1/0.1000…0555
        assert not w.uncertain
    # past 2⁵⁰ Python's floor may be one off; the bound covers it
    a, b = 10577602442620.092, -0.002546150309715991
    q = Tracked(a) // Tracked(b)
    exact = math.floor(Fraction(a) / Fraction(b))
    assert q != exact and abs(Fraction(q) - exact) <= q.err
    with watching(set()) as w:
        assert (Tracked(0.1) + Tracked(0.2)) // 1.0 == 0  # an inexact operand: no claim
        assert w.uncertain


def test_a_result_below_the_smallest_normal_carries_its_absolute_rounding():
    with watching(set()):
        flushed = Tracked(5e-324) * Tracked(0.5)       # exactly 2⁻¹⁰⁷⁵: rounds to 0
        assert float(flushed) == 0.0 and flushed.err >= 2.0 ** -1075
        gradual = Tracked(3e-320) * Tracked(0.3)       # rounded in the subnormal range
        gap = abs(Fraction(3e-320) * Fraction(0.3) - Fraction(float(gradual)))
        assert 0 < gap <= Fraction(gradual.err)
        assert (Tracked(5e-324) * Tracked(2.0)).err == 0.0   # an exact subnormal product
        # a relative error of a normal value that underflows when carried on: not lost
        carried = (Tracked(7.616838501520687) * Tracked(-0.001)) * Tracked(-2.2250738585072014e-308)
        assert carried.err > 0.0
        assert (Tracked(1.0) * Fraction(1, 3 * 2 ** 1074)).err > 0.0  # a Fraction that flushes


def test_differences_within_underflow_are_not_certain_and_a_real_one_still_is():
    # exactly equal sides whose float runs differ only by subnormal rounding or a flush
    law = _law(lambda a, b, c: (a * b) * c, lambda a, b, c: a * (b * c), n=3)
    for point in ([7.616838501520687, -0.001, -2.2250738585072014e-308],
                  [-1e-300, -8.673617379884035e-19, 10.0]):
        assert pyrun.judge(law, point, exact_run=False).status == "agree"
    four = _law(lambda a, b, c, d: (a * b) * (c * d), lambda a, b, c, d: (a * d) * (c * b), n=4)
    point = [5e-324, 10000000001.0, -12.0, -0.5]
    assert pyrun.judge(four, point, exact_run=False).status == "agree"
    # a flush to 0 scaled up to a normal size is still within the bound
    law = _law(lambda a, b, c: (a * b) * c, lambda a, b, c: a * (b * c), n=3)
    assert pyrun.judge(law, [5e-324, 0.5, 2.0 ** 1000], exact_run=False).status == "agree"
    # an error carried into a product so small that its own bound underflows to 0:
    # (a + b) loses b = 2⁻¹⁰⁷⁴, (a + b)·c is an exact 2⁻¹⁰⁶⁰ whose bound c·2⁻¹⁰⁷⁴ is
    # below every double; scaled up by d², the lost b is the whole difference
    law = _law(lambda a, b, c, d: (a + b) * c * d * d - a * c * d * d,
               lambda a, b, c, d: b * (c * d * d), n=4)
    point = [2.0 ** -1000, 2.0 ** -1074, 2.0 ** -60, 2.0 ** 530]
    assert pyrun.judge(law, point, exact_run=False).status == "agree"
    # near miss: a difference of the size of the values themselves at a subnormal point
    law = _law(lambda a, b: a * b, lambda a, b: a * b + a)
    assert pyrun.judge(law, [3e-320, 0.3], exact_run=False).status == "differ"
    law = _law(lambda a, b: a * b * 3, lambda a, b: a * b * 2)
    assert pyrun.judge(law, [1e-310, 0.7], exact_run=False).status == "differ"


# ----------------------------------------------------------------------------- judge
def test_exact_where_rational_and_within_rounding_elsewhere():
    law = _law(lambda a, b: (a + b) * (a - b), lambda a, b: a * a - b * b)
    assert pyrun.judge(law, [Fraction(1, 3), 7]).status == "agree"
    assert pyrun.judge(law, [Fraction(1, 3), 7]).sides.exact
    law = _law(lambda a, b: math.exp(a) * math.exp(b), lambda a, b: math.exp(a + b))
    assert pyrun.judge(law, [0.3, 1.7]).status == "agree"
    assert pyrun.judge(law, [1000.0, 1.0]).status == "undecided"   # math.exp raises


def test_a_cancellation_no_double_resolves_confirms_no_refutation():
    # exp(a²) + b − exp(a²) is b: at a = 12 a double loses b, and so does a fixed
    # 113/177-bit oracle; plain Python's bound sees the loss.
    f = lambda a, b: math.exp(a * a) + b - math.exp(a * a)  # noqa: E731
    law = _law(lambda a, b: f(a, b), lambda a, b: b)
    ok, why = pyrun.confirms(law, [12, 1])
    assert not ok and "rounding" in why
    assert pyrun.confirms(_law(lambda a, b: a - b, lambda a, b: b - a), [1, 0])[0]


def test_the_near_miss_a_real_difference_below_the_oracle_floor_is_not_confirmed_away():
    # (a + b) + c vs a + (b + c) on floats differs by rounding only: agree.
    law = _law(lambda a, b, c: (a + b) + c, lambda a, b, c: a + (b + c), n=3)
    assert pyrun.judge(law, [0.1, 0.2, 0.3], exact_run=False).status == "agree"
    # a real difference of one unit at 2⁶⁰ is beyond the bound: differ
    law = _law(lambda a, b: a + b + (1 if a > 0 else 0), lambda a, b: a + b)
    assert pyrun.judge(law, [2.0 ** 60, 1.0]).status == "differ"


# ----------------------------------------------------------------------------- witness
def _identity_fabs(monkeypatch):
    """math.fabs read as the identity by every interpretation: only Python knows."""
    real = z3interp.Z3Context._make_interpretation

    def broken(self):
        interp = real(self)
        interp.math.fabs = lambda x: x
        return interp
    monkeypatch.setattr(z3interp.Z3Context, "_make_interpretation", broken)
    monkeypatch.setattr(oracle.MP.math, "fabs", lambda x: x)
    monkeypatch.setattr(oracle.EXACT.math, "fabs", lambda x: x)


def _first_max(monkeypatch):
    """Builtin max read as its first argument by every interpretation."""
    real = z3interp.Z3Context._make_interpretation

    def broken(self):
        interp = real(self)
        interp.builtins = dict(interp.builtins, max=lambda a, b: a)
        return interp
    monkeypatch.setattr(z3interp.Z3Context, "_make_interpretation", broken)
    for interp in (oracle.MP, oracle.EXACT):
        monkeypatch.setattr(interp, "builtins", dict(interp.builtins, max=lambda a, b: a))


def test_a_wrong_reading_shared_by_every_interpretation_is_caught_by_plain_python(
        monkeypatch):
    _first_max(monkeypatch)
    law = _law(lambda a, b: max(a, b), lambda a, b: a)
    proof = prove(law)
    assert proof.status == "error"
    d = proof.witness["disagreement"]
    assert d["kind"].startswith("plain Python")
    a, b = (float(x) for x in d["values"])
    assert max(a, b) != a


def test_a_library_word_misread_everywhere_is_no_proof(monkeypatch):
    # through a library call the float run's bound is incomplete: the readings disagree
    # about the function, so the verdict is unknown, never proved
    _identity_fabs(monkeypatch)
    proof = prove(_law(lambda a: math.fabs(a), lambda a: a, n=1))
    assert proof.status in ("unknown", "error")
    assert proof.status != "unknown" or "plain Python" in proof.reason


def test_a_refutation_python_does_not_confirm_is_unknown(monkeypatch):
    # fabs(a) == |a| is true; with fabs read as the identity the searcher "refutes" it
    _identity_fabs(monkeypatch)
    law = Law(id="t.fabs", property=Property.ASSOCIATIVITY, statement="t", licenses="t",
              vars=(Var("a"),), lhs=lambda a: math.fabs(a), rhs=lambda a: abs(a),
              method="search", reason="test")
    res = decide(law, AUDIT)
    assert res["verdict"] == "unknown" and "does not replay" in res["reason"]
    assert res["counterexample"] is None


def test_the_witness_reaches_every_binade():
    from verify.decide.witness import _binade_grid
    pts = [abs(float(x)) for row in _binade_grid((Var("a"), Var("b"))) for x in row]
    assert max(pts) >= 1e150 and min(p for p in pts if p) <= 1e-300


# ----------------------------------------------------------------------------- state
MODE = "add"


def _switch():
    global MODE
    MODE = "sub"


def test_a_helper_writing_a_global_is_decided_by_python_alone():
    def f(a, b):
        _switch()
        return a - b if MODE == "sub" else a + b
    law = _law(lambda a, b: f(a, b), lambda a, b: f(b, a))
    res = decide(law, AUDIT)
    assert res["verdict"] == "refuted" and res["method"] == "plain Python only"
    assert "writes the module global 'MODE'" in res["reason"]


def test_an_identity_test_against_none_is_no_refusal():
    from verify.engine.faithful import refusal

    def g(a, b=None):
        return a if b is None else a + b

    def h(a, b):
        m = max(a, b)
        return m if m is a else a + b
    assert refusal(g) is None
    assert "identities" in refusal(h)


# ----------------------------------------------------------------------------- domains
def test_one_definition_per_domain():
    assert domains.get("positive").contains(Fraction(1, 2))
    assert not domains.get("positive").contains(0)
    assert not domains.get("small").contains(4)
    assert domains.get("natural").contains(np.int64(3))
    assert all(domains.get("unit").contains(x) for x in domains.get("unit").binades())
    with pytest.raises(domains.UnknownDomain):
        domains.get("postive")
    import z3
    v = z3.Real("v")
    assert [str(f) for f in domains.get("unit").facts(v)] == ["v >= 0", "v <= 1"]
    assert domains.get("positive").text("n") == "n > 0"


def test_assumptions_print_as_mathematics():
    import z3
    a, b = z3.Reals("a b")
    assert mathtext.text(z3.And(z3.Not(a + b == 0), b > 1)) == "a + b ≠ 0 ∧ b > 1"
    assert mathtext.text(z3.If(a >= b, a, b) != 0) == "max(a, b) ≠ 0"
    assert mathtext.text(z3.If(b >= a, a, b)) == "min(a, b)"
    assert mathtext.text(z3.If(a > 0, a, -b)) == "(a if a > 0 else −b)"
    assert mathtext.text((a + b) ** 2) == "(a + b)^2"
    assert mathtext.text(a ** z3.RealVal("1/2")) == "a^(1/2)"


def test_an_audit_prints_its_assumptions_as_mathematics(tmp_path):
    # the division by max(a, b) needs max(a, b) ≠ 0; z3 would print If(a >= b, a, b)
    from verify.auditing import audit
    (tmp_path / "ratio.py").write_text("def f(a, b):\n    return (a + b) / max(a, b)\n")
    report = audit.audit(f"{tmp_path / 'ratio.py'}:f", policy=AUDIT)
    reals = report["properties"]["commutative"]["reals"]
    assert reals["verdict"] == "proved" and reals["assumptions"] == ["max(a, b) ≠ 0"]


def test_an_assert_is_a_precondition():
    # (the function lives outside this file: pytest rewrites the asserts of test files)
    import importlib.util
    from pathlib import Path
    path = Path(__file__).parents[1] / "audit_cases" / "w23_9_assert_precondition.py"
    spec = importlib.util.spec_from_file_location("w23_assert_case", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    f = module.f
    law = _law(lambda a, b, c: f(f(a, b), c), lambda a, b, c: f(a, f(b, c)), n=3)
    proof = prove(law)
    assert proof.status == "proved"
    assert any(s.startswith("precondition (assert)") for s in proof.assumptions)


def test_a_zero_by_zero_inside_jit_is_replayed_on_lanes_not_as_a_python_raise():
    import triton
    import triton.language as tl  # noqa: F401
    from verify.engine.interp import unwrap

    @triton.jit
    def ratio(x, y):
        return (x * y) / (x * y)
    g = unwrap(ratio)
    law = _law(lambda a, b: g(a, b), lambda a, b: 1.0)
    assert pyrun.confirms(law, [0, 1])[0]          # NaN on the device, against 1
    assert not pyrun.confirms(law, [2, 3])[0]
    plain = _law(lambda a, b: (a * b) / (a * b), lambda a, b: 1.0)
    assert pyrun.judge(plain, [0, 1]).status == "undecided"   # Python's / raises


# ----------------------------------------------------------------------------- complex
def _cube_root_law():
    return _law(lambda a: (a ** 3) ** (1 / 3), lambda a: a, n=1)


def test_a_complex_side_is_a_value_not_a_point_that_decides_nothing():
    # Python's (-8.0) ** (1/3) is 1 + 1.73j: against the real -2 the sides differ
    law = _cube_root_law()
    assert pyrun.judge(law, [-2]).status in ("differ", "gross")
    assert pyrun.confirms(law, [-2])[0]
    assert pyrun.judge(law, [2]).status == "agree"   # the near miss: a real root
    same = _law(lambda a: (a ** 3) ** (1 / 3), lambda a: (a ** 3) ** (1 / 3), n=1)
    assert pyrun.judge(same, [-2]).status == "agree"


def test_a_power_condition_left_out_of_the_proof_is_caught_by_plain_python(monkeypatch):
    proof = prove(_cube_root_law())
    assert proof.status == "proved" and any("complex" in a for a in proof.assumptions)
    monkeypatch.setattr(z3interp.Z3Context, "real_power", lambda *a, **k: None)
    proof = prove(_cube_root_law())
    assert proof.status in ("unknown", "error")
