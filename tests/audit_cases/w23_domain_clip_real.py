# expect: kind=binary identity=refuted
# The near miss of w23_domain_unit_clip: with no domain stated, min(1, a + b) has no
# identity (f(0, 2) = 1).
def f(a, b):
    return min(1.0, a + b)
