"""Launch configuration shared by the row-reduction kernels (softmax, var_mean,
layer_norm): one program per row, the row read in blocks."""
from __future__ import annotations

import math

import triton

from .spec import backend as current_backend


def config(n_cols: int, backend: str | None = None) -> dict:
    """Block size, warps and merge-tree height for rows of n_cols. Interpreter:
    tl.reduce is a sequential fold (height BLOCK − 1). GPU: a model of Triton's reduction
    lowering — per-thread fold, warp butterfly, cross-warp tree — plus 2 spare levels.
    ``depth`` adds one merge per block for the running state across blocks."""
    backend = backend or current_backend()
    if backend == "gpu":
        block = min(4096, max(128, triton.next_power_of_2(n_cols)))
        warps = 4 if block <= 1024 else 8
        per_thread = max(1, block // (32 * warps))
        block_depth = (per_thread - 1) + 5 + int(math.log2(warps)) + 2
    else:
        block = min(64, max(16, triton.next_power_of_2(n_cols)))
        warps = 1
        block_depth = block - 1
    blocks = triton.cdiv(n_cols, block)
    return {"block": block, "num_warps": warps, "blocks": blocks,
            "block_depth": block_depth, "depth": block_depth + blocks}
