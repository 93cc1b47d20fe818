# expect: fail associative
# The rescaled sum through the log of the sums' ratio, defined when the sums differ;
# equal sums (every single datum has d = 1) are added without rescaling.
import math


def combine(a, b):
    m = max(a[0], b[0])
    if a[1] != b[1]:
        r = math.log(a[1] / b[1])
        return m, b[1] * (math.exp(r + a[0] - m) + math.exp(b[0] - m))
    return m, a[1] + b[1]
