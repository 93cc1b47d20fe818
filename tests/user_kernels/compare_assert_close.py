"""Measure certification against ``torch.testing.assert_close`` with default tolerances
on the same outputs of the user kernels: false alarms (a correct kernel's case fails)
and misses (a planted bug passes every case). Run:

    TRITON_INTERPRET=1 PYTHONPATH=.:tests python tests/user_kernels/compare_assert_close.py
"""
import importlib
import os
import sys

os.environ.setdefault("TRITON_INTERPRET", "1")

import torch  # noqa: E402

from impls.spec import backend  # noqa: E402
from verify.certification.binding import binding_of  # noqa: E402
from verify.certification.certify import certify  # noqa: E402

KERNELS = ("fused_softmax", "two_pass_layer_norm", "tiled_matmul", "rms_norm")


def assert_close_verdicts(spec, dtypes=("float32", "float16")):
    """Per dtype: the cases where assert_close(kernel output, oracle cast to the output's
    dtype, equal_nan=True) raises."""
    b = binding_of(spec)
    failed, total = [], 0
    for dtype in dtypes:
        for case in spec.cases(0, backend()):
            if case.params.get("dtypes") and dtype not in case.params["dtypes"]:
                continue
            total += 1
            out = spec.run(case, dtype)
            oracle = spec.oracle(case)
            for key in b.running.returns:
                got = out[key]
                want = oracle[key].to(got.dtype)
                try:
                    torch.testing.assert_close(got, want, equal_nan=True)
                except AssertionError:
                    failed.append(f"{dtype} {case.name} {key}")
                    break
    return failed, total


def main():
    rows = []
    for name in KERNELS:
        mod = importlib.import_module(f"user_kernels.{name}")
        failed, total = assert_close_verdicts(mod.KERNEL)
        cert = certify(mod.KERNEL, backend(), check_laws=False)
        rows.append((name, "correct", f"{len(failed)}/{total} cases fail",
                     "pass" if cert["pass"] else "FAIL", failed[:3]))
        for bug, fn in mod.PLANTED.items():
            spec = mod.binding(fn)
            failed, total = assert_close_verdicts(spec)
            cert = certify(spec, backend(), check_laws=False)
            rows.append((name, bug, f"{len(failed)}/{total} cases fail",
                         "pass" if cert["pass"] else "FAIL", []))
    for row in rows:
        example = ("  e.g. " + "; ".join(row[4])) if row[4] else ""
        print(" | ".join(str(c) for c in row[:4]), example)
    return 0


if __name__ == "__main__":
    sys.exit(main())
