# expect: fail associative
# The coefficient from magnitudes, √(A²)·A′, where A′ ≥ 0: right only when A ≥ 0. A fold
# never uses a composed coefficient as A′, so only regrouping shows it.
import math


def compose(first, then):
    a, b = first
    a2, b2 = then
    if a2 >= 0:
        return math.sqrt(a * a) * a2, a2 * b + b2
    return a * a2, a2 * b + b2
