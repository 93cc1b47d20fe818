"""The report site, checked over its files: a page per law and per certificate, every
local link resolves, everything is escaped, stale sources are marked, plots are there."""
import re

import pytest
from site_checks import link_problems


def read(site, rel):
    return (site["out"] / rel).read_text(encoding="utf-8")


def test_every_law_and_certificate_has_a_page_and_every_link_resolves(small_site):
    out, summary = small_site["out"], small_site["summary"]
    assert summary.laws == len(small_site["laws"]) and summary.certificates == 5
    assert summary.unreadable == ["broken.json"]
    assert summary.stale == ["matmul.stale.json", "mine.json"]
    index = read(small_site, "index.html")
    for law_id in small_site["laws"]:
        assert (out / "laws" / f"{law_id}.html").is_file()
        assert f'href="laws/{law_id}.html"' in index
    pages = sorted(p.name for p in (out / "certificates").iterdir())
    assert pages == ["broken.html", "hostile__name_.html", "matmul.stale.html",
                     "matmul.triton-interpreter.html", "mine.html",
                     "topk.triton-interpreter.html"]
    assert link_problems(out) == []
    assert "http://" not in index and "https://" not in index  # works offline


def test_link_checker_finds_what_is_broken(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html">b</a> <a href="a.html#nope">x</a>'
                                     '<link href="https://cdn.example/x.css"><p id="here">'
                                     '<a href="#here">ok</a>')
    problems = link_problems(tmp_path)
    assert len(problems) == 3, problems
    assert any("b.html: no such file" in p for p in problems)
    assert any("#nope: no element with that id" in p for p in problems)
    assert any("not a local link" in p for p in problems)


def test_law_page_shows_statement_counterexample_near_miss_and_uses(small_site):
    page = read(small_site, "laws/online_softmax.associative.html")
    assert "(m, d) ⊕" in page or "⊕" in page
    assert 'href="../laws/online_softmax.no_rescale.html"' in page      # the near miss
    assert "impls/softmax.py" in page                                     # where kernels use it
    assert re.search(r'href="\.\./papers\.html#claim-[\w.-]+-\d+"', page)  # paper claims
    anti = read(small_site, "laws/online_softmax.no_rescale.html")
    assert "Counterexample" in anti and ">lhs<" in anti and ">rhs<" in anti
    assert "near miss of" in anti
    # the replayed sides are numbers: a high-precision decimal is shown without quotes
    rhs = re.search(r">rhs</th><td><code>([^<]*)</code>", anti).group(1)
    assert rhs.startswith("[") and "&#39;" not in rhs and "'" not in rhs, rhs
    floats = read(small_site, "laws/max.associative.html")
    assert "Float formats" in floats and "bfloat16" in floats


def test_certificate_page_has_plots_tables_and_current_sources(small_site):
    page = read(small_site, "certificates/matmul.triton-interpreter.html")
    assert page.count("<svg") == 4     # error vs bound, ρ per case and per class, power
    assert "ρ = 1 (error = bound)" in page
    assert "One point per sampled element" in page and "bound (of the element)" in page
    assert "ρ per case class" in page and "k-not-multiple-of-block" in page
    assert "Merge trees" in page and "Planted bugs" in page
    assert "Stale" not in page and "changed" not in page
    assert page.count('<span class="ok">current</span>') >= 5


def test_stale_certificate_marks_the_changed_file(small_site):
    page = read(small_site, "certificates/matmul.stale.html")
    assert "Stale: the code has moved on" in page
    assert page.count('<span class="warn">changed</span>') == 1
    assert "stale" in read(small_site, "index.html")


def test_exact_kernel_draws_rho_zero_on_the_edge(small_site):
    page = read(small_site, "certificates/topk.triton-interpreter.html")
    assert "ρ = 0 (exact)" in page


def test_everything_is_escaped(small_site):
    out = small_site["out"]
    for path in out.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<script" not in text and "<img" not in text and "<b>bold" not in text, path
    page = read(small_site, "certificates/hostile__name_.html")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # the case name reaches the plot as text, its $ not read as mathtext
    assert small_site["hostile_case"] == "$x$ <b>bold</b> & co"
    assert "$x$ &lt;b&gt;bold&lt;/b&gt; &amp; co" in page


def test_compiled_profile_is_a_table(small_site):
    page = read(small_site, "certificates/hostile__name_.html")
    section = page[page.index("Compiled instruction profile"):]
    for row in small_site["compiled"]["instructions"]:
        assert f"<td>{row['op']}</td>" in section
    assert "<th>count</th>" in section


def test_minimal_and_unreadable_certificates_render(small_site):
    mine = read(small_site, "certificates/mine.html")
    assert "fail" in mine and "not.a.catalog.law" in mine
    assert "No sources recorded" in mine and "Stale" in mine   # the certifier's verdict
    assert 'href="../laws/not.a.catalog.law.html"' not in mine
    broken = read(small_site, "certificates/broken.html")
    assert "could not be read as a certificate" in broken
    assert "unreadable" in read(small_site, "index.html")


def test_error_plot_draws_every_sampled_element_and_falls_back_to_case_maxima():
    """A certificate's samples give one point each; one written before samples gives
    one point per case and output, labelled as such."""
    import copy
    import json

    from conftest import DATA
    from verify.report import certificate
    from verify.report.plots import Plotter
    cert = json.loads((DATA / "matmul.triton-interpreter.json").read_text())
    records = certificate._case_records(cert["per_dtype"])
    points, per_element = certificate._error_points(records)
    sampled = sum(len(o["sample"]["bound"]) for cases in records.values()
                  for case in cases for o in case["outputs"].values() if "sample" in o)
    assert per_element and len(points) == sampled > 2 * len(cert["per_dtype"]["float32"]["cases"])
    old = copy.deepcopy(cert)
    for cases in _cases(old):
        for out in cases["outputs"].values():
            out.pop("sample", None)
    old_points, old_per_element = certificate._error_points(
        certificate._case_records(old["per_dtype"]))
    assert not old_per_element and len(old_points) == sum(
        len(case["outputs"]) for case in _cases(old))
    svg = Plotter().error_vs_bound(old_points, old_per_element)
    assert "bound (largest in the case)" in svg


def _cases(cert):
    return [case for r in cert["per_dtype"].values() for case in r["cases"]]


def test_an_infinite_error_is_drawn_on_the_top_edge():
    from verify.report.plots import Plotter
    svg = Plotter().error_vs_bound([("float32", 1e-3, 1e-5), ("float32", 1e-3, float("inf")),
                                    ("float16", 1e-2, 0.0)], per_element=True)
    assert "float32: error ∞ (on the top edge)" in svg and "float16: error 0" in svg


def test_scatter_is_downsampled():
    from verify.report.plots import MAX_POINTS, Plotter
    points = [("float32", 10.0 ** (i % 7 - 9), 10.0 ** (i % 5 - 12)) for i in range(20000)]
    svg = Plotter().error_vs_bound(points)
    markers = svg.count("<use ")
    assert 100 < markers <= MAX_POINTS + 20


def test_nothing_is_written_when_rendering_fails(tmp_path):
    from verify.report import write_site
    with pytest.raises(KeyError):
        write_site(tmp_path / "site", [{"bogus": 1}])
    assert not (tmp_path / "site").exists()


def test_a_second_report_in_the_same_directory_drops_the_old_pages(small_site, tmp_path):
    import shutil

    from verify.report import write_site
    out = tmp_path / "site"
    shutil.copytree(small_site["out"], out)
    (out / "notes.txt").write_text("mine")
    summary = write_site(out, small_site["results"][:1], None, tmp_path / "none")
    assert sorted(p.name for p in (out / "laws").iterdir()) == ["max.associative.html"]
    assert list((out / "certificates").iterdir()) == []
    assert (out / "notes.txt").read_text() == "mine"       # not the report's: kept
    assert summary.certificates == 0 and link_problems(out) == []
