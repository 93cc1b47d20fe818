# expect: kind=binary commutative=refuted idempotent=tested|proved identity=tested|proved identity.element=0
# A recursion whose end depends on the values (Euclid on floats, until b == 0): on
# symbolic values it never ends and each level nests the last one's a % b, so the prover
# stops after 6 levels of f inside f and the searcher decides (before, the audit ran past
# its 300 s limit). Python's % keeps the divisor's sign: f(−2, 4) = 2, f(4, −2) = −2.


def f(a, b):
    if b == 0:
        return a
    return f(b, a % b)
