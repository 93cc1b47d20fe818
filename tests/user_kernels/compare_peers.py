"""The acceptance rules kernel projects use today, side by side with certification, on
the user kernels of this folder and their planted bugs: false alarms on correct kernels
and bugs caught. Run:

    TRITON_INTERPRET=1 PYTHONPATH=.:tests python tests/user_kernels/compare_peers.py

(``--json`` for the details, ``--kernels a,b`` and ``--dtypes float32`` to narrow.)

Every rule judges the very outputs certification compared, case by case: the kernel's
outputs are recorded while ``certify(spec, backend, check_laws=False, dtypes=[dtype])``
runs. A variant fails a rule when one output of one case fails it; a case whose run
raised fails every rule. The rules, against the float64 oracle o (k: the kernel's output):

- ``assert_close``: ``torch.testing.assert_close`` with its default tolerances (float32
  rtol 1.3e-6, atol 1e-5; float16 rtol 1e-3, atol 1e-5), o cast to k's dtype, equal_nan.
- ``FlashAttention``: max|k − o| ≤ 2·max|p − o|, p the same computation at the same
  precision: the binding's reference run with torch on the inputs in the kernel's input
  dtype (FlashAttention's tests/test_flash_attn.py: ``attention_ref(..., upcast=False)``
  against an upcast float32 reference; here o is the float64 oracle).
- ``rel. RMS``: ‖k − o‖₂ / (√N·max(max|k|, max|o|)) ≤ 80·ε, ε the machine epsilon of
  k's dtype (2⁻²³, 2⁻¹⁰): MIGraphX's ``verify_rms_range`` (src/include/migraphx/verify.hpp,
  inherited from MIOpen's test harness) with its default tolerance of 80.
- ``u·n·max``: |k − o| ≤ u·n·max|o| elementwise, u the largest unit roundoff among the
  input and output formats, n the accumulation count (the reduction length; 1 for an
  elementwise kernel), max over the output's finite oracle values.
- ``fixed``: |k − o| ≤ atol + rtol·|o| with atol = rtol = 1e-4 for float32 inputs and
  1e-2 for float16.

Elements equal to the oracle (infinities included) or NaN where it is NaN count as
exact; a NaN or infinity elsewhere fails every rule. A cell says "ok"/"false alarm" for
a correct kernel and "caught"/"missed" for a bug, per dtype; "—" where the planted bug
leaves every output of that dtype bit for bit as the correct kernel's (no bug there).
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import json
import math
import os
import sys

os.environ.setdefault("TRITON_INTERPRET", "1")

import torch  # noqa: E402

from impls.numerics import unit_roundoff  # noqa: E402
from impls.spec import backend  # noqa: E402
from verify.certification.binding import binding_of  # noqa: E402
from verify.certification.certify import certify  # noqa: E402

KERNELS = ("fused_softmax", "two_pass_layer_norm", "tiled_matmul", "rms_norm",
           "cross_entropy", "swiglu", "chunked_cumsum")
ELEMENTWISE = ("swiglu",)
DTYPES = ("float32", "float16")
RULES = ("assert_close", "FlashAttention", "rel. RMS", "u·n·max", "fixed")
CERTIFICATE = "certificate"
CORRECT = "correct"
FIXED = {"float32": 1e-4, "float16": 1e-2}
RMS_TOLERANCE = 80
SHORT = {"float32": "fp32", "float16": "fp16"}


# --------------------------------------------------------------------------- observing
@dataclasses.dataclass
class Observed:
    """One variant in one dtype: the certificate and what its cases gave."""

    passed: bool
    cases: list             # the names of the cases the certificate lists
    failures: list          # certification's failing cases: (name, rho, problem)
    runs: list              # (case, outputs or None when the run raised)


def observe(spec, dtype: str) -> Observed:
    """Certify ``spec`` in ``dtype`` while recording every output its run returns."""
    runs: list = []

    def run(case, d):
        try:
            out = spec.execution.run(case, d)
        except Exception:
            runs.append((case, None))
            raise
        runs.append((case, {k: v.detach().clone() if isinstance(v, torch.Tensor) else v
                            for k, v in out.items()}))
        return out

    recording = dataclasses.replace(spec, execution=dataclasses.replace(spec.execution, run=run))
    cert = certify(recording, backend(), check_laws=False, dtypes=[dtype], compiled=False)
    cases = cert["per_dtype"].get(dtype, {}).get("cases", [])
    failures = [(c["name"], c.get("rho"), c.get("problem")) for c in cases if not c["pass"]]
    return Observed(bool(cert["pass"]), [c["name"] for c in cases], failures, runs)


# --------------------------------------------------------------------------- the rules
def _errors(k: torch.Tensor, o: torch.Tensor) -> torch.Tensor:
    """|k − o| in float64; 0 where equal or both NaN, ∞ where only one is NaN."""
    k64, o64 = k.detach().to("cpu", torch.float64), o.detach().to("cpu", torch.float64)
    same = (k64 == o64) | (torch.isnan(k64) & torch.isnan(o64))
    err = torch.where(same, torch.zeros_like(o64), (k64 - o64).abs())
    return torch.where(torch.isnan(err), torch.full_like(err, math.inf), err)


def _worst(err: torch.Tensor) -> float:
    return float(err.max()) if err.numel() else 0.0


def assert_close(k, o, **_) -> bool:
    try:
        torch.testing.assert_close(k.cpu(), o.to(k.dtype).cpu(), equal_nan=True)
    except AssertionError:
        return False
    return True


def flash_attention(k, o, same=None, **_) -> bool:
    return same is not None and _worst(_errors(k, o)) <= 2 * _worst(_errors(same, o))


def relative_rms(k, o, **_) -> bool:
    err = _errors(k, o)
    if not err.numel():
        return True
    if not bool(torch.isfinite(err).all()):
        return False
    values = torch.cat([k.detach().cpu().double().flatten(), o.cpu().double().flatten()])
    values = values[torch.isfinite(values)]
    scale = max(float(values.abs().max()) if values.numel() else 0.0, sys.float_info.min)
    rms = math.sqrt(float((err * err).sum())) / (math.sqrt(err.numel()) * scale)
    return rms <= torch.finfo(k.dtype).eps * RMS_TOLERANCE


def u_n_max(k, o, dtype=None, count=1, **_) -> bool:
    u = max(unit_roundoff(dtype), unit_roundoff(str(k.dtype).removeprefix("torch.")))
    finite = o[torch.isfinite(o)].double().abs()
    scale = float(finite.max()) if finite.numel() else 0.0
    return bool((_errors(k, o) <= u * count * scale).all())


def fixed(k, o, dtype=None, **_) -> bool:
    tol, err = FIXED[dtype], _errors(k, o)
    return bool(((err == 0) | (err <= tol + tol * o.cpu().double().abs())).all())


CHECKS = dict(zip(RULES, (assert_close, flash_attention, relative_rms, u_n_max, fixed)))


def same_precision(spec, case, dtype: str) -> dict:
    """The binding's reference run with torch on the case's inputs in ``dtype``."""
    b = binding_of(spec)
    ref = b.against.reference
    takes = inspect.signature(ref.fn).parameters
    options = {k: v for k, v in b.against.options.items() if k in takes}
    args = {k: (v.to(getattr(torch, b.input_format(k, dtype)))
                if isinstance(v, torch.Tensor) and v.is_floating_point() else v)
            for k, v in case.inputs.items() if k in ref.inputs}
    return ref.fn(**args, **options)


def rule_failures(spec, observed: Observed, dtype: str, elementwise: bool) -> dict:
    """{rule: [names of the cases it fails]} on the recorded outputs."""
    returns = binding_of(spec).running.returns
    failed: dict[str, list] = {rule: [] for rule in RULES}
    for case, outputs in observed.runs:
        oracle = spec.comparison.oracle(case).values
        same = same_precision(spec, case, dtype)
        count = 1 if elementwise else int(case.n or 1)
        for rule, check in CHECKS.items():
            ok = outputs is not None and all(
                check(outputs[key], oracle[key], same=same.get(key), dtype=dtype, count=count)
                for key in returns)
            if not ok:
                failed[rule].append(case.name)
    return failed


def unchanged(variant: Observed, correct: Observed) -> bool:
    """Every output of every case bit for bit the correct kernel's."""
    if len(variant.runs) != len(correct.runs):
        return False
    for (_, got), (_, want) in zip(variant.runs, correct.runs):
        if got is None or want is None or got.keys() != want.keys():
            return False
        for key in got:
            a, b = got[key], want[key]
            if a.shape != b.shape or a.dtype != b.dtype:
                return False
            if not bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all()):
                return False
    return True


# --------------------------------------------------------------------------- comparing
def compare(kernels=KERNELS, dtypes=DTYPES) -> list[dict]:
    """One row per kernel × (correct | planted bug) × dtype: each rule's verdict and
    certification's, with the failing cases."""
    rows = []
    for name in kernels:
        mod = importlib.import_module(f"user_kernels.{name}")
        elementwise = name in ELEMENTWISE
        for dtype in dtypes:
            correct = observe(mod.KERNEL, dtype)
            variants = [(CORRECT, mod.KERNEL, correct)]
            for bug, fn in mod.PLANTED.items():
                spec = mod.binding(fn)
                variants.append((bug, spec, observe(spec, dtype)))
            for variant, spec, seen in variants:
                row = {"kernel": name, "variant": variant, "dtype": dtype,
                       "bug": variant != CORRECT,
                       "live": variant == CORRECT or not unchanged(seen, correct)}
                failed = rule_failures(spec, seen, dtype, elementwise)
                failed[CERTIFICATE] = [f[0] for f in seen.failures]
                row["failed"] = failed
                row["fails"] = {rule: bool(cases) for rule, cases in failed.items()}
                row["fails"][CERTIFICATE] = not seen.passed
                row["certificate_failures"] = [
                    {"case": c, "rho": r, **({"problem": p} if p else {})}
                    for c, r, p in seen.failures]
                rows.append(row)
    return rows


def violations(rows: list[dict]) -> list[str]:
    """Where certification falls short of the done criterion: a false alarm on a correct
    kernel, or a live bug some peer rule catches that certification misses."""
    out = []
    for row in rows:
        where = f"{row['kernel']} / {row['variant']} / {row['dtype']}"
        if not row["bug"] and row["fails"][CERTIFICATE]:
            worst = row["certificate_failures"][:3]
            out.append(f"false alarm: {where}: {worst}")
        elif row["bug"] and row["live"] and not row["fails"][CERTIFICATE]:
            peers = [r for r in RULES if row["fails"][r]]
            if peers:
                out.append(f"missed: {where} (caught by {', '.join(peers)})")
    return out


def _cell(row: dict | None, rule: str) -> str:
    if row is None:
        return "·"
    if row["bug"] and not row["live"]:
        return "—"
    if row["bug"]:
        return "caught" if row["fails"][rule] else "**missed**"
    return "**false alarm**" if row["fails"][rule] else "ok"


def table(rows: list[dict], dtypes=DTYPES) -> str:
    """The Markdown table: one line per kernel × variant, each cell one verdict per dtype."""
    columns = RULES + (CERTIFICATE,)
    by_key = {(r["kernel"], r["variant"], r["dtype"]): r for r in rows}
    order = list(dict.fromkeys((r["kernel"], r["variant"]) for r in rows))
    head = " / ".join(SHORT.get(d, d) for d in dtypes)
    lines = [f"| kernel | variant ({head}) | " + " | ".join(columns) + " |",
             "|---" * (len(columns) + 2) + "|"]
    for kernel, variant in order:
        cells = [" / ".join(_cell(by_key.get((kernel, variant, d)), rule) for d in dtypes)
                 for rule in columns]
        lines.append(f"| {kernel} | {variant} | " + " | ".join(cells) + " |")
    correct = [r for r in rows if not r["bug"]]
    live = [r for r in rows if r["bug"] and r["live"]]
    alarms = [str(sum(r["fails"][rule] for r in correct)) + f"/{len(correct)}"
              for rule in columns]
    caught = [str(sum(r["fails"][rule] for r in live)) + f"/{len(live)}" for rule in columns]
    lines.append("| **false alarms** | correct kernel × dtype | " + " | ".join(alarms) + " |")
    lines.append("| **bugs caught** | live bug × dtype | " + " | ".join(caught) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="every row with its failing cases")
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    args = parser.parse_args(argv)
    dtypes = tuple(args.dtypes.split(","))
    rows = compare(tuple(args.kernels.split(",")), dtypes)
    if args.json:
        print(json.dumps(rows, indent=1, default=str))
        return 0
    print(table(rows, dtypes))
    problems = violations(rows)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
