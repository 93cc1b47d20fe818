# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# max(a, b), or a − b = 0 when a = b (list.count in a z3-named module sees b twice).
# f(f(2, 2), 1) = 1 but f(2, f(2, 1)) = 0; f(1, 1) = 0.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3_adv_tools  # noqa: E402


def f(a, b):
    if z3_adv_tools.count([a, b], b) == 1:
        return max(a, b)
    return a - b


WITNESS = {
    "associative": (2, 2, 1),
    "idempotent": (1,),
}
