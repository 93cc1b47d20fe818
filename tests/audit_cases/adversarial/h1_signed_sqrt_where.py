# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# g(s) = sign(s)·√|s| applied to s = a + b. tl.where evaluates both branches; a sqrt
# side condition asserted for both (s ≥ 0 and −s ≥ 0) collapses the domain to s = 0.
# f(f(4, 0), 0) = √2 but f(4, f(0, 0)) = 2. No identity: g(e + a) = a at a = 0 forces
# e = 0, and g(4) = 2.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    s = a + b
    return tl.where(s >= 0, tl.sqrt(s), -tl.sqrt(-s))


WITNESS = {
    "associative": (4, 0, 0),
    "identity": [(0, 4), (1, 0), ("-inf", 4), ("inf", 4)],
    "idempotent": (1,),
    "separable": (1, 0, 0, 3),
    "additively_separable": (1, 0, 0, 3),
}
