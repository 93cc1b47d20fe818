"""What the kernels' wrappers share: input checks with one-line errors, the ``tl.dot``
input precision of each dtype, and the launch configuration of the row-wise kernels
(softmax, var_mean, layer_norm: one program per row, the row read in blocks)."""
from __future__ import annotations

import math
from typing import Mapping

import torch
import triton

from .spec import backend as running_backend, device

TORCH_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16,
                "float32": torch.float32}


def dot_input_precision(dtype: str) -> str:
    """The ``tl.dot`` input precision used for ``dtype`` on the running backend: fp32
    uses exact "ieee" products in the interpreter and "tf32" tensor cores on a GPU;
    fp16/bf16 products are exact either way and record "ieee"."""
    return "tf32" if dtype == "float32" and running_backend() == "gpu" else "ieee"


def check_tensors(kernel: str, tensors: Mapping[str, object], dtypes: tuple) -> None:
    """Type, dtype, device and contiguity of each named input, one-line errors."""
    want = device()
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{kernel}: {name} must be a torch.Tensor, got {type(t).__name__}")
        if t.dtype not in dtypes:
            names = ", ".join(str(d).replace("torch.", "") for d in dtypes)
            raise TypeError(f"{kernel}: {name} must be {names}, got "
                            f"{str(t.dtype).replace('torch.', '')}")
        if t.device.type != want:
            raise ValueError(f"{kernel}: {name} is on {t.device.type}, expected {want} "
                             f"for the {running_backend()} backend")
        if not t.is_contiguous():
            raise ValueError(f"{kernel}: {name} must be contiguous")


def check_shape(kernel: str, name: str, t: torch.Tensor, shape: tuple) -> None:
    """``shape`` entries are ints or None (any size)."""
    if t.dim() != len(shape) or any(s is not None and s != d for s, d in zip(shape, t.shape)):
        want = "(" + ", ".join("?" if s is None else str(s) for s in shape) + ")"
        raise ValueError(f"{kernel}: {name} has shape {tuple(t.shape)}, expected {want}")


def config(n_cols: int, backend: str | None = None) -> dict:
    """Block size, warps and merge-tree height for rows of n_cols. Interpreter:
    tl.reduce is a sequential fold (height BLOCK − 1). GPU: a model of Triton's reduction
    lowering — per-thread fold, warp butterfly, cross-warp tree — plus 2 spare levels.
    ``depth`` adds one merge per block for the running state across blocks."""
    backend = backend or running_backend()
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
