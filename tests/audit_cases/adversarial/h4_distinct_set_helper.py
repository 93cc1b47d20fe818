# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# max when a and b are distinct (a set in a z3-named module), a + 1 when equal.
# f(f(0, 0), 1) = f(1, 1) = 2 but f(0, f(0, 1)) = f(0, 1) = 1.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3advgeom  # noqa: E402


def f(a, b):
    if z3advgeom.distinct([a, b]) == 2:
        return max(a, b)
    return a + 1


WITNESS = {
    "associative": (0, 0, 1),
    "idempotent": (0,),
}
