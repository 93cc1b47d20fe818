# expect: kind=binary associative=refuted commutative=proved
# f(f(1, 1), 2) = 2 but f(1, f(1, 2)) = 4; structural equality would call it a + b.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "sound_helpers"))
import z3helpers  # noqa: E402


def f(a, b):
    return z3helpers.zero_or_sum(a, b)
