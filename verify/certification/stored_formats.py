"""The formats a bound kernel stores its outputs in, observed rather than assumed.

The stored format of an output is the dtype of the floating-point tensor the wrapper
returned for it (``observe``); the reference's declared format (``Reference.formats``)
fills in only what cannot be observed: an output that is not a float tensor, one the
kernel did not return, a dtype no case has run yet. ``seen`` keeps, per dtype and
output, the formats observed in the order first seen; ``describe`` and ``differences``
write them for the certificate (the dtype's ``out``, and a note wherever a stored format
differs from the declared one); ``stored`` is what the naive formulation rounds its
outputs to, so that the naive ratio compares like with like.

Not covered: outputs beyond the reference's (a binding's ``extra``), which keep their
own declared formats.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import torch

from verify.certification.overflow import stored_format


def observe(outputs: Mapping[str, Any], names: Iterable[str]) -> dict[str, str]:
    """{output: format} for the named outputs that are floating-point tensors."""
    found = {k: stored_format(outputs.get(k)) for k in names}
    return {k: v for k, v in found.items() if v is not None}


def record(seen: dict, dtype: str, observed: Mapping[str, str]) -> None:
    """Add one run's ``observed`` formats to ``seen[dtype]`` (each format once)."""
    per_output = seen.setdefault(dtype, {})
    for name, fmt in observed.items():
        formats = per_output.setdefault(name, [])
        if fmt not in formats:
            formats.append(fmt)


def stored(declared: Mapping[str, str], seen: Mapping[str, list[str]]) -> dict[str, str]:
    """The format of each output: the first observed, else the declared one."""
    return {k: (seen[k][0] if seen.get(k) else v) for k, v in declared.items()}


def describe(declared: Mapping[str, str], seen: Mapping[str, list[str]],
             names: Iterable[str]) -> str:
    """The certificate's ``out``: "float16 (c)", formats observed in different runs
    joined by "/"."""
    return ", ".join(f"{'/'.join(seen.get(k) or [declared[k]])} ({k})" for k in names)


def differences(declared: Mapping[str, str], seen: Mapping[str, list[str]],
                names: Iterable[str]) -> list[str]:
    """One note per output stored in a format the reference does not declare:
    "c: stored as float16 (the reference declares float32)"."""
    return [f"{k}: stored as {'/'.join(seen[k])} (the reference declares {declared[k]})"
            for k in names if seen.get(k) and seen[k] != [declared[k]]]


def cast(value: Any, fmt: str | None) -> Any:
    """A float tensor rounded to ``fmt`` (a torch dtype's name); anything else as it is."""
    target = getattr(torch, fmt, None) if fmt else None
    if isinstance(value, torch.Tensor) and value.is_floating_point() \
            and isinstance(target, torch.dtype):
        return value.to(target)
    return value
