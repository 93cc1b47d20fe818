# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# a where a = b, a + b otherwise; the test lives in a helper module named z3adv_eq.
# Read as structural equality of terms it is never true, leaving a + b. Really
# f(f(1, 1), 2) = 3 and f(1, f(1, 2)) = 4. 0 is an identity (f(0, 0) = 0).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3adv_eq  # noqa: E402


def f(a, b):
    return a if z3adv_eq.same(a, b) else a + b


WITNESS = {
    "associative": (1, 1, 2),
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
