"""Static performance facts: bytes moved and flops of one launch at a stated shape, from
``papers.kernel_traffic`` (the kernels' own traffic accounting), and the lower bound on
its time at each GPU's memory bandwidth and tensor-core / FP32 peak.

Peaks (dense, no sparsity; vendor datasheets): H100 SXM5 — 3.35 TB/s HBM3, 989 TFLOP/s
BF16/FP16 and 494 TF32 tensor core, 67 TFLOP/s FP32 (NVIDIA H100 Tensor Core GPU
datasheet); H200 SXM — 4.8 TB/s HBM3e, same compute as H100 SXM (NVIDIA H200 datasheet);
B200 (HGX, 1000 W) — 8 TB/s HBM3e, 2.25 PFLOP/s BF16/FP16 and 1.1 PFLOP/s TF32 dense
tensor core, 80 TFLOP/s FP32 (NVIDIA's Blackwell architecture brief, HGX B200 per-GPU
table). Figures are the vendor's peak, not measured; the floor is
max(bytes / bandwidth, flops / peak)."""
from __future__ import annotations

PEAKS = {
    "H100-SXM": {"target": "sm_90a", "bytes_per_s": 3.35e12, "tensor_f16": 989e12,
                 "tensor_tf32": 494e12, "fp32": 67e12},
    "H200": {"target": "sm_90a", "bytes_per_s": 4.8e12, "tensor_f16": 989e12,
             "tensor_tf32": 494e12, "fp32": 67e12},
    "B200": {"target": "sm_100a", "bytes_per_s": 8.0e12, "tensor_f16": 2.25e15,
             "tensor_tf32": 1.1e15, "fp32": 80e12},
}
# The shape each kernel's GPU benchmark uses (impls/<name>.py ``_bench("gpu")``).
SHAPES = {
    "softmax": {"rows": 4096, "n": 4096}, "var_mean": {"rows": 4096, "n": 4096},
    "layer_norm": {"rows": 4096, "n": 4096}, "scan": {"rows": 64, "n": 65536},
    "linear_scan": {"rows": 64, "n": 65536},
    "selective_scan": {"batch": 4, "length": 2048, "channels": 256, "states": 16},
    "topk": {"rows": 64, "n": 65536, "k": 64},
    "attention": {"batch": 4, "heads": 16, "m": 4096, "n": 4096, "d": 64},
    "matmul": {"m": 4096, "n": 4096, "k": 4096},
    "lora": {"m": 4096, "d_in": 4096, "d_out": 4096, "r": 16},
    "int8_matmul": {"m": 16, "n": 8192, "k": 8192}, "nbody": {"n": 16384},
    "paged_attention": {"batch": 32, "heads": 8, "m": 1, "length": 2048, "d": 128, "page": 16},
    "ring_attention": {"batch": 2, "heads": 16, "n": 8192, "d": 128, "shards": 8},
}
_TENSOR_CORE = {"attention", "matmul", "lora", "int8_matmul", "paged_attention",
                "ring_attention"}


def static_facts(name: str, dtype: str) -> dict | None:
    """Bytes, flops and the time floor on each GPU for kernel ``name`` in ``dtype`` at
    its benchmark shape; None for a kernel the traffic model does not know."""
    from papers.kernel_traffic import KERNELS, traffic
    if name not in KERNELS or name not in SHAPES:
        return None
    try:
        t = traffic(name, dtype=dtype, backend="gpu", **SHAPES[name])
    except Exception as exc:  # a shape the model refuses is reported, not hidden
        return {"shape": SHAPES[name], "error": f"{type(exc).__name__}: {exc}"}
    floors = {}
    for gpu, p in PEAKS.items():
        if name in _TENSOR_CORE:
            peak = p["tensor_tf32"] if dtype == "float32" else p["tensor_f16"]
        else:
            peak = p["fp32"]
        memory, compute = t["bytes"] / p["bytes_per_s"], t["flops"] / peak
        floors[gpu] = {"seconds": max(memory, compute),
                       "bound": "memory" if memory >= compute else "compute"}
    return {"shape": SHAPES[name], "dtype": dtype, "bytes": t["bytes"], "flops": t["flops"],
            "floor": floors}
