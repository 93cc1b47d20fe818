# expect: kind=binary commutative=unknown associative=unknown idempotent=proved
# On the device % on floats is fmod (the sign of the dividend), not Python's % (the sign
# of the divisor), which the readings use: they see (a − b) % 2.0 ≥ 0 and f = max, while
# Triton's interpreter gives f(−0.5, 5) = 5 + fmod(−5.5, 2) = 3.5 ≠ 5 = f(5, −0.5). No
# proof of the readings stands against what Triton runs.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.maximum(a, b) + tl.minimum((a - b) % 2.0, 0.0)
