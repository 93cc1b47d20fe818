# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="-inf"
# The stand-in is faithful here: only order tests against −∞, so the identity stays proved.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.maximum(a, b)
