"""impls/topk.py: chunked top-k merged by topk_merge.merge, exact values and
lowest-index ties; planted bugs must fail; inputs are checked."""
import dataclasses
import math

import pytest
import torch

from impls import topk as tk
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results

BACKEND = backend()
BLOCK = tk.algorithm_sizes()["block"]


@pytest.fixture(scope="module")
def certificate():
    return certify(tk.KERNEL, BACKEND, seed=0)


@pytest.fixture(scope="module")
def planted():
    return planted_results(tk.KERNEL, BACKEND, seed=0)


def _run(x: torch.Tensor, k: int):
    values, indices = tk.topk(x.to(device()).contiguous(), k)
    return values.cpu(), indices.cpu()


def test_certificate_passes_exactly(certificate):
    assert certificate["pass"], certificate["notes"]
    assert all(v["ok"] for v in certificate["laws"].values()), certificate["laws"]
    for result in certificate["per_dtype"].values():
        for case in result["cases"]:
            assert case["outputs"]["values"]["mismatches"] == 0
            assert case["outputs"]["indices"]["mismatches"] == 0
    assert {"ties", "multi-block", "length-1", "k=n", "k=max", "concentrated", "inf",
            "signed-zero", "non-multiple", "nan"} <= set(certificate["cases"]["coverage"])
    assert not certificate["cases"]["missing_contract_classes"]


@pytest.mark.parametrize("bug", ["merge_drops_ties", "truncated", "signed_zero_distinct",
                                 "nan_by_bits"])
def test_planted_bug_fails_certification(planted, bug):
    assert not planted[bug]["pass"]


def _failing_cases(run) -> list[str]:
    """Names of the float32 cases a variant ``run`` fails (laws not checked)."""
    variant = dataclasses.replace(tk.KERNEL, execution=dataclasses.replace(
        tk.KERNEL.execution, run=run, planted={}))
    cert = certify(variant, BACKEND, seed=0, dtypes=["float32"], check_laws=False)
    assert not cert["pass"]
    return [c["name"] for c in cert["per_dtype"]["float32"]["cases"] if not c["pass"]]


def _zeros_positive_first(case, dtype):
    """A broken variant: among tied zeros, +0.0 is put before −0.0."""
    out = tk.run(case, dtype)
    x = case.inputs["x"]
    for r, row in enumerate(out["indices"]):
        chosen = x[r, row]
        zero = (chosen == 0).nonzero().flatten()
        if len(zero):
            order = sorted(zero.tolist(), key=lambda i: (math.copysign(1, chosen[i]) < 0, i))
            out["indices"][r, zero] = row[order].clone()
            out["values"][r, zero] = out["values"][r, order].clone()
    return out


def _zeros_canonicalized(case, dtype):
    """A broken variant: indices right, but −0.0 values returned as +0.0."""
    out = tk.run(case, dtype)
    out["values"] = torch.where(out["values"] == 0, torch.zeros_like(out["values"]),
                                out["values"])
    return out


def _nan_smallest(case, dtype):
    """A broken variant: NaN sorted as the smallest value instead of the largest."""
    x = case.inputs["x"]
    masked = dataclasses.replace(case, inputs={"x": torch.where(torch.isnan(x), -math.inf, x)})
    out = tk.run(masked, dtype)
    out["values"] = torch.gather(x.to(out["values"].dtype), 1, out["indices"])
    return out


@pytest.mark.parametrize("variant, case", [
    (_zeros_positive_first, "±0 among negatives"),
    (_zeros_canonicalized, "±0 among negatives"),
    (_nan_smallest, "NaNs of both signs"),
])
def test_special_value_variant_fails_on_its_case(variant, case):
    assert any(name.startswith(case) for name in _failing_cases(variant))


def test_contract_class_without_a_case_fails_certification():
    def without_nan(seed, which):
        return [c for c in tk.cases(seed, which) if "nan" not in c.classes]
    variant = dataclasses.replace(
        tk.KERNEL, coverage=dataclasses.replace(tk.KERNEL.coverage, cases=without_nan),
        execution=dataclasses.replace(tk.KERNEL.execution, planted={}))
    cert = certify(variant, BACKEND, seed=0, dtypes=["float32"], check_laws=False)
    assert not cert["pass"]
    assert cert["cases"]["missing_contract_classes"] == ["nan"]
    assert any("not covered by any case: nan" in note for note in cert["notes"])


def test_negative_nan_is_largest_too():
    x = torch.tensor([[1.0, math.copysign(math.nan, -1.0), -math.inf, math.nan]])
    values, indices = _run(x, 3)
    assert indices.tolist() == [[1, 3, 0]]


def test_ties_go_to_the_lowest_index():
    x = torch.tensor([[1.0, 3.0, 3.0, 2.0, 3.0, 3.0]])
    values, indices = _run(x, 3)
    assert indices.tolist() == [[1, 2, 4]]
    assert values.tolist() == [[3.0, 3.0, 3.0]]


def test_ties_across_chunks_keep_index_order():
    n = 3 * BLOCK + 11
    x = torch.zeros(2, n)
    values, indices = _run(x, 64)
    assert indices.tolist() == [list(range(64))] * 2


def test_signed_zeros_tie_and_keep_their_sign():
    x = torch.tensor([[-0.0, -1.0, 0.0, -0.0]])
    values, indices = _run(x, 3)
    assert indices.tolist() == [[0, 2, 3]]
    assert [math.copysign(1.0, v) for v in values[0].tolist()] == [-1.0, 1.0, -1.0]


def test_nan_is_largest_and_infinities_order():
    x = torch.tensor([[1.0, float("nan"), float("inf"), float("-inf"), float("nan")]])
    values, indices = _run(x, 4)
    assert indices.tolist() == [[1, 4, 2, 0]]
    assert torch.isnan(values[0, :2]).all() and values[0, 2] == float("inf")


@pytest.mark.parametrize("n, k", [(1, 1), (5, 5), (BLOCK - 3, 7), (BLOCK * 17 + 5, 128),
                                  (2 * BLOCK, 1)])
def test_matches_lowest_index_oracle_and_torch_values(n, k):
    torch.manual_seed(n + k)
    x = torch.randn(2, n)
    values, indices = _run(x, k)
    want_values, want_indices = tk.lowest_index_topk(x, k)
    assert torch.equal(indices, want_indices)
    assert torch.equal(values, want_values)
    assert torch.equal(values, torch.topk(x, k).values)  # the peer (distinct values)


def test_bfloat16_is_exact_even_in_the_interpreter():
    """No float arithmetic happens (keys are built from the bits), so bf16 is exact on
    every backend; the certifier still certifies bf16 only on a GPU."""
    torch.manual_seed(3)
    x = torch.randint(-4, 5, (2, 2 * BLOCK + 3)).to(torch.bfloat16) / 4
    values, indices = _run(x, 50)
    want_values, want_indices = tk.lowest_index_topk(x, 50)
    assert torch.equal(indices, want_indices)
    assert torch.equal(values, want_values)


@pytest.mark.parametrize("make, k, error, words", [
    (lambda: torch.ones(2, 5), 6, ValueError, "row length"),
    (lambda: torch.ones(2, 500), 129, ValueError, "128"),
    (lambda: torch.ones(2, 5), 0, ValueError, "k must be in"),
    (lambda: torch.ones(2, 5), 2.0, TypeError, "int"),
    (lambda: torch.ones(2, 5), True, TypeError, "int"),
    (lambda: torch.ones(5), 1, ValueError, "2-D"),
    (lambda: torch.ones(2, 5, dtype=torch.float64), 1, TypeError, "dtype"),
    (lambda: torch.ones(2, 5, dtype=torch.int32), 1, TypeError, "dtype"),
    (lambda: torch.ones(5, 2).t(), 1, ValueError, "contiguous"),
    (lambda: torch.ones(2, 5, device="meta"), 1, ValueError, "must be on"),
    (lambda: "not a tensor", 1, TypeError, "torch.Tensor"),
])
def test_bad_input_raises_one_line(make, k, error, words):
    x = make()
    if isinstance(x, torch.Tensor) and x.device.type != "meta":
        x = x.to(device())
    with pytest.raises(error, match=words) as info:
        tk.topk(x, k)
    assert "\n" not in str(info.value)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_covers_bfloat16():
    cert = certify(tk.KERNEL, "gpu", seed=0)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert not any(c["pass"] for c in planted_results(tk.KERNEL, "gpu").values())
