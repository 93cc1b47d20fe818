# expect: kind=binary associative=proved commutative=proved idempotent=proved
# A true case through the same helper module: max written with an equality branch.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "sound_helpers"))
from z3helpers import max_by_equality  # noqa: E402


def f(a, b):
    return max_by_equality(a, b)
