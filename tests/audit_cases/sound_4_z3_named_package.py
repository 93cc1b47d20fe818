# expect: kind=binary commutative=refuted idempotent=proved
# A user package named z3ext: b if a == b else a − b; f(1, 2) = −1, f(2, 1) = 1, f(a, a) = a.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "sound_helpers"))
from z3ext import pick_if_equal  # noqa: E402


def f(a, b):
    return pick_if_equal(a, b)
