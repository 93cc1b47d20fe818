"""Tiled matmul as the Triton tutorial writes it: one program per BLOCK_M × BLOCK_N
tile of C, a loop over K in steps of BLOCK_K with masked loads (other = 0), tl.dot into
a float32 accumulator, the tile cast to C's dtype and stored under a mask."""
import torch
import triton
import triton.language as tl

from verify.cases import matrices
from verify.certification.binding import bind


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, K_LIMIT_SHIFT: tl.constexpr, ACC: tl.constexpr,
                  SCALE: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC)
    for k in range(0, K, BLOCK_K):
        ks = k + rk
        a = tl.load(a_ptr + rm[:, None] * K + ks[None, :],
                    mask=(rm[:, None] < M) & (ks[None, :] < K + K_LIMIT_SHIFT), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + rn[None, :],
                    mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee").to(ACC)
    c = acc.to(tl.float32) * SCALE
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul(a, b, k_limit_shift=0, acc=tl.float32, scale=1.0, block=(16, 16, 16)):
    """C = A·B for 2-D contiguous tensors of one dtype."""
    assert a.dim() == b.dim() == 2 and a.shape[1] == b.shape[0]
    assert a.is_contiguous() and b.is_contiguous()
    (m, k), n = a.shape, b.shape[1]
    c = torch.empty((m, n), dtype=a.dtype, device=a.device)
    bm, bn, bk = block
    matmul_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        a, b, c, m, n, k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, K_LIMIT_SHIFT=k_limit_shift,
        ACC=acc, SCALE=scale)
    return c


PLANTED = {
    "mask drops the last column": lambda a, b: matmul(a, b, k_limit_shift=-1),
    "fp16 accumulation": lambda a, b: matmul(a, b, acc=tl.float16),
    "output scaled by 1 + 2^-10": lambda a, b: matmul(a, b, scale=1.0 + 2.0 ** -10),
}


def binding(fn=matmul):
    return bind(fn, reference="matmul", dtypes=("float32", "float16"), block=16,
                inputs=matrices([(33, 17, 20), (20, 1, 17), (16, 65, 16), (1, 40, 1)]))


KERNEL = binding()
