"""The exact rational path split on branch conditions: a guarded Chan merge is proved
path by path with every assumption stated, and near misses of it are never proved."""
import pytest

from laws import templates as T
from laws.core import Var
from verify.decide import decide as D
from verify.decide import paths, rational
from verify.decide.policy import AUDIT
from verify.results import Verdict

STATE = Var("s", (3,))


def _assoc(combine, state=STATE):
    vars_ = tuple(Var(n, state.shape, state.domain) for n in "abc")
    return T.instantiate(T.ASSOCIATIVE, combine, vars_, id="user.associative")


def _commutes(combine, state=STATE):
    vars_ = tuple(Var(n, state.shape, state.domain) for n in "ab")
    return T.instantiate(T.COMMUTATIVE, combine, vars_, id="user.commutative")


def _chan(na, ma, qa, nb, mb, qb, weight):
    n = na + nb
    d = mb - ma
    return n, ma + d * weight / n, qa + qb + d * d * na * nb / n


def guarded(a, b):
    (na, ma, qa), (nb, mb, qb) = a, b
    if na == 0:
        return b
    if nb == 0:
        return a
    return _chan(na, ma, qa, nb, mb, qb, nb)


def returns_a(a, b):
    (na, ma, qa), (nb, mb, qb) = a, b
    if na == 0:
        return a
    if nb == 0:
        return a
    return _chan(na, ma, qa, nb, mb, qb, nb)


def guard_on_one(a, b):
    (na, ma, qa), (nb, mb, qb) = a, b
    if na == 1:
        return b
    if nb == 1:
        return a
    return _chan(na, ma, qa, nb, mb, qb, nb)


def wrong_weight(a, b):
    (na, ma, qa), (nb, mb, qb) = a, b
    if na == 0:
        return b
    if nb == 0:
        return a
    return _chan(na, ma, qa, nb, mb, qb, na)


def left_only(a, b):
    (na, ma, qa), (nb, mb, qb) = a, b
    if na == 0:
        return b
    return _chan(na, ma, qa, nb, mb, qb, nb)


def right_only(a, b):
    (na, ma, qa), (nb, mb, qb) = a, b
    if nb == 0:
        return a
    return _chan(na, ma, qa, nb, mb, qb, nb)


def test_the_guarded_merge_is_an_identity_on_every_path_with_its_assumptions():
    found = rational.identity(_assoc(guarded))
    assert found is not None and len(found.regions) >= 4
    # each division is assumed safe only on the paths that divide
    assert "a[0] + b[0] ≠ 0 where a[0] ≠ 0 ∧ b[0] ≠ 0" in found.assumptions
    assert all(" where " in a for a in found.assumptions)


def test_the_guarded_merge_is_proved_through_the_witness_check():
    res = D.decide(_assoc(guarded), AUDIT.with_(timeout_ms=300, floats=False))
    assert res.verdict is Verdict.PROVED, res.to_json()
    assert "on each of" in res.method and res.assumptions


@pytest.mark.parametrize("combine", [returns_a, guard_on_one, wrong_weight, left_only,
                                     right_only])
def test_near_misses_of_the_guarded_merge_are_never_identities(combine):
    assert rational.identity(_assoc(combine)) is None


def test_two_empty_states_keep_the_guarded_merge_from_commuting():
    assert rational.identity(_commutes(guarded)) is None


def _pinned(a, b):
    # on the path a = 0 the first branch is b only once a is replaced by 0
    return 7 * a + b if a == 0 else a + b


def test_a_variable_a_path_pins_is_replaced_by_its_value():
    found = rational.identity(_assoc(_pinned, Var("s")))
    assert found is not None and not found.assumptions


def _impossible_branch(a, b):
    return a - b if a > 0 and a < 0 else a + b


def test_a_path_the_facts_rule_out_is_dropped():
    # a − b is not associative: the identity holds only because its branch never runs
    assert rational.identity(_assoc(_impossible_branch, Var("s"))) is not None


def test_too_many_paths_give_no_claim(monkeypatch):
    monkeypatch.setattr(paths, "MAX_PATHS", 2)
    assert rational.identity(_assoc(guarded)) is None
