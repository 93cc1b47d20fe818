# expect: fail associative
# The δ² correction squared from its root when δ ≥ 0; the other branch subtracts it.
import math


def combine(a, b):
    n_a, mean_a, m2_a = a
    n_b, mean_b, m2_b = b
    n = n_a + n_b
    delta = mean_b - mean_a
    if delta >= 0:
        root = math.sqrt(delta * delta * n_a * n_b / n)
        return n, mean_a + delta * n_b / n, m2_a + m2_b + root * root
    return n, mean_a + delta * n_b / n, m2_a + m2_b - delta * delta * n_a * n_b / n
