# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown idempotent.float32=inexact|unknown|not-evaluated idempotent.float64=inexact|unknown|not-evaluated
# min(a, b) over the reals; the NaN of an overflowed a·a − a·a is min's first
# argument, so it propagates (Python's min returns its first argument on NaN).
def f(a, b):
    return min(a - (a * b - a * b), b)


WITNESS = {
    "identity": [("inf", 3), (0, 1), ("-inf", 3)],
    "idempotent.float32": (2 ** 70,),
    "idempotent.float64": (2 ** 600,),
}
