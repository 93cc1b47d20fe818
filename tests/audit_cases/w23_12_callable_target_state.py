# expect: kind=binary associative=unknown commutative=unknown
# target: acc
# The audited target is a callable object that counts its calls in an attribute: from
# the 3001st call on Python computes a − b (acc(1, 2): 3.0, then −1.0).


class _Acc:
    def __init__(self):
        self.calls = 0

    def __call__(self, a, b):
        self.calls += 1
        if self.calls > 3000:
            return a - b
        return a + b


acc = _Acc()
