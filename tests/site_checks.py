"""Checks of a generated report site: local links (in Python, over the files) and
rendering in headless Chromium (the DOM after load, console messages, a screenshot).

Run on a whole site: ``python tests/site_checks.py DIR [--jobs N]`` prints one line per
problem and a summary, and exits 1 when there is any.

Chromium writes every console message of a page to stderr as ``INFO:CONSOLE`` when
started with ``--enable-logging=stderr``; the report's pages have no script, so any
such line (an uncaught exception, a console.error) is a failure.
"""
from __future__ import annotations

import dataclasses
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlsplit

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
CONSOLE = re.compile(r":CONSOLE[:(]\d+\)?\] (.*)$")


# --------------------------------------------------------------------------- links
class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "xlink:href") and value is not None:
                self.links.append(value)
            if name == "id" and value:
                self.ids.add(value)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def link_problems(site: str | os.PathLike) -> list[str]:
    """Every link of every page that does not resolve inside the site: a missing file,
    a missing #anchor, or anything fetched from elsewhere (the site works offline)."""
    root = Path(site).resolve()
    parsed = {p: _parse(p) for p in root.rglob("*.html")}
    problems = []
    for page, info in sorted(parsed.items()):
        for link in info.links:
            parts = urlsplit(link)
            where = f"{page.relative_to(root)}: {link}"
            if parts.scheme or parts.netloc:
                problems.append(f"{where}: not a local link")
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if root not in target.parents and target != root:
                problems.append(f"{where}: outside the site")
            elif not target.is_file():
                problems.append(f"{where}: no such file")
            elif parts.fragment:
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"{where}: no element with that id")
    return problems


# --------------------------------------------------------------------------- browser
def chromium() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclasses.dataclass
class Rendered:
    page: str
    dom: str
    console: list[str]
    returncode: int
    stderr: str


def render(page: str | os.PathLike, screenshot: str | os.PathLike | None = None,
           size: str = "1280,1600", timeout: float = 60) -> Rendered:
    """``page`` loaded in headless Chromium: the DOM after load (or, with
    ``screenshot``, a PNG of the first ``size`` pixels) and its console messages."""
    browser = chromium()
    assert browser is not None, "no chromium"
    url = Path(page).resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        cmd = [browser, "--headless", "--disable-gpu", "--no-first-run",
               "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={profile}",
               "--enable-logging=stderr", "--v=0", f"--window-size={size}"]
        if os.geteuid() == 0:
            cmd.append("--no-sandbox")
        cmd += [f"--screenshot={screenshot}"] if screenshot else ["--dump-dom"]
        p = subprocess.run(cmd + [url], capture_output=True, text=True, timeout=timeout,
                           env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": "disabled:"})
    console = [m.group(1) for line in p.stderr.splitlines() if (m := CONSOLE.search(line))]
    return Rendered(str(page), p.stdout, console, p.returncode, p.stderr)


def render_all(pages: list[Path], jobs: int = 2) -> list[Rendered]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(render, pages))


def page_problems(r: Rendered) -> list[str]:
    """What is wrong with one rendered page of the report."""
    name = Path(r.page).name
    problems = [f"{name}: console: {m}" for m in r.console]
    if r.returncode != 0:
        problems.append(f"{name}: chromium exited {r.returncode}")
    dom = r.dom
    if "<main>" not in dom or "</main>" not in dom or not re.search(r"<h1>.+?</h1>", dom, re.S):
        problems.append(f"{name}: no <main> with an <h1> in the rendered DOM")
    if "/certificates/" in Path(r.page).as_posix() and "could not be read" not in dom \
            and "No case records" not in dom:
        if dom.count("<svg") < 1:
            problems.append(f"{name}: no plot (svg element) in the rendered DOM")
    return problems


def main(argv: list[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--links-only", action="store_true", help="no browser, links only")
    args = ap.parse_args(argv)
    root = Path(args.site)
    pages = sorted(root.rglob("*.html"))
    problems = link_problems(root)
    if args.links_only:
        for p in problems:
            print(p)
        print(f"{len(pages)} pages, {len(problems)} broken links")
        return 1 if problems else 0
    rendered = render_all(pages, args.jobs)
    for r in rendered:
        problems += page_problems(r)
    svgs = sum(r.dom.count("<svg") for r in rendered)
    for p in problems:
        print(p)
    print(f"{len(pages)} pages rendered ({sum(1 for p in pages if 'laws' in p.parts)} laws, "
          f"{sum(1 for p in pages if 'certificates' in p.parts)} certificates), {svgs} svg "
          f"plots, {sum(len(r.console) for r in rendered)} console messages, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
