# expect: kind=binary associative=refuted
# The helper lives in a user module named z3helpers: its `a == b` must fork, not read
# as structural term equality. f(f(1, 1), 2) = 3, f(1, f(1, 2)) = 4.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "sound_helpers"))
from z3helpers import same_or_sum  # noqa: E402


def f(a, b):
    return same_or_sum(a, b)
