# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=proved|tested|unknown
# a where a = b, a + b otherwise, with the branch itself inside a module named z3adv_eq
# (h4_eq_helper_assoc branches in the case file). f(f(1, 1), 2) = 3, f(1, f(1, 2)) = 4.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3adv_eq  # noqa: E402


def f(a, b):
    return z3adv_eq.merge_equal(a, b)


WITNESS = {
    "associative": (1, 1, 2),
}
