# expect: kind=binary associative=unknown commutative=unknown
# A callable object counts its calls in an attribute: from the 3001st call on Python
# computes a − b (f(1, 2): 3.0, then −1.0).


class _Counter:
    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return self.n


_tick = _Counter()


def f(a, b):
    if _tick() > 3000:
        return a - b
    return a + b
