# expect: kind=binary associative=proved commutative=proved
# target: combine
# The audited target is a bound method of a read-only object: combine(a, b) =
# max(a, b) · 1.0 (combine(1, 2) = 2.0), followed through the method rebound.


class _Max:
    def __init__(self, k):
        self.k = k

    def merge(self, a, b):
        return max(a, b) * self.k


combine = _Max(1.0).merge
