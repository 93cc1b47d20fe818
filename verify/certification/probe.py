"""A binding tried once before certification: its wrapper run on the smallest case in
each dtype it will be certified in, so that a binding that cannot work is one line of
``BadInput`` (exit 2 from ``certify FILE.py``) instead of a certificate of crashes.

Found here: a result that does not fit the outputs the binding names (a count, a
missing name, a position beyond the tuple: outputs.py), a case without an input the
reference takes (a custom reference with no ``complete=``), and a wrapper that raises (the
exception's type and first line, and file:line in the kernel's own files). Not run: the
combine audit, the oracle and the bound — a kernel that runs and returns the right
outputs but computes them wrongly fails its certificate, as it should. A spec not made
by ``bind`` is not probed.
"""
from __future__ import annotations

from impls.spec import Case, KernelSpec
from verify.certification import crashes
from verify.certification.binding import binding_of
from verify.certification.environment import INTERPRETER
from verify.decide.limits import one_line
from verify.errors import BadInput


def _size(case: Case) -> int:
    return sum(int(getattr(v, "numel", lambda: 1)()) for v in case.inputs.values())


def check_binding(spec: KernelSpec, label: str, backend: str, seed: int = 0) -> None:
    """``BadInput`` naming ``label`` (the target) when the wrapper, on the smallest case
    of each certified dtype, raises or returns outputs the binding cannot match."""
    try:
        binding = binding_of(spec)
    except TypeError:
        return
    try:
        cases = list(spec.coverage.cases(seed, backend))
    except BadInput as exc:
        raise BadInput(f"{label}: {one_line(exc)}") from None
    except Exception as exc:  # the user's case set failed: its error, one line
        raise BadInput(f"{label}: making the cases failed: {crashes.first_line(exc)}") from None
    for dtype in spec.dtypes:
        if dtype == "bfloat16" and backend == INTERPRETER:
            continue          # certified only on a GPU (certify.py)
        usable = [c for c in cases if c.runs_in(dtype)]
        if not usable:
            continue
        case = min(usable, key=_size)
        where = f"on case '{case.name}' in {dtype}"
        try:
            binding.call(case, dtype)
        except BadInput as exc:   # a result that does not fit (OutputMismatch), an input missing
            raise BadInput(f"{label}: {one_line(exc)} ({where})") from None
        except Exception as exc:  # the wrapper failed: its error, one line
            crash = crashes.describe(exc, spec.sources)
            at = f" at {crash['crash_at']}" if crash["crash_at"] else ""
            raise BadInput(f"{label}: the wrapper raised {where}: {crash['crash']}{at}") \
                from None
