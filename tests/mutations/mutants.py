"""The mutation table: single-edit bugs planted one at a time in the kernels of impls/
and the shared combines, plus equivalent edits that must still certify.

A mutant is data: the file it edits (relative to the project root), a source snippet
that must occur exactly once in today's source, its replacement, a class and a one-line
description. ``apply`` performs the edit on a text and refuses a snippet that does not
occur exactly once, so drift in a kernel shows up as an error, not as a silent no-op.
The rows live in ``table_*.py`` by kernel family; this module gathers them.

Not covered here: running the mutants (``run.py``) and judging them (the certifier).
"""
from __future__ import annotations

from dataclasses import dataclass

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
    cls: str               # bug class, or "equivalent"
    description: str

    @property
    def equivalent(self) -> bool:
        return self.cls == "equivalent"


class SnippetError(ValueError):
    """A mutant's snippet does not occur exactly once in its file."""


def apply(mutant: Mutant, text: str) -> str:
    """``text`` with the mutant's snippet replaced; ``SnippetError`` unless the snippet
    occurs exactly once or the edit changes nothing."""
    count = text.count(mutant.old)
    if count != 1:
        raise SnippetError(f"{mutant.id}: snippet occurs {count} times in {mutant.file} "
                           "(expected exactly once)")
    if mutant.old == mutant.new:
        raise SnippetError(f"{mutant.id}: replacement equals the snippet")
    return text.replace(mutant.old, mutant.new, 1)


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
    table = [*rows, *dense, *scans, *other, *equivalent]
    ids = [m.id for m in table]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate mutant ids: {', '.join(duplicates)}")
    return table
