# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown idempotent.float32=inexact|unknown|not-evaluated idempotent.float64=inexact|unknown|not-evaluated
# max(a, b) over the reals (a·b − a·b = 0). In float32, a = 2**70 makes a·a overflow:
# ∞ − ∞ = NaN, and max(NaN, a) is NaN (Python's max and torch.maximum alike), not a.
# IEEE maxNum would drop the NaN; the function as written does not. float64: 2**600.
# −∞ is no identity either: (−∞·3 − (−∞·3)) is NaN.
def f(a, b):
    return max(a + (a * b - a * b), b)


WITNESS = {
    "identity": [("-inf", 3), (0, -1), ("inf", 3)],
    "idempotent.float32": (2 ** 70,),
    "idempotent.float64": (2 ** 600,),
}
