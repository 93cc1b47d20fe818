"""The domains a user states for an audited function's parameters.

Two ways, the second overriding the first: a parameter annotation (``float`` is
``real``, ``int`` is ``integer``, a string names a domain: ``def f(n: "natural", x)``,
as does ``Annotated[float, "natural"]``),
and ``--domain NAME=KIND`` on the command line (``domains={"n": "natural"}`` in the
API). A kind that is not one of ``verify.engine.domains.NAMES``, or a name that is no
parameter, is bad input (``AuditError``). The parameters that make up one law variable
must agree: both parameters of a binary function (every variable of its laws is one
combine state), and aᵢ with bᵢ in an unpacked combine ``f(a0..ak-1, b0..bk-1)``.
"""
from __future__ import annotations

import dataclasses
import inspect
import types
from typing import Any, Mapping

from verify.auditing.load import AuditError
from verify.auditing.signature import Shape, Signature
from verify.engine import domains

_TYPES = {float: "real", int: "integer", "float": "real", "int": "integer"}


def _kind(fn_name: str, param: str, annotation: Any) -> str | None:
    if annotation is inspect.Parameter.empty:
        return None
    if annotation in _TYPES:
        return _TYPES[annotation]
    for meta in getattr(annotation, "__metadata__", ()):  # Annotated[float, "positive"]
        if isinstance(meta, str):
            return _kind(fn_name, param, meta)
    if isinstance(annotation, str):
        try:
            return domains.get(annotation).name
        except domains.UnknownDomain as exc:
            raise AuditError(f"{fn_name}: parameter {param!r}: {exc}") from None
    return None  # another annotation says nothing about the domain


def stated(fn: types.FunctionType, overrides: Mapping[str, str] | None = None
           ) -> dict[str, str]:
    """Parameter name -> domain, from the annotations and then ``overrides``."""
    params = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
    out = {}
    for p in params:
        kind = _kind(fn.__name__, p.name, p.annotation)
        if kind is not None:
            out[p.name] = kind
    names = {p.name for p in params}
    for name, kind in (overrides or {}).items():
        if name not in names:
            raise AuditError(f"--domain {name}={kind}: {fn.__name__} has no parameter "
                             f"{name!r} (parameters: {', '.join(sorted(names))})")
        try:
            out[name] = domains.get(kind).name
        except domains.UnknownDomain as exc:
            raise AuditError(f"--domain {name}={kind}: {exc}") from None
    return out


def _one(fn_name: str, names: list[str], given: dict[str, str], found: Any = "real",
         notes: list[str] | None = None) -> Any:
    """The one domain of parameters that make up one law variable: the narrowest stated
    where the stated domains nest (``a: int, b: "natural"``: both natural, noted: a law
    swaps and nests them, so each must range over the other's values), else bad input."""
    kinds = sorted({given[n] for n in names if n in given})
    if len(kinds) <= 1:
        return kinds[0] if kinds else found
    narrow = [k for k in kinds if all(domains.get(k).within(domains.get(o)) for o in kinds)]
    if not narrow:
        raise AuditError(f"{fn_name}: parameters {', '.join(names)} are one law variable "
                         f"but are given domains neither of which lies within the other "
                         f"({', '.join(kinds)}); state one domain for all of them")
    if notes is not None:
        notes.append(f"parameters {', '.join(names)} are one law variable: each ranges "
                     f"over the narrowest domain stated, {domains.get(narrow[0]).text('x')}")
    return narrow[0]


def _with(shape: Shape, domain: Any) -> Shape:
    return dataclasses.replace(shape, domain=domain)


def apply(fn: types.FunctionType, sig: Signature,
          overrides: Mapping[str, str] | None = None) -> Signature:
    """``sig`` with each parameter's stated domain; unchanged when none is stated."""
    given = stated(fn, overrides)
    if not given:
        return sig
    names = [p.name for p in inspect.signature(fn).parameters.values()
             if p.default is p.empty]
    name = fn.__name__
    found = sig.params[0].domain if sig.params else "real"  # the analysis's own finding
    narrowed: list[str] = []
    if sig.unpacked:
        k = len(names) // 2
        comps = tuple(_one(name, [names[i], names[k + i]], given,
                           found if isinstance(found, str) else found[i], narrowed)
                      for i in range(k))
        state = _with(sig.params[0], comps)
        params: tuple[Shape, ...] = (state, state)
    elif sig.kind == "binary":
        dom = _one(name, names[:2], given, found, narrowed)
        params = tuple(_with(s, dom) for s in sig.params)
    else:
        params = tuple(_with(s, given.get(n, s.domain)) for s, n in zip(sig.params, names))
    notes = list(sig.notes) + ["domains stated: " + ", ".join(
        domains.get(k).text(n) for n, k in given.items())] + narrowed
    return dataclasses.replace(sig, params=params, notes=notes)
