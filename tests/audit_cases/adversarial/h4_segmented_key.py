# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# (key, value): add the values when the keys match, else restart. Keys that recur
# after another key break associativity: (0,1)·(1,1)·(0,1) is (0,1) grouped left and
# (0,2) grouped right. The key test is in a module named z3advgeom.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3advgeom  # noqa: E402


def combine(a, b):
    if z3advgeom.same_key(a[0], b[0]):
        return b[0], a[1] + b[1]
    return b[0], b[1]


WITNESS = {
    "associative": ((0, 1), (1, 1), (0, 1)),
    "commutative": ((0, 1), (1, 1)),
    "identity": [((0, 0), (1, 1)), ((1, 0), (0, 1))],
    "idempotent": ((0, 1),),
}
