"""Checking a kernel's declared GPU error model against the instructions it compiles to.

The model (``KernelSpec.bounding.gpu_model``: operation → ``impls.accuracy.OpModel``) is what the
kernel's GPU bound assumes; the profile (``ptx.profile``) says which instruction each
operation became. A model that assumes a smaller error than the table gives for that
instruction, or that is silent about an approximate operation the kernel uses, refuses
certification for that target, naming the operation."""
from __future__ import annotations

from impls.accuracy import TABLE


def _fmt(x: float) -> str:
    return f"{x:.3g}"


def check(model: dict, prof: dict, in_dtypes: set[str] | None = None,
          input_precision: str | None = None) -> dict:
    """{"ok", "problems", "constants", "tf32"}: ``constants`` lists, per operation, the
    instruction and the figures the GPU bound uses (from the table)."""
    problems: list[str] = []
    constants: dict[str, dict] = {}
    for op, names in prof.get("operations", {}).items():
        for name in names:
            row = TABLE.get(name)
            if row is None:
                problems.append(f"{op}: {name} has no row in the accuracy table "
                                "(impls/accuracy.py)")
                continue
            constants.setdefault(op, {"instruction": name, "rel": row.rel, "abs": row.abs,
                                      "ftz": row.ftz, "source": row.source,
                                      "conservative": row.conservative})
            declared = model.get(op)
            if declared is None:
                if row.rel > 2.0 ** -24 or row.ftz:
                    problems.append(f"{op}: the kernel compiles to {name} "
                                    f"({_fmt(row.rel)} relative; "
                                    f"{row.source}) but its GPU model states nothing for {op}")
                continue
            if declared.rel < row.rel or declared.abs < row.abs:
                problems.append(
                    f"{op}: the bound assumes {_fmt(declared.rel)} relative"
                    f"{f' + {_fmt(declared.abs)} absolute' if declared.abs else ''} "
                    f"({declared.instruction}) but the kernel compiles to {name}, which gives "
                    f"{_fmt(row.rel)} relative{f' + {_fmt(row.abs)} absolute' if row.abs else ''} "
                    f"({row.source}: {row.stated})")
    tf32 = [m["instruction"] for m in prof.get("mma", []) if m["inputs"] == "tf32"]
    if tf32 and input_precision == "ieee":
        problems.append(f"dot: the bound assumes float32 operands (input_precision='ieee') but the "
                        f"kernel compiles to TF32 tensor-core MMAs: {', '.join(tf32)}")
    return {"ok": not problems, "problems": problems, "constants": constants,
            "tf32": [f"{m} (float32 operands rounded to TF32: 2^-10 per operand in the bound)"
                     for m in tf32]}
