"""Where kernels run: the one place that decides the backend and describes the device.

Triton decides at decoration time (when a kernel module is imported) whether a
``@triton.jit`` function is compiled for a GPU or run by its CPU interpreter, from the
environment variable ``TRITON_INTERPRET``. ``choose_backend`` is therefore the only code
that sets or clears that variable; the command line, the Python API (``verify.certify``,
``verify.use_backend``), the batch certifier and the test plugin call it, and the child
processes of isolate.py inherit what it set. ``impls.spec.backend`` reads the result.

Not covered: choosing a GPU among several (CUDA's default device is used).
"""
from __future__ import annotations

import os
import platform
import sys

from verify.errors import BadInput

GPU, INTERPRETER = "gpu", "triton-interpreter"
CHOICES = ("auto", "gpu", "interpreter")
# What each backend does with results below the normal range (the certificate's
# ``device.subnormals``); tests/certification/test_overflow.py probes the interpreter's.
SUBNORMALS = {
    INTERPRETER: "numpy arithmetic: gradual underflow in every format, subnormal inputs and "
                 "results kept, never flushed to zero",
    GPU: "Triton's defaults: the kernel's float32 add, multiply and fma compile without "
         ".ftz (subnormals kept) and conversions to float16/bfloat16 keep subnormals; "
         "instructions with .ftz flush subnormal inputs and results to zero: libdevice "
         "functions (compiled with reflect-ftz, e.g. logf's fma.rn.ftz.f32 steps) and "
         "approximate ones such as sqrt.approx.ftz.f32 and rsqrt.approx.ftz.f32; those "
         "this kernel uses are listed under compiled.<target>.launches[].ftz",
}


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def _kernels_loaded() -> list[str]:
    """Kernel modules already imported (their ``@triton.jit`` functions are decorated
    for whatever backend was in force then)."""
    return [m for m in sys.modules if m.startswith("impls.")
            and m not in ("impls.spec", "impls.numerics")]


def running_backend() -> str:
    """The backend kernels imported now run on (``impls.spec.backend``)."""
    from impls.spec import backend
    return backend()


def choose_backend(requested: str = "auto") -> str:
    """``auto`` | ``gpu`` | ``interpreter`` (also ``cuda``, ``triton-interpreter``) -> the
    backend kernels run on, with ``TRITON_INTERPRET`` set to match; ``BadInput`` for a
    backend that is not available or can no longer be chosen. ``auto`` is the GPU when
    CUDA is usable and ``TRITON_INTERPRET=1`` does not force the interpreter, else the
    interpreter. Call it before kernels are imported; afterwards only the backend they
    were imported for can be chosen."""
    if requested == "auto":
        forced = os.environ.get("TRITON_INTERPRET") == "1"
        requested = GPU if not forced and _cuda_available() else "interpreter"
    if requested in (GPU, "cuda"):
        if not _cuda_available():
            raise BadInput("gpu backend requested but CUDA is not available")
        if os.environ.get("TRITON_INTERPRET") == "1":
            if _kernels_loaded():
                raise BadInput("gpu backend requested but TRITON_INTERPRET=1 forces the "
                               "interpreter")
            os.environ.pop("TRITON_INTERPRET", None)
        return GPU
    if requested in ("interpreter", INTERPRETER, "cpu"):
        if os.environ.get("TRITON_INTERPRET") != "1":
            if _kernels_loaded() and running_backend() != INTERPRETER:
                raise BadInput("interpreter requested after kernels were loaded for the GPU; "
                               "set TRITON_INTERPRET=1 before starting")
            os.environ["TRITON_INTERPRET"] = "1"
        return INTERPRETER
    raise BadInput(f"unknown backend {requested!r} (use auto, gpu or interpreter)")


def normalize_backend(name: str) -> str:
    """A backend's canonical name (``gpu`` or ``triton-interpreter``); ``BadInput`` else."""
    if name in (GPU, "cuda"):
        return GPU
    if name in (INTERPRETER, "interpreter", "cpu"):
        return INTERPRETER
    raise BadInput(f"unknown backend {name!r} (use gpu or triton-interpreter)")


def device_description(backend: str) -> dict:
    """The certificate's ``device``: name, compute capability, a one-line text and what
    the backend does with subnormals (``SUBNORMALS``)."""
    if backend == GPU and _cuda_available():
        import torch
        major, minor = torch.cuda.get_device_capability()
        name = torch.cuda.get_device_name()
        return {"name": name, "capability": f"{major}.{minor}",
                "text": f"{name} (sm_{major}{minor})", "subnormals": SUBNORMALS[GPU]}
    return {"name": "cpu", "capability": None, "text": "cpu (Triton interpreter)",
            "subnormals": SUBNORMALS[INTERPRETER]}


def compiled_target() -> str | None:
    """The compilation target (verify/hardware) of the GPU here: sm_90a for Hopper,
    sm_100a for Blackwell; None without one or for another GPU."""
    try:
        import torch
        if torch.cuda.is_available():
            major, minor = torch.cuda.get_device_capability()
            return {(9, 0): "sm_90a", (10, 0): "sm_100a"}.get((major, minor))
    except Exception:  # no usable CUDA: no target
        pass
    return None


def versions() -> dict:
    """The certificate's ``versions``: Python and the libraries the figures depend on."""
    import torch
    out = {"python": platform.python_version(), "torch": torch.__version__}
    for name, attr in (("triton", "__version__"), ("z3", None), ("mpmath", "__version__")):
        try:
            module = __import__(name)
        except ImportError:
            out[name] = None
            continue
        out[name] = module.get_version_string() if attr is None else getattr(module, attr)
    return out
