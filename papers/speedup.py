"""Speedup claims: measured on a GPU against the stated baseline, ``needs-gpu`` otherwise.

A measurement is a list of (shape, speedup) pairs, each speedup the baseline's median
time over the candidate's (CUDA events, after warm-up). A range claim ("2–4×") holds
when the median over the shapes reaches its low end; an "up to X" claim when the best
shape reaches X; both with a 10% allowance for timing noise. The device and every
figure go into the evidence: a ratio measured on another GPU than the text's is a
different measurement, and the evidence says which.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Callable, ClassVar

from .claims import CONFIRMED, NEEDS_GPU, REFUTED, LawVerdict, Outcome, outcome

TOLERANCE = 0.10


def gpu_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@dataclass(frozen=True)
class Speedup:
    text: str
    where: str
    baseline: str                      # what the text compares against
    candidate: str                     # what is timed in its place
    claimed: tuple[float, float]       # (low, high); high = low for a single figure
    measure: Callable[[], list[tuple[str, float]]] = field(repr=False)
    up_to: bool = False                # "up to X": the best shape must reach X
    tolerance: float = TOLERANCE       # allowance for timing noise below the low end
    related: tuple[str, ...] = ()
    kind: ClassVar[str] = "speedup"
    laws: ClassVar[tuple[str, ...]] = ()

    def check(self, law_verdict: LawVerdict | None = None) -> Outcome:
        if not gpu_available():
            return outcome(NEEDS_GPU,
                           "measured only on a GPU (torch.cuda.is_available() is False): "
                           f"{self.candidate} against {self.baseline}")
        return judge(self, self.measure(), device_name())


def judge(claim: Speedup, results: list[tuple[str, float]], device: str) -> Outcome:
    """The verdict for measured (shape, speedup) pairs."""
    low, high = claim.claimed
    figure = max(s for _, s in results) if claim.up_to else statistics.median(
        s for _, s in results)
    what = "best" if claim.up_to else "median"
    stated = (f"up to {low:g}×" if claim.up_to else
              f"{low:g}–{high:g}×" if high != low else f"{low:g}×")
    lines = [f"  {shape}: {s:.3g}×" for shape, s in results]
    head = (f"{what} measured speedup {figure:.3g}× on {device} ({claim.candidate} vs "
            f"{claim.baseline}); the text states {stated}")
    if figure >= low * (1 - claim.tolerance):
        return outcome(CONFIRMED, head, *lines)
    return outcome(REFUTED, head + f": below {low:g}×", *lines)


def device_name() -> str:
    import torch
    return torch.cuda.get_device_name(0)


def median_ms(fn: Callable[[], object], warmup: int = 3, runs: int = 10) -> float:
    """Median wall time of ``fn`` in milliseconds, by CUDA events."""
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


# --------------------------------------------------------------------------- measurements
def flash_vs_standard(seq_lens=(1024, 2048, 4096), batch: int = 4, heads: int = 16,
                      d: int = 64, causal: bool = False) -> list[tuple[str, float]]:
    """FlashAttention-2 (torch's SDPA flash backend) against the textbook attention
    (S and P materialised), float16, forward and backward."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def standard(q, k, v):
        s = q @ k.transpose(-1, -2) * d ** -0.5
        if causal:
            s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
        return torch.softmax(s, dim=-1) @ v

    def flash(q, k, v):
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

    out = []
    for n in seq_lens:
        q, k, v = (torch.randn(batch, heads, n, d, device="cuda", dtype=torch.float16,
                               requires_grad=True) for _ in range(3))
        grad = torch.randn(batch, heads, n, d, device="cuda", dtype=torch.float16)
        step = lambda f: f(q, k, v).backward(grad)
        out.append((f"B={batch} H={heads} N={n} d={d} fp16 fwd+bwd",
                    median_ms(lambda: step(standard)) / median_ms(lambda: step(flash))))
    return out


def mamba_naive_vs_kernel(batch=1, length=2048, channels=2048, states=16
                          ) -> list[tuple[str, float]]:
    """The book's per-timestep PyTorch loop against this project's chunked selective-scan
    kernel (``impls/selective_scan.py``) standing in for the book's kernel, float32."""
    import torch
    from impls.selective_scan import selective_scan

    dev = "cuda"
    x = torch.randn(batch, length, channels, device=dev)
    A = -torch.rand(channels, states, device=dev)
    Bm = torch.randn(batch, length, states, device=dev)
    Cm = torch.randn(batch, length, states, device=dev)
    delta = torch.rand(batch, length, channels, device=dev) * 0.1
    Dskip = torch.zeros(channels, device=dev)

    def naive():
        h = torch.zeros(batch, channels, states, device=dev)
        ys = []
        for t in range(length):
            h = torch.exp(delta[:, t, :, None] * A) * h + Bm[:, t, None, :] * x[:, t, :, None]
            ys.append((Cm[:, t, None, :] * h).sum(-1))
        return torch.stack(ys, 1)

    kernel = lambda: selective_scan(x, delta, A, Bm, Cm, Dskip)
    return [(f"B={batch} L={length} D={channels} N={states} fp32",
             median_ms(naive, 1, 3) / median_ms(kernel))]


def selective_scan_vs_loop(shapes=((4, 2048, 256, 16), (4, 8192, 256, 16))
                           ) -> list[tuple[str, float]]:
    """This project's selective-scan kernel against the sequential PyTorch loop."""
    import torch
    from impls.selective_scan import selective_scan, sequential

    out = []
    for batch, length, channels, states in shapes:
        dev = "cuda"
        x = torch.randn(batch, length, channels, device=dev)
        delta = torch.rand(batch, length, channels, device=dev) * 0.1
        A = -torch.rand(channels, states, device=dev)
        Bm, Cm = (torch.randn(batch, length, states, device=dev) for _ in range(2))
        Dskip = torch.randn(channels, device=dev)
        args = (x, delta, A, Bm, Cm, Dskip)
        out.append((f"B={batch} L={length} D={channels} N={states} fp32",
                    median_ms(lambda: sequential(*args), 1, 3)
                    / median_ms(lambda: selective_scan(*args))))
    return out


def aligned_matmul(size: int = 4096) -> list[tuple[str, float]]:
    """Time per flop of an fp16 matmul with every dimension one short of a multiple of 8,
    over the aligned one."""
    import torch
    out = []
    a, b = (torch.randn(size, size, device="cuda", dtype=torch.float16) for _ in range(2))
    c, e = (torch.randn(size - 1, size - 1, device="cuda", dtype=torch.float16)
            for _ in range(2))
    aligned = median_ms(lambda: a @ b) / size ** 3
    odd = median_ms(lambda: c @ e) / (size - 1) ** 3
    out.append((f"{size}³ vs {size - 1}³ fp16 (time per flop)", odd / aligned))
    return out
