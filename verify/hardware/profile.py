"""One compiled kernel's profile: the PTX reading (``ptx.profile``), registers, spills and
shared memory with the occupancy they allow, and the static performance facts (bytes,
flops and the time floor at each GPU's peaks)."""
from __future__ import annotations

import math

from .ptx import profile as read_ptx

# Per-SM limits of compute capability 9.0 and 10.0 (CUDA C++ Programming Guide, "Compute
# Capabilities", table "Technical Specifications per Compute Capability"): 64 K 32-bit
# registers, 64 resident warps, 32 resident blocks, 228 KB shared memory (227 KB usable by
# one block, 1 KB reserved per block); registers are allocated per warp in units of 256.
SM_LIMITS = {"sm_90a": {"registers": 65536, "warps": 64, "blocks": 32, "shared": 228 * 1024},
             "sm_100a": {"registers": 65536, "warps": 64, "blocks": 32, "shared": 228 * 1024}}


def occupancy(target: str, registers: int, shared: int, warps: int) -> dict:
    """Resident blocks and warps per SM allowed by registers, shared memory and warps."""
    lim = SM_LIMITS[target]
    per_warp = math.ceil(max(registers, 1) * 32 / 256) * 256
    by_regs = lim["registers"] // (per_warp * warps)
    by_smem = lim["shared"] // (shared + 1024) if shared else lim["blocks"]
    by_warps = lim["warps"] // warps
    blocks = min(by_regs, by_smem, by_warps, lim["blocks"])
    limiter = min((("registers", by_regs), ("shared memory", by_smem), ("warps", by_warps),
                   ("blocks", lim["blocks"])), key=lambda kv: kv[1])[0]
    return {"blocks_per_sm": blocks, "warps_per_sm": blocks * warps,
            "occupancy": round(blocks * warps / lim["warps"], 3), "limited_by": limiter}


def compiled_profile(result: dict) -> dict:
    """The profile of one compile result (``compile.compile_launches``)."""
    if "error" in result:
        return {"target": result["target"], "error": result["error"]}
    prof = read_ptx(result["ptx"])
    md = result["metadata"]
    res = result.get("resources") or {}
    shared = max(md["shared"], res.get("static_shared_bytes", 0))
    prof.update({
        "target": result["target"],
        "num_warps": md["num_warps"], "num_stages": md["num_stages"],
        "fp_fusion": md["enable_fp_fusion"],
        "registers": res.get("registers"), "spill_bytes": res.get("local_bytes"),
        "shared_bytes": shared,
        "occupancy": (occupancy(result["target"], res["registers"], shared, md["num_warps"])
                      if res.get("registers") is not None else None),
        "sass": result.get("sass"),
        "compile_seconds": result.get("seconds", 0.0), "cached": result.get("cached", False),
    })
    return prof
