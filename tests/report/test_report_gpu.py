"""The report's GPU page: the measurement records beside the certificates (instruction
accuracy, benchmarks over several runs, the cross-check of the code the GPU ran) shown
with their figures; records that cannot be read, or that have the wrong shape, named
with their error; a page never left behind by a later report without records."""
import json
from pathlib import Path

from verify.report import measurements, write_site

DATA = Path(__file__).parent / "data"
RECORDS = ("instructions.gpu.json", "bench.gpu.json", "bench.gpu.2.json", "crosscheck.gpu.json")


def _records(tmp_path: Path) -> Path:
    certs = tmp_path / "certs"
    certs.mkdir()
    for name in RECORDS:
        (certs / name).write_text((DATA / name).read_text())
    return certs


def test_the_page_shows_every_record(tmp_path):
    summary = write_site(tmp_path / "site", [], None, _records(tmp_path))
    page = (tmp_path / "site" / "gpu.html").read_text(encoding="utf-8")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "gpu.html" in summary.files and 'href="gpu.html"' in index
    assert summary.certificates == 0                   # records are not certificates
    assert page.count("<svg") == 2
    for text in ("ex2.approx.f32", "rsqrt.approx.ftz.f32", "libdevice.logf", "softmax",
                 "2 runs", "bench.gpu.2.json", "_softmax_kernel", "NVIDIA H200"):
        assert text in page, text


def test_benchmarks_of_several_runs_are_medians_and_ranges(tmp_path):
    view = measurements.load(_records(tmp_path))
    runs = [json.loads((DATA / n).read_text())["benchmarks"]
            for n in ("bench.gpu.json", "bench.gpu.2.json")]
    row = next(r for r in view["bench"]["rows"] if r["kernel"] == "softmax")
    speedups = sorted(next(b for b in run if b["kernel"] == "softmax")["speedup_vs_peer"]
                      for run in runs)
    assert row["speedup"] == (speedups[0], speedups[1])
    times = [next(b for b in run if b["kernel"] == "softmax")["kernel_ms"] for run in runs]
    assert row["kernel_ms"] == sum(times) / 2          # the median of two
    assert view["instructions"]["holds"] and view["crosscheck"]["ok"]


def test_unreadable_and_misshapen_records_are_named_not_shown(tmp_path):
    certs = _records(tmp_path)
    (certs / "instructions.gpu.json").write_text('{"measurements": "x"}')
    (certs / "crosscheck.gpu.json").write_text("{ not json")
    for name in ("bench.gpu.json", "bench.gpu.2.json"):
        doc = json.loads((DATA / name).read_text())
        doc["benchmarks"][0]["shape"] = "<script>alert(1)</script>"
        (certs / name).write_text(json.dumps(doc))
    write_site(tmp_path / "site", [], None, certs)
    page = (tmp_path / "site" / "gpu.html").read_text(encoding="utf-8")
    assert "instructions.gpu.json" in page and "not an instruction record" in page
    assert "crosscheck.gpu.json" in page and "JSONDecodeError" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert page.count("<svg") == 1                     # the benchmarks still drawn


def test_a_later_report_without_records_leaves_no_gpu_page(tmp_path):
    write_site(tmp_path / "site", [], None, _records(tmp_path))
    empty = tmp_path / "empty"
    empty.mkdir()
    summary = write_site(tmp_path / "site", [], None, empty)
    assert "gpu.html" not in summary.files
    assert not (tmp_path / "site" / "gpu.html").exists()
    assert 'href="gpu.html"' not in (tmp_path / "site" / "index.html").read_text()


def test_an_infinite_ratio_is_shown_as_one(tmp_path):
    """A NaN result has ratio ∞, written "inf" (verify.jsonio): shown as ∞, failing."""
    certs = _records(tmp_path)
    doc = json.loads((DATA / "instructions.gpu.json").read_text())
    doc["measurements"][0].update(max_ratio_to_table="inf", holds=False)
    doc["holds"] = False
    (certs / "instructions.gpu.json").write_text(json.dumps(doc))
    view = measurements.load(certs)
    row = view["instructions"]["rows"][0]
    assert row["ratio"] == float("inf") and not row["holds"]
    write_site(tmp_path / "site", [], None, certs)
    page = (tmp_path / "site" / "gpu.html").read_text(encoding="utf-8")
    assert "∞" in page and "A figure is exceeded." in page
