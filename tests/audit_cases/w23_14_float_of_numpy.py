# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="-inf" idempotent=proved separable=refuted
# float(...) around a numpy value, the common way to hand a Python float back: the z3
# reading had no float(), so every property fell to the searcher ("failed on symbolic
# values: float() argument must be … not 'ArithRef'"). Over ℝ float(x) is x.
import numpy as np


def f(a, b):
    return float(np.maximum(a, b)) if np.isfinite(a) else b
