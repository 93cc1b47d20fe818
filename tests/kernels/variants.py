"""Helpers for kernel tests that certify a broken variant of a kernel: which cases it
fails, and a spec narrowed to some cases."""


def variant_failures(spec, run, dtypes=("float32",)) -> list[str]:
    """Names of the cases a variant ``run`` of ``spec`` fails in ``dtypes`` (numbers
    only, laws not checked); asserts the variant's certificate fails."""
    import dataclasses
    from impls.spec import backend
    from verify.certification.certify import certify
    variant = dataclasses.replace(spec, run=run, planted={})
    cert = certify(variant, backend(), seed=0, dtypes=list(dtypes), check_laws=False)
    assert not cert["pass"], "the variant passed certification"
    failing = [c["name"] for d in dtypes for c in cert["per_dtype"][d]["cases"]
               if not c["pass"]]
    assert failing, "the certificate failed, but on no case: " + "; ".join(cert["notes"])
    return failing


def only_case(spec, prefix: str):
    """``spec.cases`` narrowed to the cases whose name starts with ``prefix``."""
    def cases(seed, which):
        chosen = [c for c in spec.cases(seed, which) if c.name.startswith(prefix)]
        assert chosen, f"no case named {prefix!r}"
        return chosen
    return cases
