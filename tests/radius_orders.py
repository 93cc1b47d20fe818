"""Evaluate a reference in a low format with a chosen order for every reduction (a
``TorchFunctionMode`` replacing sum, mean, matmul and cumsum), to check that derived
radii hold for the orders a kernel may use."""
from __future__ import annotations

import torch
from torch.overrides import TorchFunctionMode

ORDERS = ("torch", "sequential", "reverse", "pairwise", "blocked")


def _fold(x: torch.Tensor, order: str, block: int) -> torch.Tensor:
    """Sum over the last dim of x in ``order``, every addition in x's dtype."""
    n = x.shape[-1]
    if n == 0:
        return x.sum(-1)
    if order == "torch":
        return x.sum(-1)
    if order in ("sequential", "reverse"):
        idx = range(n) if order == "sequential" else range(n - 1, -1, -1)
        it = iter(idx)
        acc = x[..., next(it)].clone()
        for i in it:
            acc = acc + x[..., i]
        return acc
    if order == "pairwise":
        while x.shape[-1] > 1:
            if x.shape[-1] % 2:
                x = torch.cat([x, torch.zeros_like(x[..., :1])], -1)
            x = x[..., 0::2] + x[..., 1::2]
        return x[..., 0]
    if order == "blocked":  # lanes accumulate across blocks, then a tree over lanes
        pad = (-n) % block
        x = torch.cat([x, torch.zeros(*x.shape[:-1], pad, dtype=x.dtype)], -1)
        lanes = x.reshape(*x.shape[:-1], -1, block)
        acc = lanes[..., 0, :].clone()
        for j in range(1, lanes.shape[-2]):
            acc = acc + lanes[..., j, :]
        return _fold(acc, "pairwise", block)
    raise ValueError(order)


def _sum(x, dim=None, keepdim=False, order="torch", block=16):
    dims = tuple(range(x.dim())) if dim is None else (
        tuple(dim) if isinstance(dim, (tuple, list)) else (dim,))
    dims = tuple(d % x.dim() for d in dims)
    rest = [d for d in range(x.dim()) if d not in dims]
    y = x.permute(*rest, *dims).reshape(*[x.shape[d] for d in rest], -1)
    out = _fold(y, order, block)
    if keepdim:
        for d in sorted(dims):
            out = out.unsqueeze(d)
    return out


def _cumsum(x, dim, order, block):
    x = x.movedim(dim, -1)
    n = x.shape[-1]
    if order == "pairwise":  # Hillis–Steele
        step = 1
        while step < n:
            x = torch.cat([x[..., :step], x[..., step:] + x[..., :-step]], -1)
            step *= 2
        return x.movedim(-1, dim)
    out, carry = [], None
    size = block if order == "blocked" else n
    for start in range(0, n, size):
        part = x[..., start:start + size]
        acc, local = None, []
        for i in range(part.shape[-1]):
            acc = part[..., i].clone() if acc is None else acc + part[..., i]
            local.append(acc)
        local = torch.stack(local, -1)
        if carry is not None:
            local = local + carry.unsqueeze(-1)
        carry = local[..., -1]
        out.append(local)
    return torch.cat(out, -1).movedim(-1, dim)


class Orders(TorchFunctionMode):
    """Inside, sum/mean/var/matmul/cumsum follow ``order`` in the tensors' dtype."""

    def __init__(self, order: str = "torch", block: int = 16):
        super().__init__()
        self.order, self.block = order, block

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        o, b = self.order, self.block
        if func in (torch.sum, torch.Tensor.sum):
            return _sum(*args, **kwargs, order=o, block=b)
        if func in (torch.mean, torch.Tensor.mean):
            x = args[0]
            dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
            keep = kwargs.get("keepdim", args[2] if len(args) > 2 else False)
            total = _sum(x, dim, keep, o, b)
            return total / (x.numel() // max(total.numel(), 1) if not keep else
                            x.numel() // total.numel())
        if func in (torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__):
            a, c = args[0], args[1]
            prod = a.unsqueeze(-1) * c.unsqueeze(-3)
            return _sum(prod, -2, False, o, b)
        if func in (torch.cumsum, torch.Tensor.cumsum):
            dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
            return _cumsum(args[0], dim, o, b)
        return func(*args, **kwargs)


def simulate(reference, inputs: dict, in_dtype: str, compute: str, order: str,
             block: int = 16, **options) -> dict:
    """The reference's outputs with inputs stored in ``in_dtype``, arithmetic in
    ``compute``, reductions in ``order``; returned in float64."""
    t_in, t_c = getattr(torch, in_dtype), getattr(torch, compute)
    args = {k: (v.to(t_in).to(t_c) if isinstance(v, torch.Tensor) and v.is_floating_point()
                else v) for k, v in inputs.items()}
    with Orders(order, block):
        out = reference(**args, **options)
    return out
