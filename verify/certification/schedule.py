"""Cases from the block schedule a kernel is seen to use, so that no kernel passes only
because every case fits in its first block.

Observation (``observe``): the binding's wrapper runs on probe inputs in every dtype it
certifies — rows of ``PROBE_LENGTHS`` (a matmul: K of those lengths) — with the launches
recorded and the kernel bodies skipped (``capture.recording(execute=False)``): per
launch the kernel, its grid, its int constexprs and num_warps. An int constexpr B that
is a power of two ≥ 2 and smaller than the probe's reduced length n is read as a blocked
reduction: the row is reduced in ceil(n / B) blocks. The rule cannot tell a reduction's
block from a tile of a dimension that is not reduced (matmul's BLOCK_M) or from another
power-of-two parameter; such a B gets cases too, which costs cases, never soundness.
No B below any probe length means one block per row, and no case is added.

Probe lengths: 1 (a kernel's smallest configuration), 100 and 1000 (just below the 128-
and 1024-lane blocks row kernels commonly start or cap at) and 5000 (above 4096, the
largest row block they commonly choose): a block chosen as next_power_of_2(n) up to a cap
is seen blocked once n passes the cap; one that always covers the row is never.

Cases (``cases``), for every B seen, values exact in float16, bfloat16 and float32
(``verify.cases.representable``): lengths B − 1, B, B + 1 and 3B + 1 (several blocks and
a one-element tail); at 3B + 1 the row maximum (the dominant term of a product) in the
first, a middle and the last block; ascending and descending rows (every merge of an
online softmax rescales); and, for a reference with masked rows, fully masked (−∞)
blocks: the first, a middle one, all but the tail. Rows are few, since the
interpreter's work grows with rows × blocks: two, three where the maximum is placed or
blocks are masked (a loss's completion ignores the second row's target); a matmul's
cases are 5 × K times K × 3. Each case names its class in ``Case.classes`` and its B in
``Case.schedule_block``.

Not covered: references of other layouts (attention, explicit case sets); schedules that
depend on the values rather than the shapes; launches made other than ``kernel[grid](...)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from impls.spec import Case
from verify.cases import representable
from verify.hardware.capture import recording

if TYPE_CHECKING:
    from verify.certification.binding import Binding

PROBE_LENGTHS = (1, 100, 1000, 5000)
PROBE_ROWS = 4
ROWS = 2
PEAK = 16.0                   # above every background value (|x| ≤ 8), exact everywhere
LAYOUTS = ("rows", "matrices")
LENGTH_CLASSES = ("block-length-1", "block-length", "block-length+1", "several-blocks+1")
ROW_CLASSES = LENGTH_CLASSES + ("max-in-first-block", "max-in-middle-block",
                                "max-in-last-block", "ascending", "descending",
                                "fully-masked-block")
MATRIX_CLASSES = LENGTH_CLASSES + ("dominant-in-first-block", "dominant-in-middle-block",
                                   "dominant-in-last-block", "ascending", "descending")


@dataclass
class Schedule:
    """What the probes showed: per probe (dtype, n) the launches; the blocked reductions
    (B → the launches' ``kernel.CONSTEXPR`` names and the probe lengths it blocks);
    problems (a probe whose wrapper raised) and, when nothing could be observed, why."""

    layout: str
    probes: list[dict] = field(default_factory=list)
    blocks: dict[int, dict] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    unobserved: str | None = None

    @property
    def verdict(self) -> str:
        if self.unobserved:
            return f"not observed: {self.unobserved}"
        if not any(p["launches"] for p in self.probes):
            return "not observed: no Triton launch seen"
        return "blocked" if self.blocks else "one block per row"


# --------------------------------------------------------------------------- observation
def observe(binding: Binding) -> Schedule:
    """The schedule of ``binding``'s wrapper on the probes (module docstring)."""
    reference = binding.against.reference
    schedule = Schedule(reference.cases)
    if reference.cases not in LAYOUTS:
        schedule.unobserved = f"reference {reference.name!r} takes {reference.cases} inputs"
        return schedule
    name = _row_name(binding)
    for dtype in binding.source.dtypes:
        for n in PROBE_LENGTHS:
            case = _complete(binding, _probe(reference.cases, n, name))
            missing = [k for k in reference.inputs if k not in case.inputs]
            if missing:
                schedule.unobserved = (f"reference {reference.name!r} needs "
                                       f"{', '.join(missing)} besides rows")
                return schedule
            with recording(execute=False) as launches:
                try:
                    binding.run(case, dtype)
                except Exception as exc:  # the launches before it are still recorded
                    schedule.problems.append(f"{dtype} n={n}: {type(exc).__name__}: "
                                             f"{str(exc).splitlines()[0] if str(exc) else ''}")
            seen = [_launch(x) for x in launches]
            schedule.probes.append({"dtype": dtype, "n": n, "launches": seen})
            for launch in seen:
                for constexpr, value in launch["constexprs"].items():
                    if _block_like(value) and value < n:
                        entry = schedule.blocks.setdefault(value, {"constexprs": [],
                                                                   "lengths": []})
                        label = f"{launch['kernel']}.{constexpr}"
                        for key, item in (("constexprs", label), ("lengths", n)):
                            if item not in entry[key]:
                                entry[key].append(item)
    return schedule


def _block_like(value: Any) -> bool:
    return isinstance(value, int) and value >= 2 and value & (value - 1) == 0


def _launch(launch: dict) -> dict:
    return {"kernel": launch["name"], "grid": launch.get("grid"),
            "constexprs": {a["name"]: a["value"] for a in launch["args"]
                           if a["constexpr"] and a["kind"] == "int"},
            "num_warps": launch["options"].get("num_warps")}


def _row_name(binding: Binding) -> str:
    """The name the case set gives its rows (``rows(name=...)``), else ``x``."""
    source = binding.source.inputs
    for candidate in (source, *getattr(source, "sets", ())):
        name = getattr(candidate, "name", None)
        if isinstance(name, str):
            return name
    return "x"


def _probe(layout: str, n: int, name: str) -> Case:
    rng = np.random.default_rng(n)
    if layout == "matrices":
        return Case(f"probe K={n}", {"a": representable(rng.normal(0, 1, (16, n))),
                                     "b": representable(rng.normal(0, 1, (n, 16)))}, n=n)
    return Case(f"probe n={n}", {name: representable(rng.normal(0, 1, (PROBE_ROWS, n)))},
                n=n)


def _complete(binding: Binding, case: Case) -> Case:
    reference = binding.against.reference
    if reference.complete is None or all(k in case.inputs for k in reference.inputs):
        return case
    inputs = reference.complete(dict(case.inputs), np.random.default_rng(case.n))
    return replace(case, inputs=inputs)


# --------------------------------------------------------------------------- cases
def observed(binding: Binding, backend: str) -> Schedule:
    """The schedule of ``binding`` on ``backend``, observed once and kept in its records."""
    kept = binding.records.schedule
    if backend not in kept:
        kept[backend] = observe(binding)
    return kept[backend]


def cases(binding: Binding, seed: int, backend: str) -> list[Case]:
    """The schedule cases of ``binding`` (inputs of the reference's layout, not yet
    completed with its other inputs): none for one block per row."""
    schedule = observed(binding, backend)
    masks = "masked_rows" in binding.against.options
    out: list[Case] = []
    for block in sorted(schedule.blocks):
        rng = np.random.default_rng([seed, block])
        if schedule.layout == "matrices":
            out += matrix_cases(block, rng)
        else:
            out += row_cases(block, rng, _row_name(binding), masks)
    return out


def _case(block: int, cls: str, inputs: dict, n: int) -> Case:
    """Named like the case families: rows=R n=N, or M= N= K= for a product."""
    if "b" in inputs and "a" in inputs:
        (m, k), cols = inputs["a"].shape, inputs["b"].shape[1]
        shape = f"M={m} N={cols} K={k}"
    else:
        shape = f"rows={next(iter(inputs.values())).shape[0]} n={n}"
    return Case(f"schedule B={block} {cls} {shape}", inputs, classes=(cls,), n=n,
                schedule_block=block)


def _peaked(rng: np.random.Generator, n: int, positions: list[int]) -> np.ndarray:
    x = np.clip(rng.normal(0, 2, (len(positions), n)), -8, 8)
    x[np.arange(len(positions)), positions] = PEAK
    return x


def row_cases(block: int, rng: np.random.Generator, name: str = "x",
              masks: bool = False) -> list[Case]:
    """The row cases of one block size (module docstring); ``masks``: add fully masked
    blocks."""
    def row(cls: str, x: np.ndarray) -> Case:
        return _case(block, cls, {name: representable(x)}, x.shape[-1])

    out = [row(cls, rng.normal(0, 3, (ROWS, n)))
           for n, cls in zip(_lengths(block), LENGTH_CLASSES) if n >= 1]
    n = 3 * block + 1
    inside = int(rng.integers(0, block - 1))
    for cls, positions in (("max-in-first-block", [inside, block - 1, 0]),
                           ("max-in-middle-block", [block + inside, 3 * block - 1, 2 * block]),
                           ("max-in-last-block", [n - 1] * 3)):
        out.append(row(cls, _peaked(rng, n, positions)))
    ascending = np.sort(rng.normal(0, 3, (ROWS, n)), axis=-1)
    out += [row("ascending", ascending), row("descending", ascending[:, ::-1].copy())]
    if masks:
        x = rng.normal(0, 3, (3, n))
        x[0, :block] = x[1, block:2 * block] = x[2, :3 * block] = -math.inf
        out.append(row("fully-masked-block", x))
    return out


def matrix_cases(block: int, rng: np.random.Generator) -> list[Case]:
    """The product cases of one block size of K: (5, K) times (K, 3)."""
    def product(cls: str, a: np.ndarray, b: np.ndarray) -> Case:
        return _case(block, cls, {"a": representable(a), "b": representable(b)}, a.shape[1])

    out = [product(cls, rng.normal(0, 1, (5, k)), rng.normal(0, 1, (k, 3)))
           for k, cls in zip(_lengths(block), LENGTH_CLASSES) if k >= 1]
    k = 3 * block + 1
    for cls, first in (("dominant-in-first-block", 0), ("dominant-in-middle-block", block),
                       ("dominant-in-last-block", k - 1)):
        a, b = rng.normal(0, 1, (5, k)), rng.normal(0, 1, (k, 3))
        positions = [min(first + i * max(block // 5, 1), k - 1) for i in range(5)]
        a[np.arange(5), positions] = PEAK
        b[positions, :] = PEAK
        out.append(product(cls, a, b))
    scale = np.exp2(np.linspace(-6, 6, k))
    a, b = rng.normal(0, 1, (5, k)) * scale, rng.normal(0, 1, (k, 3))
    out += [product("ascending", a, b),
            product("descending", a[:, ::-1].copy(), b[::-1].copy())]
    return out


def _lengths(block: int) -> tuple[int, ...]:
    return (block - 1, block, block + 1, 3 * block + 1)


# --------------------------------------------------------------------------- certificate
def section(schedule: Schedule, certified: list[Case]) -> dict:
    """The certificate's ``schedule``: the verdict, the probes' launches, the blocked
    reductions, the schedule cases and the classes they cover."""
    mine = [c for c in certified if c.schedule_block is not None]
    classes = list(dict.fromkeys(k for c in mine for k in c.classes))
    return {"verdict": schedule.verdict,
            "probe_lengths": list(PROBE_LENGTHS),
            "probes": schedule.probes,
            "blocked": [{"block": b, **v} for b, v in sorted(schedule.blocks.items())],
            "cases": len(mine),
            "classes": classes,
            "problems": schedule.problems}

