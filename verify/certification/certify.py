"""Certify a kernel against its laws: run it on adversarial cases, compare with an exact
oracle, divide the error by a rigorous bound componentwise, and write the verdict as a
certificate file.

A case passes when ρ = max(error / bound) ≤ 1 over every float output (0/0 counts as
0; an error over a zero bound is ρ = ∞), every output in ``spec.comparison.exact_outputs`` equals
the oracle exactly, and no output is NaN where the oracle is not. A certificate passes
when every case of every certified dtype passes, every law it names that is in the
catalog is ok, and each monoid combine among its laws passes under the merge trees a
GPU lowering may use (trees.py: balanced, blocked, strided, identity-padded lanes,
empty-state merges), which the interpreter's left-to-right fold never performs.
bfloat16 is certified only on a GPU: Triton's interpreter computes bf16 wrongly, so
the interpreter's certificate skips it and says so.

Every ``spec.execution.run`` call runs with guarded allocations (guards.py): a write outside a
tensor fails the case with a one-line reason, a read outside one reads poison. A case
that raises is a crash, not a numeric failure: its record carries ``crash`` (the
exception's type and first line) and ``crash_at`` (file:line, in the kernel's own files
where the traceback passes through them; crashes.py), and a certificate whose every
case crashed says so in its notes. Many
kernels at once (``certify_all``, batch.py) run in a child process, so a crash becomes
a failing certificate; sources.py lists the files a certificate hashes, links.py checks
that kernels and laws name each other.

The oracle returns an ``impls.spec.Oracle`` and the bound an ``impls.spec.Bound`` (a
plain dict of outputs is taken as one without a description). An oracle that states a
guaranteed error of its own (``Oracle.error_bound``, as the ball-arithmetic oracles of
impls/exact.py do) has it added to the bound, so ρ compares the kernel with the true
value, not with the oracle's float64 rounding of it. ``Oracle.record()`` becomes the
certificate's ``oracle``, ``Bound.formula`` its ``bound.formula``, and a failing case
carries ``Bound.overflow`` (why an output is non-finite) as its ``note``.

Test power (power.py) is computed for every case here, once: ρ of trivial stand-ins
against the bound, and of ``spec.execution.lower(case, dtype)`` (the reference computed
one format lower) where the spec has one.

Spec conventions the certifier reads besides ``impls.spec``:
``spec.comparison.precision(dtype)`` is asked again after the dtype's cases ran (a
binding reports the stored formats it observed), and its ``notes`` join the
certificate's; ``Case.classes`` lists the adversarial classes a case covers (each case
record repeats them); ``Case.n`` is the reduction length used for the expected error
level; ``Case.dtypes``, when set, limits a case to those dtypes (a cancellation case
whose numbers only fp32 can hold), and the certificate lists the skips.

A binding's cases include those of the block schedule its wrapper was seen to launch
(schedule.py); the certificate's ``schedule`` lists what was seen and the classes covered.
"""
from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any, Iterable, Mapping

import torch

from impls.numerics import expected_level, format_name, unit_roundoff
from impls.spec import Bound, Oracle
from verify.certification import contract, crashes, document, elements, power, schedule
from verify.certification.binding import as_spec, binding_of
from verify.certification.comparison import _as_cpu64, compare_exact, compare_float
from verify.certification.crashes import Refusal
from verify.certification.environment import INTERPRETER, normalize_backend
from verify.certification.guards import GuardedAllocator, watching
from verify.certification.overflow import accepted, stored_format
from verify import hardware
from verify.certification.trees import merge_trees
from verify.errors import BadInput

BF16_NOTE = ("bfloat16 is certified only on a GPU: Triton's interpreter computes bf16 "
             "arithmetic and tl.dot on bf16 wrongly, so it is skipped here")
_LAW_VERDICTS: dict[str, dict] = {}




# --------------------------------------------------------------------------- laws
def law_verdicts(law_ids: Iterable[str],
                 law_results: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, dict]:
    """{law_id: {"verdict", "ok"}}: taken from ``law_results`` (the catalog's results by
    law id, as ``check_law`` returns them) where it has the law, else from the checker,
    cached per process. A law missing from laws.REGISTRY is "missing" either way."""
    from laws import REGISTRY
    out = {}
    for law_id in law_ids:
        if law_id not in REGISTRY:
            out[law_id] = {"verdict": "missing", "ok": False,
                           "detail": "not in laws.REGISTRY"}
            continue
        given = (law_results or {}).get(law_id)
        if given is not None:
            out[law_id] = {"verdict": given.get("verdict"), "ok": bool(given.get("ok"))}
            continue
        if law_id not in _LAW_VERDICTS:
            _LAW_VERDICTS[law_id] = _check_one(REGISTRY[law_id])
        out[law_id] = _LAW_VERDICTS[law_id]
    return out


def _check_one(law) -> dict:
    try:
        from verify.decide.check import check_law
    except ImportError as exc:
        return {"verdict": "unchecked", "ok": False, "detail": f"checker unavailable: {exc}"}
    try:
        result = check_law(law, floats=False)
    except Exception as exc:  # a checker crash is a verdict, not a certifier crash
        return {"verdict": "error", "ok": False, "detail": f"{type(exc).__name__}: {exc}"}
    return {"verdict": result.get("verdict"), "ok": bool(result.get("ok"))}


def _laws_pass(verdicts: Mapping[str, dict], strict: bool) -> bool:
    for verdict in verdicts.values():
        absent = verdict["verdict"] in ("missing", "unchecked")
        if not verdict["ok"] and (strict or not absent):
            return False
    return True


# --------------------------------------------------------------------------- outputs
def as_oracle(given: Oracle | Mapping[str, Any]) -> Oracle:
    """The oracle's result as an ``Oracle``: a plain dict is its values."""
    return given if isinstance(given, Oracle) else Oracle(_values(given, "oracle", "Oracle"))


def as_bound(given: Bound | Mapping[str, Any]) -> Bound:
    """The bound's result as a ``Bound``: a plain dict is its values."""
    return given if isinstance(given, Bound) else Bound(_values(given, "bound", "Bound"))


def _values(given: Mapping[str, Any], what: str, kind: str) -> dict:
    hidden = [k for k in given if k.startswith("_")]
    if hidden:  # the former metadata keys: compared as outputs they would mislead
        raise BadInput(f"the {what} returned entries {', '.join(hidden)}: return an "
                       f"impls.spec.{kind}, which carries what they described")
    return dict(given)


def _reduction_length(case) -> int:
    n = getattr(case, "n", None)
    if isinstance(n, int):
        return n
    sizes = [v.shape[-1] for v in case.inputs.values()
             if isinstance(v, torch.Tensor) and v.dim()]
    return max(sizes, default=1)


# --------------------------------------------------------------------------- certify
def certify(spec, backend: str, seed: int = 0, dtypes: Iterable[str] | None = None,
            strict: bool = True, check_laws: bool = True,
            law_results: Mapping[str, Mapping[str, Any]] | None = None,
            compiled: bool = True) -> dict:
    """One certificate (a dict) for ``spec`` on ``backend``; see the module docstring.

    ``dtypes`` narrows the certified dtypes. Laws missing from the catalog (or with no
    checker yet) fail the certificate only when ``strict``; ``check_laws=False`` skips
    the law checker and judges the numbers alone (planted variants, kernel tests).
    ``compiled=False`` leaves out the ``compiled`` section (planted variants).
    ``law_results``: verdicts the caller already has (``verify all`` passes the
    catalog's), by law id; only the laws it lacks are checked here."""
    from impls.spec import backend as running_backend
    spec = as_spec(spec)
    backend = normalize_backend(backend)
    if backend != running_backend():
        raise BadInput(f"backend {backend} requested but kernels run on {running_backend()}")
    started = time.perf_counter()
    notes: list[str] = []
    chosen = list(spec.dtypes) if dtypes is None else [d for d in dtypes]
    unknown = [d for d in chosen if d not in spec.dtypes]
    if unknown:
        raise BadInput(f"{spec.name} does not support dtype(s) {', '.join(unknown)}")

    cases = list(spec.coverage.cases(seed, backend))
    oracles: dict[int, Oracle] = {}
    oracle_meta: dict[str, Any] = {}
    per_dtype: dict[str, dict] = {}
    dtype_info: dict[str, dict] = {}
    formula = None
    for dtype in chosen:
        info = dict(spec.comparison.precision(dtype))
        if dtype == "bfloat16" and backend == INTERPRETER:
            dtype_info[dtype] = {**info, "status": "skipped", "reason": BF16_NOTE}
            notes.append(BF16_NOTE)
            continue
        result = _certify_dtype(spec, dtype, cases, oracles, oracle_meta, info)
        info = dict(spec.comparison.precision(dtype))   # what running the cases observed
        dtype_info[dtype] = {**info, "status": "certified"}
        notes.extend(f"{dtype}: {note}" for note in info.get("notes", ()))
        per_dtype[dtype] = result
        formula = formula or result.pop("formula", None)
        result.pop("formula", None)

    if not cases:
        notes.append("the kernel supplied no cases: nothing was certified")
    if not per_dtype:
        notes.append("no dtype was certified on this backend")
    crashed = crashes.all_crashed(per_dtype)
    if crashed:  # a certificate of crashes, not of numbers that failed
        notes.append(crashed)
    laws = law_verdicts(spec.laws, law_results) if check_laws else {
        law_id: {"verdict": "not checked", "ok": False} for law_id in spec.laws}
    if check_laws and not strict:
        absent = [k for k, v in laws.items() if v["verdict"] in ("missing", "unchecked")]
        if absent:
            notes.append("laws not yet checkable (ignored unless strict): " + ", ".join(absent))
    weak = {d: r["power"]["accepted_stand_ins"] for d, r in per_dtype.items()
            if r["power"]["weak"]}
    if weak:  # a bound that accepts a trivial output certifies nothing
        notes.append("the bound accepts trivial outputs, so the certificate proves "
                     "nothing: " + "; ".join(f"{d}: {', '.join(v)}" for d, v in weak.items()))
    covered = contract.coverage(spec, cases)
    uncovered = contract.missing_reason(spec.name, covered["missing"])
    if uncovered:  # a contract class no case exercises is a hole, not a pass
        notes.append(uncovered)
    numbers_pass = bool(per_dtype) and bool(cases) and not weak and not uncovered and all(
        r["pass"] for r in per_dtype.values())
    trees = merge_trees(spec.laws, _accumulation_formats(dtype_info), seed) if check_laws \
        else {"pass": True, "note": "not run (laws not checked)", "families": {}}
    if not trees["pass"]:
        first = next(f for r in trees["families"].values() for f in r["failures"] or
                     ["no point could be checked"])
        notes.append(f"a combine fails under a merge tree a lowering may use: {first}")
    passed = numbers_pass and trees["pass"] and (not check_laws or _laws_pass(laws, strict))

    cert = document.build(spec, backend, seed, cases, laws, passed, notes, per_dtype,
                          dtype_info, formula, oracle_meta, started, covered, trees)
    observed = _schedule(spec, backend, cases)
    if observed is not None:
        document.add_schedule(cert, observed)
    if compiled:
        hardware.attach(cert, spec, backend)
    return cert


def _schedule(spec, backend: str, cases: list) -> dict | None:
    """The block schedule a binding's wrapper was seen to use and the classes its cases
    cover (schedule.py); None for a spec not made by ``bind``."""
    try:
        kept = binding_of(spec).records.schedule
    except TypeError:
        return None
    return schedule.section(kept[backend], cases) if backend in kept else None


def _accumulation_formats(dtype_info: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The float formats the certified dtypes accumulate in (the combine's format)."""
    floats = ("float16", "bfloat16", "float32", "float64")
    return sorted({str(info.get("accumulate")) for info in dtype_info.values()
                   if info.get("status") == "certified" and info.get("accumulate") in floats})


def _certify_dtype(spec, dtype: str, cases: list, oracles: dict[int, Oracle],
                   oracle_meta: dict, info: Mapping[str, Any]) -> dict:
    records, formula, power_checks = [], None, []
    run, exact = spec.execution, spec.comparison.exact_outputs
    worst_kernel: dict[str, float] = {}
    worst_naive: dict[str, float] = {}
    n_max = 1
    skipped = []
    for index, case in enumerate(cases):
        if not case.runs_in(dtype):
            skipped.append(case.name)
            continue
        record: dict[str, Any] = {"name": case.name, "classes": list(case.classes),
                                  "outputs": {}}
        try:
            if index not in oracles:
                oracles[index] = as_oracle(spec.comparison.oracle(case))
                if oracles[index].record() is not None:
                    _merge_meta(oracle_meta, {"oracle": oracles[index].record()})
            oracle = oracles[index]
            outputs, memory = _guarded_run(spec, case, dtype)
            if memory:  # out-of-bounds writes: the outputs are not to be trusted
                record.update(rho=math.inf, problem="; ".join(memory), **{"pass": False})
                records.append(record)
                continue
            bound = _with_oracle_error(as_bound(spec.bounding.bound(case, dtype, outputs)),
                                       oracle)
            lower = run.lower(case, dtype) if run.lower is not None else None
        except Refusal as exc:  # refused on purpose (a combine refuted): not a crash
            record.update(rho=math.inf, problem=f"{type(exc).__name__}: {exc}", **{"pass": False})
            records.append(record)
            continue
        except Exception as exc:  # a crash fails the case; it does not stop the others
            record.update(rho=math.inf, problem=f"{type(exc).__name__}: {exc}",
                          **crashes.describe(exc, spec.sources), **{"pass": False})
            records.append(record)
            continue
        formula = formula or bound.formula
        n_max = max(n_max, _reduction_length(case))
        rounded = _inputs_not_representable(case, dtype)
        if rounded:
            record["inputs_rounded"] = rounded
        record["outputs"] = _compare_outputs(spec, outputs, oracle.values, bound.values,
                                             worst_kernel)
        ok = all(c["ok"] for c in record["outputs"].values())
        power_checks.append(power.check(case, outputs, oracle.values, bound.values,
                                        naive_lower=lower, exact=exact))
        if run.reference is not None:
            _naive_errors(spec, case, dtype, oracle.values, worst_naive, record)
        record["rho"] = max((c.get("rho", 0.0) for c in record["outputs"].values()),
                            default=0.0)
        record["pass"] = ok
        if not ok and bound.overflow:
            record["note"] = "; ".join(bound.overflow)
        records.append(record)
    return {
        **_dtype_figures(records, n_max, _accumulate_roundoff(info)),
        "naive_ratio": _naive_ratio(worst_kernel, worst_naive),
        "naive_errors": worst_naive or None,
        "cases": records,
        "skipped_cases": skipped,
        "formula": formula,
        "power": power.summary(power_checks),
    }


def _with_oracle_error(bound: Bound, oracle: Oracle) -> Bound:
    """The bound on |kernel − true value| made a bound on |kernel − oracle| by adding the
    oracle's guaranteed error, when the oracle states one (ball arithmetic: an
    ``error_bound`` relative, an ``absolute_error_bound`` near 0). Oracles without a
    guaranteed error fold theirs into the kernel's bound formula."""
    if oracle.error_bound is None:
        return bound
    rel, absolute = float(oracle.error_bound), float(oracle.absolute_error_bound)
    values = dict(bound.values)
    for key, value in bound.values.items():
        if key not in oracle.values or not isinstance(value, torch.Tensor):
            continue
        ref = _as_cpu64(oracle.values[key])
        slack = torch.where(torch.isfinite(ref), rel * ref.abs() + absolute,
                            torch.zeros_like(ref))
        values[key] = value.to(torch.float64) + slack * (1 + 2.0 ** -50)
    return replace(bound, values=values)


def _compare_outputs(spec, outputs: Mapping[str, Any], oracle: Mapping[str, Any],
                     bound: Mapping[str, Any], worst_kernel: dict[str, float]) -> dict:
    """Each oracle output against the kernel's: exactly, or against its bound (with a
    sample of its elements, elements.py); the worst error per output accumulates in
    ``worst_kernel``."""
    compared: dict[str, dict] = {}
    for key, reference in oracle.items():
        if key not in outputs:
            compared[key] = {"ok": False, "problem": "output missing"}
        elif key in spec.comparison.exact_outputs:
            compared[key] = compare_exact(outputs[key], reference)
        elif key not in bound:
            compared[key] = {"ok": False, "rho": math.inf,
                             "problem": "no bound for this output"}
        else:
            compared[key] = compare_float(outputs[key], reference, bound[key])
            picked = elements.sample(outputs[key], reference, bound[key])
            if picked is not None:  # a few elements for the report's plot
                compared[key]["sample"] = picked
            if compared[key].get("max_error") is not None:
                worst_kernel[key] = max(worst_kernel.get(key, 0.0),
                                        compared[key]["max_error"])
    return compared


def _dtype_figures(records: list[dict], n_max: int, u: float | None) -> dict:
    """Pass, worst ρ, error and bound of one dtype's cases, and the expected level."""
    def worst(field: str) -> list[float]:
        return [c[field] for r in records for c in r["outputs"].values()
                if c.get(field) is not None]
    rhos = [r["rho"] for r in records]
    errors, bounds, rels = worst("max_error"), worst("max_bound"), worst("max_relative_error")
    return {
        "pass": bool(records) and all(r["pass"] for r in records),
        "rho": max(rhos, default=0.0),
        "max_error": max(errors, default=None),
        "max_bound": max(bounds, default=None),
        "expected": {"formula": "λ·√n·u_accumulate with λ = 1 (a yardstick, not a bound)",
                     "n": n_max, "u": u,
                     "level": expected_level(n_max, u) if u is not None else None,
                     "max_relative_error": max(rels, default=None)},
    }


def _guarded_run(spec, case, dtype: str) -> tuple[dict, list[str]]:
    """``spec.execution.run`` with every buffer its wrapper allocates guarded
    (verify/certification/guards.py): (outputs, one line per memory violation)."""
    from impls import buffers
    allocator = GuardedAllocator()
    with buffers.using(allocator), watching(allocator):
        outputs = spec.execution.run(case, dtype)
    return outputs, allocator.violations()


def _inputs_not_representable(case, dtype: str) -> list[str]:
    """Float inputs that change when stored in ``dtype``: the oracle (which sees the
    master copies) then describes other numbers, and the bound must cover the rounding."""
    try:
        torch_dtype = getattr(torch, format_name(dtype))
    except (ValueError, AttributeError):
        return []
    names = []
    for name, value in case.inputs.items():
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            v = value.detach().cpu().to(torch.float64)
            back = v.to(torch_dtype).to(torch.float64)
            if not bool(((back == v) | (torch.isnan(back) & torch.isnan(v))).all()):
                names.append(name)
    return names


def _merge_meta(into: dict, meta: Mapping[str, Any]) -> None:
    """Oracle records over cases: numbers keep their maximum, the rest the last value."""
    for key, value in meta.items():
        if isinstance(value, dict):
            _merge_meta(into.setdefault(key, {}), value)
        elif isinstance(value, (int, float)) and isinstance(into.get(key), (int, float)):
            into[key] = max(into[key], value)
        else:
            into[key] = value


def _accumulate_roundoff(info: Mapping[str, Any]) -> float | None:
    try:
        return unit_roundoff(format_name(info.get("accumulate", "")))
    except (ValueError, TypeError):
        return None


def _naive_errors(spec, case, dtype: str, oracle: dict, worst: dict, record: dict) -> None:
    """The naive formulation's worst error per output into ``worst``; its ±∞ where the
    exact value lies beyond its output format's range (same sign) counts as exact."""
    try:
        naive = spec.execution.reference(case, dtype)
    except Exception as exc:
        record["naive_problem"] = f"{type(exc).__name__}: {exc}"
        return
    for key, reference in oracle.items():
        if key in spec.comparison.exact_outputs or key not in naive:
            continue
        o, r = _as_cpu64(naive[key]), _as_cpu64(reference)
        if o.shape != r.shape:
            continue
        beyond = accepted(o, r, torch.zeros_like(r), stored_format(naive[key]))
        same = (o == r) | (torch.isnan(o) & torch.isnan(r)) | beyond
        err = torch.where(same, torch.zeros_like(o), (o - r).abs())
        nan = torch.isnan(err)
        if bool(nan.any()):  # the naive formula's NaNs are counted, not compared
            record.setdefault("naive_nan", {})[key] = int(nan.sum())
            err = err[~nan]
        if err.numel():
            worst[key] = max(worst.get(key, 0.0), float(err.max()))


def _naive_ratio(kernel: Mapping[str, float], naive: Mapping[str, float]) -> float | None:
    """max over outputs of (kernel's worst error) / (the naive formulation's worst error)."""
    ratios = []
    for key, err in kernel.items():
        if key not in naive:
            continue
        ref = naive[key]
        ratios.append(1.0 if err == ref == 0 else (math.inf if ref == 0 else err / ref))
    return max(ratios) if ratios else None


def certify_binding(spec, backend: str, **kwargs) -> dict:
    """``certify`` plus what the binding learned while it ran: its bound's flags and
    audited combines (its test power is the certificate's, computed by ``certify``)."""
    spec = as_spec(spec)
    records = binding_of(spec).records
    records.flags.clear()
    records.stored.clear()
    cert = certify(spec, backend, **kwargs)
    document.add_binding_records(cert, dict(records.flags), records.combines)
    return cert
