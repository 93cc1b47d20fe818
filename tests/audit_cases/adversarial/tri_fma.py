# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# a·b + a = a(b + 1): 0 is only a right identity.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.fma(a, b, a)


WITNESS = {
    "associative": (1, 1, 1),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 0), ("inf", 1), ("-inf", 1)],
    "idempotent": (1,),
}
