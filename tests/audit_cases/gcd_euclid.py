# expect: kind=binary associative=tested commutative=tested identity=unknown idempotent=refuted
# The prover cannot follow int(): the searcher decides.
def gcd(a, b):
    a, b = abs(int(a)), abs(int(b))
    while b:
        a, b = b, a % b
    return a
