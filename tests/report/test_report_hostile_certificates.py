"""Certificate directories a report must survive: a document nested too deeply for the
JSON parser, one too large to read, one whose hashed sources name a device that never
ends. Each is listed with its reason; the rest of the site is written."""
import json

from verify.report import collect, write_site


def _cert(**extra):
    return {"kernel": "k", "pass": True, "rho": 0.5, **extra}


def test_deep_nesting_and_size_are_reported_not_raised(tmp_path, monkeypatch):
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (certs / "deep_kernel.json").write_text('{"kernel": ' + "[" * 5000 + "]" * 5000 + "}")
    (certs / "big.json").write_text(json.dumps(_cert(pad="a" * 400_000)))
    (certs / "fine.json").write_text(json.dumps(_cert()))
    monkeypatch.setattr(collect, "MAX_CERTIFICATE_BYTES", 300_000)
    summary = write_site(tmp_path / "site", [], None, certs)
    assert summary.unreadable == ["big.json", "deep.json", "deep_kernel.json"]
    assert summary.certificates == 1
    entries = {e["file"]: e for e in collect.load_certificates(certs)}
    assert "nested too deeply" in entries["deep.json"]["error"]
    assert "larger than" in entries["big.json"]["error"]
    assert entries["fine.json"]["error"] is None
    page = (tmp_path / "site" / "certificates" / "deep.html").read_text(encoding="utf-8")
    assert "nested too deeply" in page


def test_a_source_that_is_a_device_is_not_read(tmp_path):
    certs = tmp_path / "certs"
    certs.mkdir()
    sources = [{"path": "/dev/zero", "sha256": "0" * 64}]
    (certs / "dev.json").write_text(json.dumps(_cert(sources=sources, source_hash="0" * 64)))
    [entry] = collect.load_certificates(certs)   # reading /dev/zero would never return
    assert entry["sources"][0]["state"] == "not a file"
    assert entry["stale"] == "not a file: /dev/zero"


def test_stale_reasons_match_the_certifier(tmp_path):
    """The report words staleness as ``stale_certificates`` does, file for file."""
    from verify.certification.sources import hash_sources, stale_certificates
    certs = tmp_path / "certs"
    certs.mkdir()
    now = hash_sources(["laws/core.py", "laws/monoid.py"])
    (certs / "current.json").write_text(json.dumps(_cert(sources=now["files"],
                                                         source_hash=now["sha256"])))
    moved = [dict(now["files"][0], sha256="0" * 64), {"path": "no/such.py", "sha256": "1"}]
    (certs / "moved.json").write_text(json.dumps(_cert(sources=moved, source_hash="x")))
    (certs / "nohash.json").write_text(json.dumps(_cert()))
    ours = {e["file"]: e["stale"] for e in collect.load_certificates(certs)}
    theirs = {p["path"].rsplit("/", 1)[-1]: p["reason"] for p in stale_certificates(certs)}
    assert ours["current.json"] is None and "current.json" not in theirs
    assert ours["moved.json"] == theirs["moved.json"] == (
        "changed: laws/core.py; missing: no/such.py")
    assert ours["nohash.json"] and theirs["nohash.json"]


def test_rho_legend_sits_beside_the_points_and_edge_markers_are_whole():
    """The legend of ρ per case once sat inside the axes over the points near ρ = 1;
    the ρ = 0 markers sat on the axis edge, half over the row labels."""
    from verify.report.plots import Plotter
    plotter = Plotter()
    rows = [f"case {i}" for i in range(8)]
    svg = plotter.rho_per_row(rows, {"float16": [0.0] + [0.999] * 7,
                                     "float32": [0.0] + [0.01] * 7}, "ρ", "ρ per case")
    assert svg and "<svg" in svg
    [ax] = plotter.fig.axes
    legend = ax.get_legend().get_window_extent()
    axes = ax.get_window_extent()
    assert legend.x0 >= axes.x1 - 1, (legend, axes)             # right of the plot
    assert legend.x1 <= plotter.fig.bbox.x1 + 1                   # and inside the figure
    lo, _ = ax.get_xlim()
    zero_x = min(min(c.get_offsets()[:, 0]) for c in ax.collections)
    assert zero_x > lo                                            # not on the edge


def test_a_site_goes_only_where_no_other_files_would_be_overwritten(tmp_path):
    from verify.cli.report_cmd import check_site_dir
    from verify.errors import BadInput
    check_site_dir(str(tmp_path / "new"))                 # created
    check_site_dir(str(tmp_path))                         # empty
    (tmp_path / "index.html").write_text("<p>my own page</p>")
    try:
        check_site_dir(str(tmp_path))
    except BadInput as exc:
        assert "holds other files" in str(exc)
    else:
        raise AssertionError("a directory with the user's index.html was accepted")
    site = tmp_path / "site"
    write_site(site, [], None, None)
    assert (site / ".lawcheck-report").is_file()
    check_site_dir(str(site))                             # an earlier report: rewritten
    (site / ".lawcheck-report").unlink()                  # one written before the marker
    check_site_dir(str(site))


def test_stale_certificates_survive_what_the_report_survives(tmp_path):
    """Deep nesting, a certificate that is a device, a hashed source that is a device:
    each is a reason, not a RecursionError or a read that never ends."""
    import os

    from verify.certification.sources import file_sha, stale_certificates
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "deep.json").write_text("[" * 100_000)
    os.symlink("/dev/zero", certs / "zero.json")
    sources = [{"path": "/dev/zero", "sha256": "0" * 64}]
    (certs / "dev.json").write_text(json.dumps(_cert(sources=sources, source_hash="0" * 64)))
    os.mkfifo(tmp_path / "fifo")
    reasons = {p["path"].rsplit("/", 1)[-1]: p["reason"] for p in stale_certificates(certs)}
    assert reasons == {"deep.json": "unreadable certificate (RecursionError)",
                       "zero.json": "unreadable certificate (ValueError)",
                       "dev.json": "not a file: /dev/zero"}
    ours = {e["file"]: e for e in collect.load_certificates(certs)}
    assert ours["dev.json"]["stale"] == reasons["dev.json"]
    assert "not a regular file" in ours["zero.json"]["error"]
    assert file_sha(tmp_path / "fifo") is None and file_sha(certs / "zero.json") is None


def test_malformed_element_samples_render(tmp_path):
    """Samples with NaN, negative, infinite and non-numeric values, lists of different
    lengths or no lists at all: what can be read is drawn, the rest skipped."""
    samples = [{"bound": [1e-3, "nan", -1.0, 1e-2, "inf", None, True],
                "error": [1e-5, 1e-6, 1e-7, -2.0, 1e-4, "x", 1.0]},
               {"bound": [1e-3, 1e-4], "error": [1e-5]},             # lengths differ
               {"bound": "1e-3", "error": 3},
               ["not", "a", "dict"],
               {"bound": [float("nan")], "error": [float("nan")]}]
    cases = [{"name": f"case {i}", "rho": 0.5, "classes": ["random", 7, None],
              "outputs": {"y": {"max_bound": 1e-3, "max_error": 1e-6, "sample": s}}}
             for i, s in enumerate(samples)]
    cases.append({"name": "no outputs", "rho": 2.0, "classes": "cancellation"})
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "odd.json").write_text(json.dumps(_cert(
        dtypes={"float32": {}}, per_dtype={"float32": {"cases": cases}})))
    summary = write_site(tmp_path / "site", [], None, certs)
    assert summary.certificates == 1 and summary.unreadable == []
    page = (tmp_path / "site" / "certificates" / "odd.html").read_text(encoding="utf-8")
    assert "measured error against bound" in page and "ρ per case class" in page
    from verify.report.certificate import _class_plot
    from verify.report.plots import Plotter
    # a string is not a list of classes (its letters are not classes)
    assert _class_plot({"float32": [{"rho": 2.0, "classes": "ab"}]}, Plotter()) is None
    assert _class_plot({"float32": [{"rho": 2.0, "classes": ["ab"]}]}, Plotter())


def test_measurement_records_beside_the_certificates_are_not_certificates(tmp_path):
    """bench.gpu.json, instructions.gpu.json and crosscheck.gpu.json sit in certificates/
    but are not certificates: neither the report nor the staleness check reads them."""
    from verify import api
    certs = tmp_path / "certs"
    certs.mkdir()
    for name in ("bench.gpu.json", "bench.gpu.2.json", "instructions.gpu.json",
                 "crosscheck.gpu.json"):
        (certs / name).write_text('{"benchmarks": []}')
    (certs / "benchmark.gpu.json").write_text("{}")    # not a record's name: a certificate
    assert [e["file"] for e in collect.load_certificates(certs)] == ["benchmark.gpu.json"]
    assert [s["path"].rsplit("/", 1)[-1] for s in api.stale_certificates(str(certs))] == \
        ["benchmark.gpu.json"]
