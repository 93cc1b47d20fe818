"""HTML pages from the templates in ``templates/`` (jinja2, every value escaped; the
inline SVG figures are the only markup passed through). Each function returns one
page's text; ``root`` is the relative path from the page back to the site's top."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from verify.report.certificate import fmt

TEMPLATES = Path(__file__).resolve().parent / "templates"
VERDICT_CLASS = {"proved": "v-proved", "proved-bounded": "v-bounded", "tested": "v-tested",
                 "statistical": "v-tested",
                 "unknown": "v-unknown", "refuted": "v-refuted", "error": "v-error"}


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=True, undefined=jinja2.ChainableUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["fmt"] = fmt
    env.filters["svg"] = lambda text: Markup(text) if text else ""
    env.globals["verdict_class"] = lambda v: VERDICT_CLASS.get(str(v), "v-other")
    return env


_ENV: jinja2.Environment | None = None


def render(template: str, root: str, **context: Any) -> str:
    global _ENV
    if _ENV is None:
        _ENV = _environment()
    return _ENV.get_template(template).render(root=root, **context)


def stylesheet() -> str:
    return (TEMPLATES / "style.css").read_text(encoding="utf-8")


def law(entry: Mapping, certificates_by_kernel: Mapping[str, list]) -> str:
    return render("law.html", "../", law=entry, title=entry["id"],
                  certificates=certificates_by_kernel)


def certificate(view: Mapping) -> str:
    return render("certificate.html", "../", c=view,
                  title=f"{view['kernel']} · {view['backend']}")


def unreadable(entry: Mapping) -> str:
    return render("unreadable.html", "../", entry=entry, title=entry["file"])


def papers(entries: list) -> str:
    return render("papers.html", "", papers=entries, title="papers")


def gpu(records: Mapping, plots: Mapping, directory: str) -> str:
    return render("gpu.html", "", g=records, plots=plots, directory=directory,
                  title="GPU measurements")
