"""Compiling observed launches for a GPU target on a machine without one.

``compile_launches(launches, targets)`` turns each launch (``capture.Launch``) into
``triton.compile(ASTSource(fn, signature, constexprs), target=GPUTarget("cuda", cc, 32))``
in a child process without ``TRITON_INTERPRET`` (Triton decides at import whether
``@triton.jit`` makes an interpreted function). Results are cached on disk, keyed by the
kernel's source hash, its launch configuration, the target and the Triton version, so a
second run pays nothing. A kernel that does not compile gives ``{"error": Triton's
message}``.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TARGETS = {"sm_90a": 90, "sm_100a": 100}
_TORCH_TO_TRITON = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64",
                    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
                    "bool": "i1"}


def cache_dir() -> Path:
    root = os.environ.get("VERIFY_COMPILE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "verify", "compiled")
    return Path(root)


def _triton_version() -> str:
    try:
        from importlib.metadata import version
        return version("triton")
    except Exception:  # pragma: no cover - triton is a dependency
        return "?"


def signature(launch: dict) -> tuple[dict, dict]:
    """(signature, constexprs) for ASTSource from a recorded launch: tensors become
    pointers to their dtype, ints i32 (i64 beyond its range), floats fp32, bools i1;
    parameters declared ``tl.constexpr`` keep their value."""
    sig, const = {}, {}
    for arg in launch["args"]:
        name, kind, value = arg["name"], arg["kind"], arg.get("value")
        if arg["constexpr"]:
            sig[name] = "constexpr"
            const[name] = {"dtype": value} if kind == "dtype" else value
        elif kind == "tensor":
            sig[name] = "*" + _TORCH_TO_TRITON[value]
        elif kind == "bool":
            sig[name] = "i1"
        elif kind == "int":
            sig[name] = "i32" if -2 ** 31 <= value < 2 ** 31 else "i64"
        elif kind == "float":
            sig[name] = "fp32"
        elif kind in ("str", "dtype"):
            sig[name] = "constexpr"
            const[name] = value if kind == "str" else {"dtype": value}
        else:
            sig[name] = "constexpr"
            const[name] = None
    return sig, const


def job_key(launch: dict, target: str) -> str:
    sig, const = signature(launch)
    body = json.dumps({"source": launch["source_hash"], "fn": [launch["file"], launch["name"]],
                       "sig": sig, "const": const, "options": launch["options"],
                       "target": target, "triton": _triton_version()}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:32]


def compile_launches(launches: list[dict], targets=("sm_90a", "sm_100a"), timeout: float = 600,
                     sass: bool = False, workers: int = 2) -> list[dict]:
    """One result per (launch, target), in that order: the cached result, or a fresh
    compilation in a child process. Each result has ``ptx`` and ``resources`` (or
    ``error``), ``seconds`` (0 when cached) and ``cached``. ``sass``: also disassemble the
    cubin (nvdisasm, about as slow as the compilation itself). ``workers``: compiler
    processes."""
    jobs = [(launch, t, job_key(launch, t) + ("s" if sass else "")) for launch in launches
            for t in targets]
    out: dict[str, dict] = {}
    missing: list[dict] = []
    for launch, t, key in jobs:
        path = cache_dir() / f"{key}.json"
        if path.exists() and key not in out:
            try:
                out[key] = dict(json.loads(path.read_text()), cached=True)
                continue
            except (OSError, ValueError):
                pass
        if key not in out and all(key != m["key"] for m in missing):
            sig, const = signature(launch)
            missing.append({"key": key, "file": launch["file"], "module": launch["module"],
                            "name": launch["name"], "signature": sig, "constexprs": const,
                            "options": launch["options"], "arch": TARGETS[t], "sass": sass})
    if missing:
        chunks = [missing[i::max(1, workers)] for i in range(max(1, workers))]
        for res in _run_children([c for c in chunks if c], timeout):
            out[res["key"]] = dict(res, cached=False)
            if "error" not in res or res.get("deterministic"):
                _store(res)
    return [dict(out.get(key) or {"error": "not compiled"}, target=t) for _, t, key in jobs]


def _store(res: dict) -> None:
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(res, fh)
    os.replace(tmp, d / f"{res['key']}.json")


def _run_children(chunks: list[list[dict]], timeout: float) -> list[dict]:
    """Each chunk in its own compiler process, all at once."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")   # Triton 3.9's default, stated
    root = str(Path(__file__).resolve().parents[2])
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([root] + rest)
    procs = [subprocess.Popen([sys.executable, "-m", "verify.hardware.compile"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, text=True)
             for _ in chunks]
    out: list[dict] = []
    for proc, jobs in zip(procs, chunks):
        try:
            stdout, stderr = proc.communicate(json.dumps(jobs), timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            late = f"compilation did not finish within {timeout:.0f} s"
            out += [dict(j, error=late) for j in jobs]
            continue
        lines = [ln for ln in stdout.splitlines() if ln.startswith("[")]
        if lines:
            out += json.loads(lines[-1])
        else:
            tail = (stderr.strip().splitlines() or ["no output"])[-1]
            out += [dict(j, error=f"compiler process failed: {tail}") for j in jobs]
    return out


# --------------------------------------------------------------------------- child side
def _load(job: dict):
    import importlib
    import importlib.util
    try:
        module = importlib.import_module(job["module"])
        if os.path.abspath(getattr(module, "__file__", "") or "") != os.path.abspath(job["file"]):
            raise ImportError
    except ImportError:
        spec = importlib.util.spec_from_file_location(job["module"], job["file"])
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {job['file']}") from None
        module = importlib.util.module_from_spec(spec)
        sys.modules[job["module"]] = module
        spec.loader.exec_module(module)
    from verify.kernelobjects import jit_function
    value = getattr(module, job["name"])
    return jit_function(value) or value       # an autotuned kernel: the jit function under it


def _tools() -> dict:
    import triton
    bin_dir = Path(triton.__file__).parent / "backends" / "nvidia" / "bin"
    return {t: str(bin_dir / t) for t in ("cuobjdump", "nvdisasm") if (bin_dir / t).exists()}


def _compile_one(job: dict, tools: dict) -> dict:
    import time

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from .ptx import resources, sass_summary
    start = time.perf_counter()
    res = {k: job[k] for k in ("key", "name", "signature", "constexprs", "options", "arch")}
    try:
        fn = _load(job)
        import triton.language as tl
        constexprs = {k: tl.dtype(v["dtype"]) if isinstance(v, dict) else v
                      for k, v in job["constexprs"].items()}
        source = ASTSource(fn=fn, signature=job["signature"], constexprs=constexprs)
        k = triton.compile(source,
                           target=GPUTarget("cuda", job["arch"], 32), options=dict(job["options"]))
    except Exception as exc:  # Triton's own message is the result
        cause = f" ({type(exc.__cause__).__name__}: {exc.__cause__})" if exc.__cause__ else ""
        res["error"] = f"{type(exc).__name__}: {str(exc).strip()[-1500:]}{cause}"
        res["deterministic"] = True
        return res
    res["ptx"] = k.asm["ptx"]
    md = k.metadata
    res["metadata"] = {"shared": md.shared, "num_warps": md.num_warps, "num_stages": md.num_stages,
                       "enable_fp_fusion": md.enable_fp_fusion, "ptx_version": md.ptx_version,
                       "default_dot_input_precision": md.default_dot_input_precision}
    cubin = k.asm.get("cubin")
    if cubin and tools:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "k.cubin")
            with open(path, "wb") as fh:
                fh.write(cubin)
            if "cuobjdump" in tools:
                r = subprocess.run([tools["cuobjdump"], "--dump-resource-usage", path],
                                   capture_output=True, text=True)
                res["resources"] = resources(r.stdout)
            if "nvdisasm" in tools and job.get("sass"):
                r = subprocess.run([tools["nvdisasm"], "-c", path], capture_output=True, text=True)
                res["sass"] = sass_summary(r.stdout) if r.returncode == 0 else None
    res["seconds"] = round(time.perf_counter() - start, 3)
    return res


def main() -> None:
    jobs = json.loads(sys.stdin.read())
    tools = _tools()
    results = [_compile_one(j, tools) for j in jobs]
    sys.stdout.write("\n" + json.dumps(results) + "\n")


if __name__ == "__main__":
    main()
