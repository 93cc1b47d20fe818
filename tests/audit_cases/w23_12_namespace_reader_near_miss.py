# expect: kind=binary associative=proved commutative=proved
# Near miss: reads the module's globals through globals(), its own attribute dict
# through vars(f) and an attribute set on it after its def, and writes nothing outside
# the call: f is a + b (f(1, 2) = 3.0 at every call), so the laws are proved.
_SCALE = 1.0


def f(a, b):
    unit = vars(f).get("unit", 1.0) * f.unit
    return (a + b) * globals().get("_SCALE", 1.0) * unit


f.unit = 1.0
