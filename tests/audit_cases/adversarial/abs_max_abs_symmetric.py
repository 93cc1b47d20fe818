# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# (|a + b| + |a − b|)/2 = max(|a|, |b|).
def f(a, b):
    return (abs(a + b) + abs(a - b)) / 2


WITNESS = {
    "identity": [(0, -1), ("inf", 1), ("-inf", 1), (1, 0)],
    "idempotent": (-1,),
}
