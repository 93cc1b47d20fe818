"""The mutation table: single-edit bugs planted one at a time in the kernels of impls/
and the shared combines, plus equivalent edits that must still certify.

A mutant is data: the file it edits (relative to the project root), a source snippet
that must occur exactly once in today's source, its replacement, a class and a one-line
description. ``apply`` performs the edit on a text and refuses a snippet that does not
occur exactly once, so drift in a kernel shows up as an error, not as a silent no-op.
The rows live in ``table_*.py`` by kernel family; this module gathers them, with the
kernels' planted bugs (the rows of ``verify/certification/planted_bugs.py``, which the
certificates plant with the same ``apply_edits``).

Not covered here: running the mutants (``run.py``) and judging them (the certifier).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from verify.certification.planting import SnippetError, apply_edits  # noqa: E402,F401

# (1 + 2⁻ᵏ) written as exact decimal literals; each is a float32 number.
SCALE_12 = "1.000244140625"
SCALE_16 = "1.0000152587890625"
SCALE_20 = "1.00000095367431640625"
SCALES = {"output-scale-2^-12": SCALE_12, "output-scale-2^-16": SCALE_16,
          "output-scale-2^-20": SCALE_20}


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str              # relative to the project root, e.g. "impls/softmax.py"
    old: str               # must occur exactly once in the file
    new: str
    cls: str               # bug class, "planted" (a kernel's planted bug), or "equivalent"
    description: str
    more: tuple[tuple[str, str], ...] = ()   # further edits of the same file, in order

    @property
    def edits(self) -> tuple[tuple[str, str], ...]:
        return ((self.old, self.new), *self.more)

    @property
    def equivalent(self) -> bool:
        return self.cls == "equivalent"


def apply(mutant: Mutant, text: str) -> str:
    """``text`` with the mutant's edits made (the certifier's own ``apply_edits``, which
    plants the kernels' planted bugs); ``SnippetError`` unless each snippet occurs
    exactly once or an edit changes nothing."""
    return apply_edits(text, mutant.edits, mutant.id, mutant.file)


def planted_mutants() -> list[Mutant]:
    """The kernels' planted bugs (verify/certification/planted_bugs.py) as mutants."""
    from verify.certification.planted_bugs import ROWS
    return [Mutant(f"planted.{r.kernel}.{r.name}", r.path, r.edits[0][0], r.edits[0][1],
                   "planted", r.models, tuple(r.edits[1:])) for r in ROWS]


def scaled(prefix: str, file: str, old: str, new_template: str, what: str) -> list[Mutant]:
    """The three output-scaling mutants of one store: ``new_template`` holds ``{s}``
    where the factor 1 + 2⁻ᵏ goes."""
    return [Mutant(f"{prefix}.scale{cls[-2:]}", file, old, new_template.format(s=factor),
                   cls, f"{what} scaled by 1 + 2^-{cls[-2:]}")
            for cls, factor in SCALES.items()]


def all_mutants() -> list[Mutant]:
    """Every row of every table, ids unique."""
    from table_dense import MUTANTS as dense
    from table_equivalent import MUTANTS as equivalent
    from table_other import MUTANTS as other
    from table_rows import MUTANTS as rows
    from table_scans import MUTANTS as scans
    from table_serving import MUTANTS as serving
    table = [*rows, *dense, *scans, *other, *serving, *planted_mutants(), *equivalent]
    ids = [m.id for m in table]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate mutant ids: {', '.join(duplicates)}")
    return table
