# expect: kind=binary associative=refuted|unknown|tested
# A set of symbolic values in a module named z3cache: hashing must be refused (z3's
# structural hash would count {a, b} as two elements always). f(f(3, 4), 2) = 1 but
# f(3, f(4, 2)) = 2.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "sound_helpers"))
from z3cache import distinct_count  # noqa: E402

def f(a, b):
    return distinct_count(a, b)
