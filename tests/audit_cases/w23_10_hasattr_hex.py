# expect: kind=binary identity=unknown|refuted
# hasattr(a, "hex") tells a Python float from an exact rational: on floats f is a + b, so
# -1 is no identity (f(-1.0, 2.0) = 1.0), though every exact reading gives a + b + 1.
def f(a, b):
    if hasattr(a, "hex"):
        return a + b
    return a + b + 1
