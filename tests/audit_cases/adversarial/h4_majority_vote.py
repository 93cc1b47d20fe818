# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# The Boyer–Moore majority merge of (candidate, count); the candidate test is in a
# z3-named module. Not associative, not commutative on ties of counts.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from z3adv_eq import same  # noqa: E402


def merge(a, b):
    if same(a[0], b[0]):
        return a[0], a[1] + b[1]
    if a[1] >= b[1]:
        return a[0], a[1] - b[1]
    return b[0], b[1] - a[1]


WITNESS = {
    "associative": ((0, 0), (1, 0), (0, -1)),
    "commutative": ((0, 1), (1, 1)),
    "identity": [((0, 0), (1, 0)), ((1, 0), (0, 0))],
    "idempotent": ((0, 1),),
}
