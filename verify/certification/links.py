"""The cross-links between laws and kernels, checked both ways in one place.

A law names the kernels whose speed rests on it (``Law.kernels``, in laws/); a kernel
names the laws whose truth licenses it (``KernelSpec.laws``, in impls/), and its
certificate checks exactly those. The two sides are written separately, so they are
checked against each other here:

* every law id a kernel names exists in the catalog, and that law names the kernel back;
* every kernel a law names exists in impls/, and names back at least one law of that
  law's family. Family, not law: a ``Monoid`` declares ``kernels`` once for all the laws
  it generates (associative, identity, commutative, ...), and a kernel names the ones
  its certificate relies on.

Not covered: whether a kernel *should* rely on a law it does not name (that is the
kernel author's claim), and references to papers (checked with the papers).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from verify.errors import BadInput


class CrossLinkError(BadInput):
    """Laws and kernels name each other inconsistently. It is the project's own tree
    that is malformed, so the command line reports it in one line with exit status 2."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("laws and kernels disagree: " + "; ".join(problems))


def _family(law_id: str) -> str:
    return law_id.split(".", 1)[0]


def cross_link_problems(laws: Iterable[Any], kernels: Mapping[str, Any],
                        known_kernels: Iterable[str] | None = None,
                        report_unknown: bool = True) -> list[str]:
    """Each inconsistency as one sentence naming both sides. ``laws``: the catalog's
    laws (``.id``, ``.kernels``); ``kernels``: name -> spec (``.laws``) for the kernels
    to check, both ways; ``known_kernels``: every kernel module name (defaults to
    ``kernels``' keys): a law naming a known kernel that is not being checked is
    skipped, one naming an unknown kernel is reported when ``report_unknown``."""
    by_id = {law.id: law for law in laws}
    known = set(known_kernels) if known_kernels is not None else set(kernels)
    problems = []
    for name, spec in sorted(kernels.items()):
        for law_id in spec.laws:
            law = by_id.get(law_id)
            if law is None:
                problems.append(f"kernel {name} (impls/{name}.py KERNEL.laws) names law "
                                f"{law_id}, which is not in laws.REGISTRY")
            elif name not in law.kernels:
                problems.append(f"kernel {name} names law {law_id}, but that law's kernels "
                                f"are {tuple(law.kernels)}")
    for law in by_id.values():
        for name in law.kernels:
            if name not in known:
                if report_unknown:
                    problems.append(
                        f"law {law.id} names kernel {name}, which is not a kernel in impls/")
                continue
            spec = kernels.get(name)
            if spec is None:
                continue
            family = _family(law.id)
            if not any(_family(law_id) == family for law_id in spec.laws):
                problems.append(f"law {law.id} names kernel {name}, but kernel {name} "
                                f"(impls/{name}.py KERNEL.laws {tuple(spec.laws)}) names "
                                f"no {family}.* law")
    return problems


def check_cross_links(kernels: Mapping[str, Any] | None = None) -> None:
    """Raise ``CrossLinkError`` if laws.REGISTRY and the kernels in ``kernels`` (default:
    every kernel in impls/, which imports them all) disagree."""
    import impls
    from laws import REGISTRY
    if kernels is None:
        kernels = {spec.name: spec for spec in impls.kernels()}
    problems = cross_link_problems(REGISTRY, kernels, impls.kernel_names())
    if problems:
        raise CrossLinkError(problems)
