# expect: kind=binary commutative=refuted|unknown associative=refuted|unknown
# max returns its first argument unless the second is greater, so `m is a` holds when
# a ≥ b: f(2, 1) = 2 but f(1, 2) = 3. On symbolic values `is` is always false (a + b).
def f(a, b):
    m = max(a, b)
    if m is a:
        return m
    return a + b
