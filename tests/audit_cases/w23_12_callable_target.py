# expect: kind=binary commutative=proved associative=proved|tested
# target: soft
# The audited target is a callable object: soft(a, b) = t·log(e^(a/t) + e^(b/t)) with
# t = 1.0 read from the object (soft(0, 0) = log 2 = 0.6931…), followed through its
# __call__ rebound with self's attributes by the literal rule.
import math


class _Soft:
    def __init__(self, t):
        self.t = t

    def __call__(self, a, b):
        return self.t * math.log(math.exp(a / self.t) + math.exp(b / self.t))


soft = _Soft(1.0)
