"""SwiGLU forward as fused MLP kernels write it: elementwise over the flattened tensors,
a and b loaded and widened to float32, y = silu(a)·b = a·σ(a)·b with σ(a) = 1/(1 + e^−a),
y stored in the input dtype. Planted bugs are flags of the wrapper."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, y_ptr, n, BLOCK: tl.constexpr, GATE_IN_INPUT: tl.constexpr,
                  SCALE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    a = tl.load(a_ptr + offs, mask=inside, other=0.0)
    b = tl.load(b_ptr + offs, mask=inside, other=0.0)
    if GATE_IN_INPUT:
        gate = a / (1.0 + tl.exp(-a.to(tl.float32)).to(a.dtype))
    else:
        gate = a.to(tl.float32) / (1.0 + tl.exp(-a.to(tl.float32)))
    y = gate.to(tl.float32) * b.to(tl.float32) * SCALE
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=inside)


def swiglu(a, b, gate_in_input=False, scale=1.0, block=128):
    """silu(a)·b elementwise for contiguous tensors of one shape and dtype, in that dtype."""
    assert a.shape == b.shape and a.is_contiguous() and b.is_contiguous()
    y = torch.empty_like(a)
    swiglu_kernel[(triton.cdiv(a.numel(), block),)](a, b, y, a.numel(), BLOCK=block,
                                                     GATE_IN_INPUT=gate_in_input, SCALE=scale)
    return y


PLANTED = {
    "sigmoid in the input format": lambda a, b: swiglu(a, b, gate_in_input=True),
    "output scaled by 1 + 2^-10": lambda a, b: swiglu(a, b, scale=1.0 + 2.0 ** -10),
}


def binding(fn=swiglu):
    return bind(fn, reference="swiglu", dtypes=("float32", "float16"),
                inputs=rows(n=[1, 7, 129, 300], name="a",
                            classes=("random", "length-1", "huge-dynamic-range",
                                     "large-offset", "negative-zero")))


KERNEL = binding()
