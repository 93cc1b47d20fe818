"""The report in a real browser: headless Chromium (Debian's package; .ci/run installs
it) loads every page of the small site, and the rendered DOM, the console and a
screenshot are checked. Without Chromium these tests skip, unless
LAWCHECK_REQUIRE_BROWSER is set (CI sets it), where they fail."""
import os

import pytest
from site_checks import chromium, page_problems, render, render_all

if chromium() is None:
    if os.environ.get("LAWCHECK_REQUIRE_BROWSER"):
        raise RuntimeError("LAWCHECK_REQUIRE_BROWSER is set but no chromium is installed")
    pytest.skip("no chromium (apt-get install chromium)", allow_module_level=True)


def test_the_console_check_sees_an_uncaught_exception(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><body><main><h1>x</h1></main>"
                    "<script>throw new Error('boom-42')</script></body></html>")
    r = render(page)
    assert any("Uncaught Error: boom-42" in m for m in r.console), r.stderr[-2000:]
    assert page_problems(r)


def test_every_page_renders_with_no_console_message(small_site):
    out = small_site["out"]
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == 3 + 4 + 6          # index, papers, gpu; laws; certificates
    rendered = render_all(pages, jobs=2)
    problems = [p for r in rendered for p in page_problems(r)]
    assert problems == []
    dom = {os.path.relpath(r.page, out): r.dom for r in rendered}
    assert dom["certificates/matmul.triton-interpreter.html"].count("<svg") == 4
    assert dom["certificates/topk.triton-interpreter.html"].count("<svg") >= 1
    assert "could not be read" in dom["certificates/broken.html"]
    assert "online_softmax.no_rescale" in dom["laws/online_softmax.associative.html"]
    assert dom["index.html"].count('class="badge') >= 4
    assert dom["gpu.html"].count("<svg") == 2 and "ex2.approx.f32" in dom["gpu.html"]


def test_screenshot_is_not_blank(small_site, tmp_path):
    from matplotlib.image import imread
    shot = tmp_path / "index.png"
    r = render(small_site["out"] / "index.html", screenshot=shot, size="1200,900")
    assert r.console == [] and shot.is_file(), r.stderr[-2000:]
    pixels = imread(shot)
    assert pixels.shape[:2] == (900, 1200)
    assert pixels[..., :3].std() > 0.05            # text and tables, not an empty page
