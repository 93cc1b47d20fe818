# expect: kind=binary associative=proved commutative=proved
# Near miss: reads a module list and dict and builds and changes local lists of its
# own: nothing outside the call changes, so the laws are proved.
_WEIGHTS = [1.0, 2.0]
_TABLE = {"scale": 1.0}


def f(a, b):
    parts = []
    parts.append(a)
    parts.extend([b])
    both = sorted(parts)
    total = [0.0]
    total[0] += both[0] + both[1]
    return _WEIGHTS[0] * _TABLE.get("scale", 1.0) * total[0]
