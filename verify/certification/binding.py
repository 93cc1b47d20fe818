"""Bind any kernel wrapper to a reference in a few lines; get a ``KernelSpec`` that
``verify.certification.certify.certify(spec, backend)`` accepts unchanged.

    from verify.cases import rows
    from verify.certification.binding import bind
    KERNEL = bind(my_softmax, reference="softmax", inputs=rows(n=[1, 7, 257]),
                  dtypes=("float32", "float16"), masked_rows="zeros")

What the spec gets (in its parts, impls.spec):
- ``run``: the wrapper called with the reference's inputs (converted to the dtype, on
  the kernel device) positionally, plus those reference options the wrapper's
  signature names (``eps=...``), with the wrapper's folder and the current one
  importable; its result is matched to the reference's outputs by outputs.py: a dict
  by key, a named tuple by field, a tuple by position — ``outputs=("y", "rstd")``
  names the outputs returned, in order, ``outputs={"y": 0, "rstd": 2}`` maps each
  to its position — and a count that differs from the names is an error, not a guess.
- ``oracle``: the reference evaluated in float64 with ``radius.HOST64``; the radius of
  that evaluation (its own error) is recorded and added to the bound.
- ``bound``: derived — the reference evaluated on balls under the backend's model
  (``radius.model_for``) at ``compute`` precision with the stated ``block``; the bound
  is the kernel radius, plus u_out|ŷ| + η_out for an output stored in a format coarser
  than ``compute`` (ŷ's own dtype: stored_formats.py), plus the oracle's radius. With
  ``hand_bound=``, the dtypes not in ``derived_dtypes`` use that bound (plus the
  oracle's radius) instead; ``Binding.kind`` and the certificate's ``bound.kind`` say
  which, per dtype.
- ``lower``: the reference computed naively one format lower, the yardstick of the
  test power (power.py) the certifier computes for every case.
- ``cases``: ``inputs`` (a case set of ``verify.cases``; by default the reference's family)
  and schedule.py's, completed with the reference's other inputs (weights, ...).
- ``name``: the certificate's name (naming.py): ``name=``, else derived from the
  wrapper (``load_binding`` renames it after the file and variable); never a project
  kernel's.
- ``combine``/``algorithm``: with ``kernel=`` (the ``@triton.jit`` function, also under
  ``@triton.autotune``/``@triton.heuristics``, which are peeled), the combines
  passed to ``tl.reduce``/``tl.associative_scan`` are found and audited
  (``discover.py``); a combine refuted associative makes every case fail with the
  counterexample.

``as_spec`` binds a kernel module's ``BoundKernel`` (impls/spec.py: the same arguments
as data, so that impls/ imports nothing from verify/). ``loading.load_binding("FILE.py")``
loads a user's file and returns the spec it binds (what ``certify FILE.py:NAME`` runs);
probe.py runs it once on its smallest case to find a bad output mapping or a wrapper
that raises before any work.
"""
from __future__ import annotations

import contextlib
import inspect
import os
import sys
import zlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

import numpy as np
import torch

from impls.accuracy import TRITON_GPU as GPU_MODEL
from impls.numerics import unit_roundoff
from impls.spec import (Bound, Bounding, BoundKernel, Case, Comparison, Coverage, Execution,
                        Extra, KernelSpec, Oracle, backend as current_backend,
                        device as current_device)
from verify.certification import power as test_power
from verify.certification import bounds, overflow, schedule, stored_formats
from verify.certification.radius_rounding import round_up
from verify.cases import RowCases, matrices, rows
from verify.certification.references import Reference, lookup
from verify.certification import naming
from verify.certification.crashes import Refusal
from verify.certification.outputs import OutputMap, output_map
from verify import userfiles
from verify.kernelobjects import autotune_in_turn, jit_function
from verify.errors import BadInput


@dataclass(frozen=True)
class Running:
    """What to run: the wrapper (or ``call(fn, args, options)`` that calls it), the
    outputs compared (``returns``; at ``positions`` of a returned tuple for an outputs
    map, outputs.py), the ``@triton.jit`` function whose combines are audited, the
    kernel's own algorithm facts (``describe(backend)``), whether the certificate name
    was given (``name=``) rather than derived (naming.py), and the folders importable
    while the wrapper runs (its own and the binding file's; the current one too)."""

    fn: Callable
    returns: tuple[str, ...]
    call: Callable | None = None
    kernel: Any = None
    describe: Callable[[str], dict] | None = None
    positions: tuple[int, ...] | None = None
    named: bool = False
    folders: tuple[str, ...] = ()


@dataclass(frozen=True)
class Against:
    """What to compare against: the reference and its options, the inputs stored in a
    fixed format, and outputs beyond the reference's (``Extra``)."""

    reference: Reference
    options: Mapping[str, Any]
    formats: Mapping[str, str] = field(default_factory=dict)
    extra: Extra | None = None


@dataclass(frozen=True)
class Source:
    """Which cases: a case set (default: the reference's family) and the dtypes."""

    inputs: Callable | None
    dtypes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Choice:
    """Which bound: derived at ``compute`` under the model's options and ``block``, or,
    for the dtypes not in ``derived_dtypes``, the kernel's ``hand_bound``."""

    compute: str
    block: int | None
    model_options: Mapping[str, Any]
    hand_bound: Callable | None = None
    derived_dtypes: tuple[str, ...] = ()


@dataclass
class Records:
    """What certifying learns, kept for the certificate: the oracles by case, the
    bound's flags and the outputs' stored formats (``stored_formats.record``) per dtype,
    the audited combines, the observed schedule by backend (schedule.py)."""

    oracles: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)
    stored: dict = field(default_factory=dict)
    combines: dict | None = None
    schedule: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Binding:
    """One bound kernel, in parts (its spec's callables are methods of it); a new
    consumer adds a part, not a field."""

    running: Running
    against: Against
    source: Source
    choice: Choice
    records: Records = field(default_factory=Records)

    # run -------------------------------------------------------------------------
    def input_format(self, name: str, dtype: str) -> str:
        """The format input ``name`` is stored in: ``formats[name]`` or the dtype."""
        return self.against.formats.get(name, dtype)

    def tensors(self, case: Case, dtype: str) -> dict:
        dev = current_device()
        def place(k: str, v: Any) -> Any:
            if not isinstance(v, torch.Tensor):
                return v
            if v.is_floating_point():
                v = v.to(getattr(torch, self.input_format(k, dtype)))
            return v.to(dev).contiguous()
        return {k: place(k, v) for k, v in case.inputs.items()}

    def run(self, case: Case, dtype: str, fn: Callable | None = None) -> dict:
        """The wrapper (or ``fn``, a variant of it such as a planted bug) on the case,
        once the kernel's combines are audited (``call`` skips the audit)."""
        self._refuse_bad_combines()
        return self.call(case, dtype, fn)

    def call(self, case: Case, dtype: str, fn: Callable | None = None) -> dict:
        """The outputs of the wrapper (or ``fn``) on the case, matched to their names;
        the wrapper's folder and the current one are importable meanwhile. In the
        interpreter an autotuned kernel's configurations take turns over the cases
        (the one chosen by a hash of the case's name; kernelobjects.py)."""
        fn = fn or self.running.fn
        args = self.tensors(case, dtype)
        missing = [k for k in self.against.reference.inputs if k not in args]
        if missing:
            raise BadInput(f"case {case.name!r} has no input(s) {', '.join(missing)} (make "
                           "them with custom(..., complete=) or a case set that has them)")
        turns = (autotune_in_turn(zlib.crc32(case.name.encode()))
                 if current_backend() != "gpu" else contextlib.nullcontext())
        with userfiles.importable(*self.running.folders, os.getcwd()), turns:
            if self.running.call is not None:
                result = self.running.call(fn, args, dict(self.against.options))
            else:
                names = inspect.signature(fn).parameters
                kwargs = {k: v for k, v in self.against.options.items() if k in names}
                result = fn(*[args[k] for k in self.against.reference.inputs], **kwargs)
        out = self._match(result)
        if self.against.extra is not None:
            out.update(self.against.extra.run(case, dtype, out))
        return out

    def variant(self, fn: Callable) -> Callable[[Case, str], dict]:
        """A ``run`` for ``fn`` in place of the wrapper (a planted bug)."""
        return lambda case, dtype: self.run(case, dtype, fn)

    def _match(self, result: Any) -> dict:
        return OutputMap(self.running.returns, self.running.positions).match(result)

    def _refuse_bad_combines(self) -> None:
        if self.running.kernel is None:
            return
        if self.records.combines is None:
            from verify.certification.discover import audit_kernel
            self.records.combines = audit_kernel(self.running.kernel)
        bad = [c for c in self.records.combines["combines"] if not c["ok"]]
        if bad:
            raise Refusal("; ".join(c["failure"] for c in bad))

    # oracle and bound ---------------------------------------------------------------
    def _reference_fn(self):
        ref, opts = self.against.reference, self.against.options
        keep = set(inspect.signature(ref.fn).parameters)
        return lambda **kw: ref.fn(**kw, **{k: v for k, v in opts.items() if k in keep})

    def _inputs(self, case: Case, dtype: str | None) -> dict:
        """The case's inputs, those of a fixed format already balls stored in it."""
        return {k: (bounds.Ball.input(v, self.against.formats[k] if dtype else None)
                    if k in self.against.formats and isinstance(v, torch.Tensor) else v)
                for k, v in case.inputs.items() if k in self.against.reference.inputs}

    def _used(self, case: Case) -> dict:
        """The case's inputs that the reference takes (a case may carry more)."""
        return {k: v for k, v in case.inputs.items() if k in self.against.reference.inputs}

    def oracle(self, case: Case) -> Oracle:
        values, radii, _ = bounds.evaluate(self._reference_fn(), self._inputs(case, None),
                                           bounds.HOST64, None)
        self.records.oracles[id(case)] = (case, values, radii)
        worst = max((float((r / v.abs().clamp(min=1e-300))[torch.isfinite(r) & (r > 0)]
                           .max()) if bool((torch.isfinite(r) & (r > 0)).any()) else 0.0)
                    for v, r in ((values[k], radii[k]) for k in radii)) if radii else 0.0
        out = {k: v for k, v in values.items() if k in self.running.returns}
        if self.against.extra is not None:
            out.update(self.against.extra.oracle(case))
        return Oracle(out, "reference in float64 with a derived error radius (added to the "
                           "bound)", {"max_relative_radius": worst})

    def model(self, dtype: str | None = None, backend: str | None = None) -> bounds.Model:
        """The model for ``dtype``; a model option given as a callable (``dot_input``
        by dtype) is called with the dtype."""
        options = {k: (v(dtype) if callable(v) else v)
                   for k, v in self.choice.model_options.items()}
        return bounds.model_for(backend or current_backend(), self.choice.compute,
                                block=self.choice.block, **options)

    def uses_hand(self, dtype: str) -> bool:
        return self.choice.hand_bound is not None and dtype not in self.choice.derived_dtypes

    def kind(self, dtype: str) -> str:
        """Which bound ``dtype`` is certified with (the certificate's ``bound.kind``)."""
        if self.uses_hand(dtype):
            return ("hand-derived (the kernel's own bound function, "
                    f"{getattr(self.choice.hand_bound, '__qualname__', 'hand_bound')}) "
                    "+ the float64 oracle's radius")
        return "derived (running error analysis, verify/certification/radius.py)"

    def bound(self, case: Case, dtype: str, outputs: dict) -> Bound:
        """Derived: kernel radius (running error analysis of the reference at the
        compute format, any reduction order) + the output's cast, u_out|ŷ| + η_out,
        when its stored format (the dtype the wrapper returned, recorded here) is coarser
        than the compute format + the float64 oracle's radius. For a dtype certified with
        the hand bound: that bound + the oracle's radius (the hand bound's own oracle
        allowance then covers nothing, harmlessly). Outputs beyond the reference's
        (``extra``) get their bounds from ``extra.bound``."""
        if self.against.extra is not None:
            everything = outputs
            outputs = {k: v for k, v in outputs.items() if k in self.running.returns}
        stored_formats.record(self.records.stored, dtype,
                              stored_formats.observe(outputs, self.running.returns))
        cached = self.records.oracles.get(id(case))
        if cached is None or cached[0] is not case:
            self.oracle(case)
            cached = self.records.oracles[id(case)]
        r64 = cached[2]
        overflow: tuple[str, ...] = ()
        if self.uses_hand(dtype):
            hand = self.choice.hand_bound(case, dtype, outputs)
            bound = {k: round_up(_cpu64(hand.values[k]) + r64[k], 2)
                     for k in self.running.returns if k in hand.values and k in r64}
            formula = f"hand-derived: {hand.formula} + the float64 oracle's radius"
        else:
            bound, overflow = self._derived(case, dtype, outputs, r64)
            formula = ("derived by running error analysis of the reference "
                       f"'{self.against.reference.name}' (verify/certification/radius.py): kernel "
                       "radius at the compute format for every reduction order + "
                       "u_out|ŷ| + η_out for an output stored in a coarser format + "
                       "the float64 oracle's radius")
        if self.against.extra is not None:
            bound.update(self.against.extra.bound(case, dtype, everything, bound))
        return Bound(bound, formula, overflow)

    def lower(self, case: Case, dtype: str) -> dict | None:
        """The reference computed naively one format below ``dtype`` (power.naive_lower)."""
        return test_power.naive_lower(self._reference_fn(), self._used(case), dtype, {})

    def _derived(self, case: Case, dtype: str, outputs: dict,
                 r64: dict) -> tuple[dict, tuple[str, ...]]:
        """Each output's derived bound, and ``overflow.intermediate_notes``."""
        model = self.model(dtype)
        formats = {**self.against.reference.formats(dtype),
                   **stored_formats.observe(outputs, self.running.returns)}
        def evaluate(at: bounds.Model) -> tuple[dict, dict, list[str]]:
            return bounds.evaluate(self._reference_fn(), self._inputs(case, dtype), at, dtype,
                                   out_formats={k: at.compute for k in formats})
        values, radii, flags = evaluate(model)
        if flags:
            self.records.flags.setdefault(dtype, {})[case.name] = flags
        bound: dict[str, Any] = {}
        for k in (k for k in radii if k in self.running.returns):
            total = radii[k] + r64[k]
            if k in outputs and unit_roundoff(formats[k]) > model.u:
                total = total + overflow.cast_error(outputs[k], formats[k])
            bound[k] = round_up(total, 3)
        narrower = lambda: evaluate(replace(model, compute=dtype))[2]  # noqa: E731
        notes = overflow.intermediate_notes(outputs, {k: values[k] for k in bound}, formats,
                                            flags, narrower)
        return bound, tuple(notes or ())

    def naive(self, case: Case, dtype: str) -> dict:
        compute = getattr(torch, self.choice.compute)
        args = {k: (v.to(getattr(torch, self.input_format(k, dtype))).to(compute)
                    if isinstance(v, torch.Tensor) and v.is_floating_point() else v)
                for k, v in self._used(case).items()}
        out = self._reference_fn()(**args)
        formats = stored_formats.stored(self.against.reference.formats(dtype),
                                        self.records.stored.get(dtype, {}))
        return {k: stored_formats.cast(v, formats.get(k)) for k, v in out.items()
                if k in self.running.returns}

    # cases and metadata --------------------------------------------------------------
    def cases(self, seed: int, backend: str) -> list[Case]:
        source = self.source.inputs or _default_cases(self.against.reference)
        out = []
        for i, case in enumerate([*source(seed, backend), *schedule.cases(self, seed, backend)]):
            missing = [k for k in self.against.reference.inputs if k not in case.inputs]
            if missing and self.against.reference.complete is not None:
                rng = np.random.default_rng([seed, i])
                case = replace(case, inputs=self.against.reference.complete(
                    dict(case.inputs), rng))
            out.append(case)
        return out

    def algorithm(self, backend: str) -> dict:
        dtypes = self.source.dtypes or (None,)
        models = {d: self.model(d, backend).assumptions() for d in dtypes}
        first = next(iter(models.values()))
        out = {**(self.running.describe(backend) if self.running.describe else {}),
               "reference": self.against.reference.name, "options": dict(self.against.options),
               "bound": ("derived (radius interpretation)"
                         if not any(self.uses_hand(d) for d in self.source.dtypes) else
                         {d: "hand" if self.uses_hand(d) else "derived"
                          for d in self.source.dtypes}),
               "model": first if all(m == first for m in models.values()) else models}
        if self.records.combines is not None:
            out["combines"] = self.records.combines["combines"]
        return out

    def precision(self, dtype: str) -> dict:
        """``out``: the stored formats observed (declared before any run); ``notes``."""
        declared, seen = self.against.reference.formats(dtype), self.records.stored.get(dtype, {})
        out: dict[str, Any] = {"in": dtype, "accumulate": self.choice.compute, "out":
                               stored_formats.describe(declared, seen, self.running.returns)}
        if self.against.formats:
            out["fixed_inputs"] = dict(self.against.formats)
        given = self.choice.model_options.get("dot_input", "ieee")
        if callable(given) or given != "ieee":
            out["input_precision"] = self.model(dtype).dot_input
        notes = stored_formats.differences(declared, seen, self.running.returns)
        return {**out, "notes": notes} if notes else out


def _cpu64(x: Any) -> torch.Tensor:
    return torch.as_tensor(x).detach().to("cpu", torch.float64)


def _masks_defined(reference: Reference) -> bool:
    """Whether the reference states what a −∞ entry means: a masked-rows convention
    (softmax's) or rows to ignore (a loss's ``ignore_index``)."""
    return "masked_rows" in reference.options or "ignore_index" in reference.options


def _default_cases(reference: Reference):
    if reference.cases == "matrices":
        return matrices()
    if reference.cases == "rows":
        return rows().for_masks(_masks_defined(reference))
    raise BadInput(f"reference {reference.name!r} needs explicit inputs= (a case set)")


def bind(fn: Callable, reference: str | Reference, inputs: Callable | None = None,
         dtypes: tuple[str, ...] = ("float32", "float16"), *, outputs=None, name=None,
         compute: str = "float32", block: int | None = None, kernel: Any = None,
         call: Callable | None = None, summary: str | None = None,
         dot_input: str | Callable[[str], str] = "ieee", tensor_core: bool = False,
         formats: Mapping[str, str] | None = None, laws: tuple[str, ...] = (),
         combine: Callable | None = None, planted: Mapping[str, Callable] | None = None,
         describe: Callable[[str], dict] | None = None, bench: Callable | None = None,
         hand_bound: Callable | None = None, derived_dtypes: tuple[str, ...] | None = None,
         contract_classes: tuple[str, ...] = (), extra: Extra | None = None,
         **options) -> KernelSpec:
    """A ``KernelSpec`` for ``fn`` computing ``reference`` (a catalog name or a
    ``references.custom(...)``); ``options`` override the reference's conventions.

    Besides the module docstring's: ``dot_input`` may be a function of the dtype
    ("tf32" for fp32 on a GPU); ``formats`` fixes the format of inputs not stored in
    the kernel's dtype ({"scale": "float32"}); ``planted`` maps a bug's name to a
    variant of ``fn`` (same arguments), certified by ``planted_results`` and expected
    to fail; ``laws``, ``combine``, ``bench`` and ``contract_classes`` (the case classes
    the certificate must see covered) go to the spec as they are; ``describe``
    (backend -> dict) adds the kernel's own algorithm facts (blocks, passes) to the
    certificate's ``algorithm``. ``hand_bound`` (a ``Bounding.bound``) certifies the
    dtypes not in ``derived_dtypes`` (default: none, with a hand bound) — for a kernel
    whose own bound is tighter there; ``Binding.kind`` says which was used."""
    ref = lookup(reference) if isinstance(reference, str) else reference
    unknown = [k for k in options if k not in ref.options]
    if unknown:
        raise BadInput(f"reference {ref.name!r} has no option(s) {', '.join(unknown)} "
                         f"(it has: {', '.join(ref.options) or 'none'})")
    ref = ref.configured(options)  # option values checked; formats and completion they decide
    chosen = output_map(outputs, ref.name, ref.outputs)
    jit = jit_function(kernel)
    if kernel is not None and jit is None:
        raise BadInput(f"kernel= expects the @triton.jit function (autotuned or not), got "
                       f"a {type(kernel).__name__}")
    if isinstance(inputs, RowCases):       # default classes: masks only where defined
        inputs = inputs.for_masks(_masks_defined(ref))
    strange = [k for k in (formats or {}) if k not in ref.inputs]
    if strange:
        raise BadInput(f"reference {ref.name!r} has no input(s) {', '.join(strange)}")
    b = Binding(
        running=Running(fn=fn, returns=chosen.names, call=call, kernel=jit, describe=describe,
                        positions=chosen.positions, named=name is not None,
                        folders=userfiles.folders(getattr(fn, "__code__", None),
                                                  sys._getframe(1).f_code)),
        against=Against(reference=ref, options={**ref.options, **options},
                        formats=dict(formats or {}), extra=extra),
        source=Source(inputs=inputs, dtypes=tuple(dtypes)),
        choice=Choice(compute=compute, block=block,
                      model_options={"dot_input": dot_input, "tensor_core": tensor_core},
                      hand_bound=hand_bound,
                      derived_dtypes=tuple(dtypes if derived_dtypes is None and hand_bound is None
                                           else derived_dtypes or ())))
    source = inspect.getsourcefile(fn) if inspect.isfunction(fn) else None
    title = naming.explicit(name) if name is not None else naming.from_wrapper(fn)
    return KernelSpec(
        name=title, laws=tuple(laws), summary=summary or f"{title} computes {ref.name}",
        combine=combine, dtypes=tuple(dtypes),
        execution=Execution(run=b.run, reference=b.naive, lower=b.lower, bench=bench,
                            planted={k: b.variant(v) for k, v in (planted or {}).items()}),
        comparison=Comparison(oracle=b.oracle, precision=b.precision, exact_outputs=tuple(
            o for o in ref.exact_outputs if o in chosen.names)),
        coverage=Coverage(cases=b.cases, contract_classes=tuple(contract_classes)),
        bounding=Bounding(bound=b.bound, algorithm=b.algorithm, gpu_model=dict(GPU_MODEL)),
        sources=(source,) if source else ())


def binding_of(spec: KernelSpec) -> Binding:
    """The binding behind ``spec`` (its bound is a method of it); ``TypeError`` for a
    spec that was not made by ``bind``."""
    owner = getattr(spec.bounding.bound, "__self__", None)
    if not isinstance(owner, Binding):
        raise TypeError(f"{spec.name} was not made by bind()")
    return owner


_BOUND: dict[int, tuple[BoundKernel, KernelSpec]] = {}


def as_spec(kernel: KernelSpec | BoundKernel) -> KernelSpec:
    """The ``KernelSpec`` of a kernel module's ``KERNEL``: a ``BoundKernel`` (data naming
    its reference, options, block, formats) bound here, once per declaration."""
    if isinstance(kernel, KernelSpec):
        return kernel
    if not isinstance(kernel, BoundKernel):
        raise TypeError(f"expected a KernelSpec or a BoundKernel, got {type(kernel).__name__}")
    cached = _BOUND.get(id(kernel))
    if cached is not None and cached[0] is kernel:
        return cached[1]
    d = kernel.derived
    spec = bind(kernel.wrapper, d.reference, kernel.cases, kernel.dtypes, outputs=d.outputs,
                block=d.block, kernel=d.kernel, summary=kernel.summary,
                dot_input=d.dot_input, tensor_core=d.tensor_core, formats=d.formats,
                laws=kernel.laws, combine=kernel.combine, describe=kernel.algorithm,
                bench=kernel.bench, hand_bound=kernel.hand_bound,
                derived_dtypes=d.derived_dtypes, contract_classes=kernel.contract_classes,
                extra=d.extra, **d.options)
    spec = replace(spec, name=kernel.name)     # a project kernel's own name (naming.py)
    _BOUND[id(kernel)] = (kernel, spec)
    return spec
