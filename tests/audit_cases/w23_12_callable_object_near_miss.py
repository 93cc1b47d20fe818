# expect: kind=binary associative=proved commutative=proved
# Near miss: a callable object that only reads its attribute and calls a method of its
# own (its __call__ runs rebound, self.k read as the double 1.0): f is a + b at every
# call, so the laws are proved.
import math


class _Scale:
    def __init__(self, k):
        self.k = k

    def twice(self, x):
        return 2 * x

    def __call__(self, x):
        return self.twice(self.k * x) / 2 + 0 * math.fabs(x)


_unit = _Scale(1.0)


def f(a, b):
    return _unit(a) + _unit(b)
