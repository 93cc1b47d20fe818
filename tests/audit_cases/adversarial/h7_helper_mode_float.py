# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=proved|tested|unknown additively_separable.float32=inexact|unknown|not-evaluated
# mode(a, b, b + 0·a) is b (b + 0·a equals b), so f = (b − a) + b = 2b − a: additively
# separable over the reals, though not bit for bit in float32 (rounding), e.g. at
# x, x′, y, y′ = 0, 1, 0, 2**24 + 2. statistics.mode hashes its data, in a helper
# module: values that are equal numbers but distinct objects (a batch of floats)
# would count apart, and f would look like y.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _adv_modes  # noqa: E402


def f(a, b):
    return _adv_modes.mode3(a, b, b + 0 * a) - a + b


WITNESS = {
    "associative": (0, 0, 1),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 0)],
    "separable": (0, 1, 1, 2),
    "additively_separable.float32": (0, 1, 0, 2 ** 24 + 2),
}
