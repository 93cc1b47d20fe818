"""Each claim kind computes its verdict from the numbers it states."""

from papers import book_ch3, book_ch8, book_ch36, check_claim, speedup
from papers.claims import (CONDITIONAL, CONFIRMED, NEEDS_GPU, NOT_CHECKABLE, REFUTED,
                           NotCheckable, arithmetic)


def claim(paper, start):
    return next(c for c in paper.PAPER.claims if c.text.startswith(start))


# --------------------------------------------------------------------------- arithmetic
def test_arithmetic_compares_the_formula_with_the_stated_figure():
    def make(stated, assumption=""):
        return arithmetic(
            "t", "w", expr="ops / rate", inputs={"ops": 1e12, "rate": 1e13},
            formula=lambda ops, rate: ops / rate, stated=stated, rel_tol=0.05,
            assumption=assumption)
    assert make(100).check().verdict == REFUTED
    assert make(0.1).check().verdict == CONFIRMED
    assert make((0.05, 0.2), "one op per flop").check().verdict == CONDITIONAL
    assert "ops / rate = 0.1" in make(100).check().reason


def test_the_ten_teraflops_claim_is_off_by_a_thousand():
    out = claim(book_ch36, "10¹² operations at 10 TFLOPS").check()
    assert out.verdict == REFUTED and "= 0.1" in out.reason


def test_profile_table_verdict_follows_its_numbers(monkeypatch):
    c = claim(book_ch36, "Profiling the sequential scan")
    assert c.check().verdict == REFUTED
    consistent = [(n, ms, round(n / (ms / 1000))) for n, ms, _ in book_ch36.PROFILE]
    monkeypatch.setattr(book_ch36, "PROFILE", consistent)
    assert c.check().verdict == CONFIRMED


# --------------------------------------------------------------------------- worked examples
def test_softmax_example_value_is_computed(monkeypatch):
    c = claim(book_ch8, "For x = (1, 3, 2, 5, 4)")
    out = c.check()
    assert out.verdict == REFUTED and "1.571317" in out.reason
    monkeypatch.setattr(book_ch8, "EXAMPLE_SUM", "1.571317")
    assert c.check().verdict == CONFIRMED


def test_median_example_is_not_a_counterexample_and_a_real_one_is_shown():
    out = claim(book_ch8, "Chunks [1, 2, 3]").check()
    assert out.verdict == REFUTED and "one that is" in out.evidence


def test_egyptian_table_is_checked_entry_by_entry(monkeypatch):
    c = claim(book_ch3, "13 × 24 by doubling")
    assert c.check().verdict == CONFIRMED
    monkeypatch.setattr(book_ch3, "EGYPT_TABLE", [(1, 24, True), (2, 48, False), (4, 96, True),
                                                  (8, 190, True)])
    assert c.check().verdict == REFUTED


def test_downsweep_gives_exclusive_prefixes():
    out = claim(book_ch36, "The down-sweep").check()
    assert out.verdict == CONDITIONAL and "[0, 1, 3, 6" in out.evidence


# --------------------------------------------------------------------------- data movement
def test_moa_linear_traffic_holds_only_while_kv_fit_in_fast_memory():
    from papers import attention_moa
    out = claim(attention_moa, "The normal form moves only").check()
    assert out.verdict == CONDITIONAL
    assert "n ≤ 761 for M = 98,304 words" in out.reason and "n²d²/M" in out.reason


def test_flash_traffic_ratio_depends_on_head_dim():
    out = claim(book_ch8, "FlashAttention reduces memory traffic").check()
    assert out.verdict == CONDITIONAL and "[64]" in out.reason


# --------------------------------------------------------------------------- numerical
def test_exact_agreement_claim_is_refuted_within_the_rounding_bound():
    from papers import attention_moa, dao2022
    from papers.agreement import attention_orders, smallest_witness
    moa = claim(attention_moa, "The normal form agrees exactly").check()
    assert moa.verdict == REFUTED and "ρ = " in moa.reason and "not exact" in moa.reason
    s, v, a, b = smallest_witness()
    assert a != b and s == [0.0, 0.0, 0.0]
    comparison = attention_orders()[("textbook", "one-pass")]
    assert comparison.differing > 0 and max(comparison.rho, comparison.rho_a,
                                            comparison.rho_b) <= 1
    assert claim(dao2022, "The tiled computation").check().verdict == CONFIRMED


# --------------------------------------------------------------------------- speedups
def test_speedup_needs_a_gpu(monkeypatch):
    monkeypatch.setattr(speedup, "gpu_available", lambda: False)
    c = claim(book_ch3, "FlashAttention gives a 2–4× speedup")
    out = c.check()
    assert out.verdict == NEEDS_GPU and "torch.cuda.is_available() is False" in out.reason


def test_speedup_verdict_from_measurements(monkeypatch):
    c = claim(book_ch3, "FlashAttention gives a 2–4× speedup")
    monkeypatch.setattr(speedup, "gpu_available", lambda: True)
    monkeypatch.setattr(speedup, "device_name", lambda: "TestGPU")
    fast = speedup.Speedup(c.text, c.where, c.baseline, c.candidate, c.claimed,
                           lambda: [("N=1024", 2.5), ("N=2048", 3.1), ("N=4096", 1.2)])
    out = fast.check()
    assert out.verdict == CONFIRMED and "median measured speedup 2.5× on TestGPU" in out.reason
    slow = speedup.Speedup(c.text, c.where, c.baseline, c.candidate, c.claimed,
                           lambda: [("N=1024", 1.1), ("N=2048", 1.5)])
    assert slow.check().verdict == REFUTED
    up_to = speedup.Speedup("t", "w", "b", "c", (7.6, 7.6), lambda: [("a", 2.0), ("b", 7.2)],
                            up_to=True)
    assert up_to.check().verdict == CONFIRMED


def test_not_checkable_says_why_and_a_raising_check_is_reported():
    out = NotCheckable("t", "w", "no data").check()
    assert out.verdict == NOT_CHECKABLE and out.reason == "no data"

    class Broken:
        text, where, kind = "t", "w", "arithmetic"

        def check(self, law_verdict=None):
            raise ZeroDivisionError("x")
    assert check_claim(Broken())["verdict"] == NOT_CHECKABLE
