# expect: kind=binary associative=proved|tested commutative=proved|tested idempotent=refuted
# The same merge by sorting: nested calls fork more paths than the prover follows.
def merge(a, b):
    s = sorted(list(a) + list(b), reverse=True)
    return s[0], s[1]
