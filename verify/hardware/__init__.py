"""The kernels as a GPU would run them, read on a machine without one: every launch
configuration compiled for sm_90a (H100/H200) and sm_100a (B200), its instruction
profile, the GPU error model that profile allows, and static performance facts.

``profile_for(spec)`` is the one call certification makes (``doc["compiled"]``)."""
from __future__ import annotations

from .capture import launch_id
from .compile import TARGETS, compile_launches
from .launches import gpu_launches
from .profile import compiled_profile
from verify.certification.environment import compiled_target as _device_target

__all__ = ["TARGETS", "profile_for", "profile_launches", "launch_id"]


def _dtype(launch: dict) -> str:
    """The launch's data format: its floating-point tensors' narrowest input dtype."""
    floats = [a["value"] for a in launch["args"] if a["kind"] == "tensor"
              and a["value"] in ("float16", "bfloat16", "float32", "float64")]
    for d in ("bfloat16", "float16", "float32", "float64"):
        if d in floats:
            return d
    return "int"


def _input_precision(launch: dict) -> str | None:
    for a in launch["args"]:
        if a["constexpr"] and a["name"].upper() == "INPUT_PRECISION":
            return str(a["value"])
    return None


def profile_launches(launches: list[dict], model: dict, targets=tuple(TARGETS),
                     kernel: str | None = None) -> dict:
    """Per target: every launch's profile, the model check, and the GPU bound's constants."""
    from .accuracy import check
    from .perf import static_facts
    results = compile_launches(launches, targets)
    out: dict = {}
    for i, launch in enumerate(launches):
        for j, target in enumerate(targets):
            res = results[i * len(targets) + j]
            prof = compiled_profile(res)
            dtype = _dtype(launch)
            entry = {"launch": launch_id(launch), "dtype": dtype, **prof}
            if "error" not in prof:
                entry["model_check"] = check(model, prof, input_precision=_input_precision(launch))
            t = out.setdefault(target, {"launches": [], "ok": True, "problems": [], "constants": {},
                                        "compile_seconds": 0.0})
            t["launches"].append(entry)
            t["compile_seconds"] = round(t["compile_seconds"] + prof.get("compile_seconds", 0.0), 3)
            if "error" in prof:
                t["ok"] = False
                t["problems"].append(f"{entry['launch']}: does not compile: {prof['error']}")
                continue
            mc = entry["model_check"]
            for op, c in mc["constants"].items():
                t["constants"].setdefault(op, c)
            for p in mc["problems"]:
                if p not in t["problems"]:
                    t["problems"].append(p)
            t["ok"] = t["ok"] and mc["ok"]
    if kernel:
        dtypes = sorted({_dtype(x) for x in launches} - {"int"}) or ["float32"]
        out["performance"] = {d: static_facts(kernel, d) for d in dtypes}
    out["model"] = {op: {"instruction": m.instruction, "rel": m.rel, "abs": m.abs}
                    for op, m in model.items()}
    return out


_SECTIONS: dict[tuple, tuple] = {}


def profile_for(spec, targets=tuple(TARGETS)) -> dict:
    """The ``compiled`` section of a kernel's certificate (computed once per spec object
    and process; the compilations themselves are cached on disk)."""
    import copy
    from verify.certification.binding import as_spec
    spec = as_spec(spec)       # a BoundKernel is declared as data: bound here
    key = (id(spec), tuple(targets))
    if key in _SECTIONS and _SECTIONS[key][0] is spec:
        return copy.deepcopy(_SECTIONS[key][1])
    section = _profile_for(spec, targets)
    _SECTIONS[key] = (spec, section)
    return copy.deepcopy(section)


def _profile_for(spec, targets) -> dict:
    launches, problems = gpu_launches(spec)
    out = profile_launches(launches, dict(spec.bounding.gpu_model), targets,
                           kernel=spec.name)
    if problems:
        out["launch_problems"] = problems
    return out


def attach(cert: dict, spec, backend: str) -> None:
    """Put the ``compiled`` section on a certificate (verify/certification/document.py
    writes it: on a GPU whose target was compiled, a kernel whose declared error model
    assumes more accuracy than its instructions give, or that does not compile, fails)."""
    from verify.certification import document
    document.add_compiled(cert, profile_for(spec), _device_target() if backend == "gpu" else None)
