# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# a·b/(a + b) with the zero test in a z3-named helper: f(f(1, −1), 2) = 0 but
# f(1, f(−1, 2)) = 2. No identity (e·a/(e + a) = a forces a = 0).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import z3_adv_tools  # noqa: E402


def f(a, b):
    return z3_adv_tools.safe_div(a * b, a + b)


WITNESS = {
    "associative": (1, -1, 2),
    "identity": [(0, 1), (1, 1), ("inf", 1), ("-inf", 1)],
    "idempotent": (2,),
}
