# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# The majority of (a, b, b) through Counter in a helper module: always b, the right
# projection.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _adv_modes import majority  # noqa: E402


def f(a, b):
    return majority(a, b, b)


WITNESS = {
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 0)],
}
