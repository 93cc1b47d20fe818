# expect: kind=binary associative=proved commutative=proved idempotent=refuted
# numpy's elementwise vocabulary, run under every interpretation.
import numpy as np


def logaddexp(a, b):
    m = np.maximum(a, b)
    return m + np.log(np.exp(a - m) + np.exp(b - m))
