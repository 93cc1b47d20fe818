# expect: kind=binary associative=proved identity=proved identity.element=0
# By the rule for numbers in code the fold 1 / 3 means exactly 1/3, so over ℝ this is
# a + b: associative, with identity 0. Python multiplies by the double
# 0.3333333333333333 (f(0, 7.0) = 6.999999999999999), within the rounding the witness
# allows, so the proof stands, as the rule says.
def f(a, b):
    return (a + b) * (1 / 3) * 3
