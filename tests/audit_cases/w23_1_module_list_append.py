# expect: kind=binary associative=unknown commutative=unknown
# A module-level list appended to (no global statement): after 3000 calls f is a − b.
_history = []


def f(a, b):
    _history.append(1)
    if len(_history) > 3000:
        return a - b
    return a + b
