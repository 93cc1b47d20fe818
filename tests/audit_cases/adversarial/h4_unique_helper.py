# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=proved|tested|unknown
# The sum of the distinct values among a and b, deduplicated by a dict in a module
# named z3_adv_tools: a + b, or a when a = b.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from z3_adv_tools import unique  # noqa: E402


def f(a, b):
    return sum(unique([a, b]))


WITNESS = {
    "associative": (1, 1, 2),
}
