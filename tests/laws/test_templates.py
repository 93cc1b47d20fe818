"""Property templates: each equation written once and reused by Monoid, the auditor and
the exercises."""
from laws import templates as T
from laws.core import Var
from laws.monoid import Monoid
from verify.auditing import properties as P
from verify.auditing.signature import SCALAR, Signature
from verify.decide.decide import decide
from verify.teaching import exercise as X


def _sum(a, b):
    return a + b


def _sub(a, b):
    return a - b


def test_instantiate_closes_the_equation_over_a_combine():
    law = T.instantiate(T.ASSOCIATIVE, _sub, (Var("a"), Var("b"), Var("c")), id="sub.assoc")
    assert law.statement == "f(f(a, b), c) = f(a, f(b, c))"
    assert law.lhs(1, 2, 3) == -4 and law.rhs(1, 2, 3) == 2
    assert law.property is T.ASSOCIATIVE.property


def test_a_monoid_without_lift_declares_only_the_algebraic_laws():
    mine = Monoid("mine", combine=_sum, identity=0, state=Var("s"), commutative=True)
    laws = {law.id: law for law in mine.laws()}
    assert set(laws) == {"mine.associative", "mine.identity", "mine.commutative"}
    assert laws["mine.associative"].statement == "(a ⊕ b) ⊕ c = a ⊕ (b ⊕ c)"
    assert laws["mine.identity"].statement == "e ⊕ a = a = a ⊕ e with e = 0"
    assert [decide(law).verdict.value for law in laws.values()] == ["proved"] * 3


def test_a_wrong_combine_is_refuted_through_the_same_laws():
    wrong = Monoid("wrong", combine=_sub, identity=0, state=Var("s"))
    verdicts = {law.id: decide(law) for law in wrong.laws()}
    assert verdicts["wrong.associative"].verdict.value == "refuted"
    assert verdicts["wrong.associative"].counterexample["bindings"]
    assert verdicts["wrong.identity"].verdict.value == "refuted"


def test_monoid_with_lift_adds_the_homomorphism():
    mine = Monoid("mine", combine=_sum, identity=0, state=Var("s"), lift=lambda x: x,
                  lower=lambda s: s, spec=sum, homomorphism_sizes=(1, 2, 3))
    hom = next(law for law in mine.laws() if law.id == "mine.homomorphism")
    assert [inst["n"] for inst in hom.instances] == [1, 2, 3]
    assert hom.lhs(1, 2, 3, n=3) == hom.rhs(1, 2, 3, n=3) == 6
    assert decide(hom).verdict.value == "proved-bounded"


def test_the_auditor_and_the_exercises_use_the_same_equations():
    sig = Signature("binary", (SCALAR, SCALAR), SCALAR)
    assoc, comm, idem = P.binary_props(sig)[:3]
    assert (assoc.lhs, assoc.rhs) == (T.ASSOCIATIVE.lhs, T.ASSOCIATIVE.rhs)
    assert (comm.lhs, idem.rhs) == (T.COMMUTATIVE.lhs, T.IDEMPOTENT.rhs)
    assert assoc.statement == T.ASSOCIATIVE.statement
    ex = X._assoc_prop(X.BY_NAME["running_mean"])
    assert (ex.lhs, ex.rhs) == (T.ASSOCIATIVE.lhs, T.ASSOCIATIVE.rhs)
    hom = X._homomorphism_prop(X.BY_NAME["running_mean"], 2)
    assert hom.lhs(_sum_states, 3, 5) == X.BY_NAME["running_mean"].spec([3, 5])


def _sum_states(a, b):
    m, n = a
    m2, n2 = b
    return ((m * n + m2 * n2) / (n + n2), n + n2)


def test_permutation_templates():
    inv = T.permutation_invariant(T.swap01, "swap")
    assert inv.lhs(sum, [1, 2, 3]) == inv.rhs(sum, [1, 2, 3])
    eqv = T.permutation_equivariant(T.cycle, "cycle")
    assert eqv.lhs(list, [1, 2, 3]) == eqv.rhs(list, [1, 2, 3]) == [2, 3, 1]
    dep = T.independent(0, 2, scalar_out=False)
    assert dep.lhs(list, [1, 2, 3], 9) == dep.rhs(list, [1, 2, 3], 9) == 1
