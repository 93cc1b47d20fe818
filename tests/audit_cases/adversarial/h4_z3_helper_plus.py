# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# Plain addition through a helper in a z3-named module: the helper must be followed
# (and rebound) like any other user code.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3adv_eq  # noqa: E402


def f(a, b):
    return z3adv_eq.plus(a, b)


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 2, 1, 2),
}
