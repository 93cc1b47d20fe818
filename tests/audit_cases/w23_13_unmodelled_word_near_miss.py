# expect: kind=binary idempotent=refuted commutative=unknown|refuted
# Near miss of the plain-Python fallback: np.remainder (no reading models it) gives NaN
# at remainder(0.0, 0.0), and a NaN side against a number (a = 0) refutes idempotence
# on plain Python alone, with no reading needed to confirm it.
import numpy as np


def f(a, b):
    return float(np.remainder(a, b))
