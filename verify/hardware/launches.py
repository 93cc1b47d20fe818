"""The launch configurations a kernel's GPU path uses, observed rather than written down:
the kernel's own wrapper runs each GPU certification case in every dtype it accepts, in
the interpreter, with the GPU configuration chosen (``capture.recording(pretend_gpu)``)
and the kernel bodies skipped. Row kernels (those whose launch comes from
``impls.launch.config``) are also compiled for every size class that config has on a GPU."""
from __future__ import annotations

import copy
import sys

from .capture import launch_id, recording

ROW_SIZES = (1, 128, 256, 512, 1024, 2048, 4096, 8192)


def _project_module(spec):
    """The impls module a project kernel's spec is the KERNEL of; None for a user's
    binding (its spec comes from the user's file)."""
    module = sys.modules.get(f"impls.{spec.name}")
    kernel = getattr(module, "KERNEL", None)
    if kernel is spec:
        return module
    # a BoundKernel's spec: its binding runs the wrapper the module declared
    running = getattr(getattr(spec.execution.run, "__self__", None), "running", None)
    wrapper = getattr(kernel, "wrapper", None)
    if running is not None and wrapper is not None and wrapper is running.fn:
        return module
    return None


def _row_classes(spec, launches: list[dict]) -> list[dict]:
    from impls import launch as rows
    module = _project_module(spec)
    if getattr(module, "config", None) is not rows.config:
        return launches
    out = {launch_id(x): x for x in launches}
    for launch in launches:
        for n in ROW_SIZES:
            cfg = rows.config(n, "gpu")
            var = copy.deepcopy(launch)
            for a in var["args"]:
                if a["constexpr"] and a["name"] == "BLOCK":
                    a["value"] = cfg["block"]
            var["options"]["num_warps"] = cfg["num_warps"]
            out.setdefault(launch_id(var), var)
    return list(out.values())


def gpu_launches(spec, seed: int = 0) -> tuple[list[dict], list[str]]:
    """(launches, problems) of a KernelSpec on the GPU path, every dtype. A project
    kernel runs its GPU cases with its GPU configuration chosen; a user's binding runs
    its interpreter cases, and its wrapper chooses what it chooses here."""
    from verify.certification.binding import as_spec
    spec = as_spec(spec)       # a BoundKernel is declared as data: bound here
    problems = []
    project = _project_module(spec) is not None
    with recording(execute=False, pretend_gpu=project) as launches:
        for case in spec.coverage.cases(seed, "gpu" if project else "triton-interpreter"):
            for dtype in spec.dtypes:
                try:
                    spec.execution.run(case, dtype)
                except Exception as exc:  # the launch before it is still recorded
                    problems.append(f"{case.name} {dtype}: {type(exc).__name__}: {exc}")
    return _row_classes(spec, list(launches)), problems


def observed_launches(run, *args, **kwargs) -> list[dict]:
    """The launches ``run(*args, **kwargs)`` makes in the interpreter (a user's binding:
    the configurations its wrapper really chooses here), kernels executed."""
    with recording(execute=True) as launches:
        run(*args, **kwargs)
    return list(launches)
