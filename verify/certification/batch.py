"""Certify many kernels in one invocation: cross-links first, then each kernel and its
planted variants, isolated so that a crash becomes a failing certificate.

Each kernel's certification and each planted variant is one task for a runner
(isolate.py): by default one child process serves them all and is restarted after a
crash. A crash in the kernel's own certification fails its certificate with the reason;
a crash in a planted variant counts as caught (the planted bug failed), with the reason
recorded.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Iterable, Mapping

from verify.certification import document
from verify.certification.environment import choose_backend
from verify.certification.isolate import ChildRunner, InProcessRunner
from verify.certification.links import CrossLinkError
from verify import kernelnames


def certify_all(backend: str = "auto", out_dir: str | os.PathLike = "certificates",
                seed: int = 0, progress: bool = True, kernels: Iterable[str] | None = None,
                planted: bool = True,
                law_results: Mapping[str, Mapping[str, Any]] | None = None,
                isolate: bool = True, refs: Mapping[str, str] | None = None,
                time_limit_s: float = 900.0) -> list[dict]:
    """Certify kernels (all by default), check their planted bugs fail, write the
    certificates; BadInput for an unknown kernel or an unavailable backend, and its
    subclass CrossLinkError when the kernels and the laws they name disagree (checked
    before any kernel runs). ``law_results``: the catalog's verdicts by law id, reused
    instead of proving those laws again. ``isolate``: run the work in a child process
    (False: in this process, unprotected). ``refs``: kernels outside impls/, name ->
    "module:ATTR" or "file.py:ATTR" (see isolate.load_spec)."""
    refs = dict(refs or {})
    names = kernelnames.resolve(kernels, extra=refs)
    backend = choose_backend(backend or "auto")
    runner = ChildRunner(time_limit_s) if isolate else InProcessRunner()
    stdout = sys.stdout
    sys.stdout = sys.stderr  # kernels and libraries may print; stdout belongs to the report
    try:
        failed = _check_links(runner, [(n, refs.get(n)) for n in names],
                              report_unknown=kernels is None)
        return [_certify_one(runner, name, refs.get(name), failed.get(name), backend, seed,
                             planted, law_results, out_dir, (i, len(names)) if progress else None)
                for i, name in enumerate(names, 1)]
    finally:
        sys.stdout = stdout
        runner.close()


def _check_links(runner, kernels: list[tuple[str, str | None]], report_unknown: bool
                 ) -> dict[str, str]:
    """Raise CrossLinkError on a disagreement; return {kernel: why it failed to load}."""
    status, value = runner.run({"op": "links", "kernels": kernels,
                                "report_unknown": report_unknown})
    if status != "done":
        return {name: f"loading the kernels failed: {value}" for name, _ in kernels}
    if value["problems"]:
        raise CrossLinkError(value["problems"])
    return value["failed"]


def _certify_one(runner, name: str, ref: str | None, load_error: str | None, backend: str,
                 seed: int, with_planted: bool, law_results, out_dir,
                 step: tuple[int, int] | None) -> dict:
    if step is not None:
        from rich.console import Console
        Console(stderr=True).print(f"[{step[0]}/{step[1]}] certifying {name} on {backend} …")
    if load_error is not None:
        return document.failed(name, backend, f"could not load the kernel: {load_error}")
    task = {"op": "certify", "name": name, "ref": ref, "variant": None, "seed": seed,
            "backend": backend, "law_results": dict(law_results or {})}
    status, cert = runner.run(task)
    if status != "done":
        return document.failed(name, backend, f"{cert} while certifying {name}")
    names = cert.pop("planted_names", [])
    if with_planted and names:
        _add_planted(runner, task, names, cert)
    if "source_hash" in cert:
        document.write(cert, out_dir)
    return cert


def _add_planted(runner, task: dict, names: list[str], cert: dict) -> None:
    """Each planted bug must fail; a crash while running one is a failure too."""
    outcomes = {}
    for variant in names:
        status, result = runner.run({**task, "variant": variant, "law_results": None})
        outcomes[variant] = document.caught(result) if status == "done" else \
            document.crashed(result)
    document.add_planted(cert, outcomes)
