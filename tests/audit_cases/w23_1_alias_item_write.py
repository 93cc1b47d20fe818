# expect: kind=binary associative=unknown commutative=unknown
# A module dict written through a local alias and an augmented item assignment.
_COUNTS = {"calls": 0}


def f(a, b):
    counts = _COUNTS
    counts["calls"] += 1
    return a + b if counts["calls"] < 3000 else a - b
