"""The independent check of proofs: a wrong encoding yields ``error``, never ``proved``;
side conditions are path-sensitive and reported; the SMT-LIB2 dump re-checks in cvc5."""
import math

import pytest
import triton.language as tl
import z3

from laws.core import Law, Property, Var
from verify.decide import oracle, recheck, witness
from verify.decide.prover import prove
from verify.engine import z3interp


def _law(lhs, rhs, n=2, **kw):
    return Law(id="t.witness", property=Property.ASSOCIATIVITY, statement="test",
               licenses="test", vars=tuple(Var(v) for v in "abc"[:n]), lhs=lhs, rhs=rhs, **kw)


def _broken_sqrt(self, x, raises=False):
    """A deliberately wrong encoding: sqrt(x) read as x."""
    return z3interp._as_expr(self.const(x), self)


def test_a_broken_sqrt_encoding_is_caught(monkeypatch):
    # √(a²) = |a| is true; with sqrt(x) encoded as x the encoding "proves" √(a²) = a²,
    # which the original function contradicts at a = 2 (2 against 4).
    law = _law(lambda a: tl.sqrt(a * a), lambda a: a * a, n=1)
    monkeypatch.setattr(z3interp.Z3Context, "sqrt", _broken_sqrt)
    proof = prove(law)
    assert proof.status == "error"
    assert "disagrees" in proof.reason
    d = proof.witness["disagreement"]
    assert d is not None and oracle.confirms(law, d["values"])


def test_a_broken_maximum_encoding_is_caught(monkeypatch):
    # max encoded as the first argument: max(a, b) = a "holds" in the encoding.
    law = _law(lambda a, b: tl.maximum(a, b), lambda a, b: a)
    real = z3interp.Z3Context._make_interpretation

    def broken(self):
        interp = real(self)
        interp.tl.maximum = lambda a, b: a
        return interp
    monkeypatch.setattr(z3interp.Z3Context, "_make_interpretation", broken)
    proof = prove(law)
    assert proof.status == "error" and proof.witness["disagreement"]["exact"]


def test_a_sound_proof_carries_its_witness():
    law = _law(lambda a, b: tl.maximum(a, b), lambda a, b: tl.maximum(b, a))
    proof = prove(law)
    assert proof.status == "proved"
    w = proof.witness
    assert w["disagreement"] is None and w["points"] >= 20 and w["exact"] is True
    assert w["boundary"] >= 1  # the point a = b of the comparison inside maximum


def test_branch_comparisons_are_collected_for_boundary_points():
    # the boundary a = b of a Python branch is among the points the witness solves for
    law = _law(lambda a, b: a if a > b else b, lambda a, b: tl.maximum(a, b))
    proof = prove(law)
    assert proof.status == "proved"
    ctx = z3interp.Z3Context()
    a, b = ctx.make(Var("a")), ctx.make(Var("b"))
    atoms = witness._comparisons(ctx, [z3.If(a > b, a, b)])
    assert any(str(c) == "a > b" for c in atoms)


def test_guarded_division_needs_no_assumption():
    law = _law(lambda a, b: a / b if b != 0 else a, lambda a, b: a / b if b != 0 else a)
    proof = prove(law)
    assert proof.status == "proved" and proof.assumptions == []


def test_unguarded_division_is_reported():
    law = _law(lambda a, b: a / (a + b), lambda a, b: a / (b + a))
    proof = prove(law)
    assert proof.status == "proved" and proof.assumptions == ["a + b ≠ 0"]


def test_a_root_in_where_is_guarded_by_the_where():
    law = _law(lambda a, b: tl.where(a >= 0, tl.sqrt(a), -tl.sqrt(-a)) + b * 0,
               lambda a, b: tl.where(a >= 0, tl.sqrt(a), -tl.sqrt(-a)))
    proof = prove(law)
    assert proof.status == "proved" and proof.assumptions == []


def test_a_raising_root_on_a_path_is_conditioned_on_the_path():
    law = _law(lambda a, b: math.sqrt(a) if a > 1 else b, lambda a, b: a if a < 0 else b)
    proof = prove(law)
    assert proof.status == "refuted"  # a = 2: √2 against b


def test_smt_dump_and_cvc5_recheck(tmp_path):
    law = _law(lambda a, b: tl.maximum(a, b), lambda a, b: tl.maximum(b, a))
    assert prove(law, smt_dir=str(tmp_path)).status == "proved"
    files = sorted(tmp_path.glob("*.smt2"))
    assert [f.name for f in files] == ["t.witness.1.smt2", "t.witness.2.smt2"]
    text = files[1].read_text()
    assert "; law: t.witness" in text and "; z3: unsat" in text and "(check-sat)" in text
    report = recheck.recheck(str(tmp_path), jobs=1, timeout_ms=5000)
    assert report["counts"] == {"agree": 2} and report["disagreements"] == []


@pytest.mark.parametrize("literal", [0.1, 1e-7, 2.0 / 3.0])
def test_literals_mean_the_double(literal):
    from fractions import Fraction

    from verify.engine.mpwords import make_exact, make_mpmath
    import mpmath
    g = {"C": literal}
    exec("def f(a):\n    return a * C + 0.1", g)
    exact = make_exact().rebind(g["f"])(Fraction(1))
    assert exact == Fraction(literal) + Fraction(0.1)
    with mpmath.workprec(300):
        mp = make_mpmath().rebind(g["f"])(mpmath.mpf(1))
        assert mp == mpmath.mpf(exact.numerator) / exact.denominator
    ctx = z3interp.Z3Context()
    a = ctx.make(Var("a"))
    term = z3interp.evaluate(ctx, lambda: ctx.interp.rebind(g["f"])(a))
    value = z3.simplify(z3.substitute(term, (a, z3.RealVal(1))))
    assert Fraction(value.as_fraction().numerator, value.as_fraction().denominator) == exact
