# expect: kind=binary associative=unknown commutative=unknown
# A callable object whose property counts its reads: from the 3000th call on Python
# computes b − a (f(1, 2): 3.0, then 1.0).


class _Sign:
    def __init__(self):
        self._reads = 0

    @property
    def sign(self):
        self._reads += 1
        return 1.0 if self._reads < 3000 else -1.0

    def __call__(self, x):
        return x * self.sign


_signed = _Sign()


def f(a, b):
    return _signed(a) + b
