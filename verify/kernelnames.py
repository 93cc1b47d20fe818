"""The project's kernel names as the commands take them: one check, one message.

``resolve(names)`` is every name in order (all of the project's kernels when none is
given), or ``BadInput`` naming the unknown ones and the known ones; ``extra`` adds names
known besides impls/ (kernels a caller loads from files or modules)."""
from __future__ import annotations

from typing import Iterable

from verify.errors import BadInput


def resolve(names: Iterable[str] | None = None, extra: Iterable[str] = ()) -> list[str]:
    import impls
    extra = sorted(extra)
    known = set(impls.kernel_names()) | set(extra)
    chosen = list(names) if names else impls.kernel_names() + extra
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise BadInput(f"unknown kernel(s): {', '.join(unknown)} "
                       f"(known: {', '.join(sorted(known)) or 'none'})")
    return chosen
