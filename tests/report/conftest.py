"""A small report site shared by the report tests: a few laws checked here, two real
certificates (copied from a run of `verify certify`) rewritten with the current source
hashes, a stale one, a hostile one (markup and mathtext in its strings, a `compiled`
profile), a user's minimal one, a file that is not JSON, and the GPU measurement records
(copied from certificates/) that the GPU page shows."""
import copy
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
LAWS = ("max.associative", "mean.of_means", "online_softmax.associative",
        "online_softmax.no_rescale")
HOSTILE_KERNEL = "<script>alert(1)</script>"
HOSTILE_CASE = "$x$ <b>bold</b> & co"
COMPILED = {"target": "sm_90a", "instructions": [
    {"op": "ex2.approx.ftz.f32", "count": 12, "accuracy": "2 ulp"},
    {"op": "mma.sync.aligned.m16n8k16.f32.f16", "count": 4, "accuracy": "fp32 accumulate"}]}


def current(cert: dict) -> dict:
    """``cert`` with the hashes of the files as they are now (not stale)."""
    from verify.certification.sources import hash_sources
    hashed = hash_sources([f["path"] for f in cert["sources"]])
    return {**cert, "sources": hashed["files"], "source_hash": hashed["sha256"]}


def write(directory: Path, name: str, doc) -> None:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    (directory / name).write_text(text, encoding="utf-8")


@pytest.fixture(scope="session")
def small_site(tmp_path_factory):
    from verify import api
    from verify.decide.policy import CATALOG
    from verify.report import write_site
    results = [api.check(i, CATALOG.with_(floats=(i == "max.associative"))).to_json()
               for i in LAWS]
    certs = tmp_path_factory.mktemp("certificates")
    matmul = current(json.loads((DATA / "matmul.triton-interpreter.json").read_text()))
    topk = current(json.loads((DATA / "topk.triton-interpreter.json").read_text()))
    write(certs, "matmul.triton-interpreter.json", matmul)
    write(certs, "topk.triton-interpreter.json", topk)
    stale = copy.deepcopy(matmul)
    stale["sources"][0]["sha256"] = "0" * 64     # written before that file changed
    stale["source_hash"] = "0" * 64
    write(certs, "matmul.stale.json", stale)
    hostile = copy.deepcopy(matmul)
    hostile["kernel"] = HOSTILE_KERNEL
    hostile["summary"] = "<img src=x onerror=alert(1)>"
    hostile["per_dtype"]["float32"]["cases"][0]["name"] = HOSTILE_CASE
    hostile["compiled"] = COMPILED
    write(certs, "hostile <name>.json", hostile)
    write(certs, "mine.json", {"kernel": "mine", "pass": False, "rho": "inf",
                               "laws": {"not.a.catalog.law": {"verdict": "proved", "ok": True}}})
    write(certs, "broken.json", "{ not json")
    for record in ("instructions.gpu.json", "bench.gpu.json", "bench.gpu.2.json",
                   "crosscheck.gpu.json"):           # the GPU page's measurement records
        write(certs, record, (DATA / record).read_text())
    out = tmp_path_factory.mktemp("site")
    summary = write_site(out, results, None, certs)
    return {"out": out, "summary": summary, "results": results, "certificates": certs,
            "laws": LAWS, "compiled": COMPILED, "hostile_case": HOSTILE_CASE}
