# expect: kind=binary associative=proved commutative=proved
# Near miss: iterates a local list it builds, reads a global tuple, and appends to its own
# list through the unbound method: nothing outside the call changes, so the laws are proved.
_WEIGHTS = (1.0, 1.0)


def f(a, b):
    parts = []
    list.append(parts, a)
    list.append(parts, b)
    total = 0.0
    for p in iter(parts):
        total += p
    return total * next(iter(_WEIGHTS))
