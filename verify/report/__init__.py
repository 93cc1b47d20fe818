"""A static HTML report of the catalog and of a directory of certificates.

``write_site(out, laws, papers, certificates_dir)`` writes an index of the catalog by
property, a page per law, a page per certificate (with SVG plots made by matplotlib),
a page of the papers' claims and one stylesheet: plain files that open from disk, with
no server, no script and nothing fetched from the network. The modules, in the order
the data flows: ``collect`` (law entries and certificates read from their files, each
with its stale mark), ``plots`` (the SVG figures), ``pages`` (HTML from the templates
in ``templates/``, every value escaped), ``site`` (the files written). Nothing here
prints; the command line (``verify report``, ``verify all --report``) does.
"""
from verify.report.site import SiteSummary, write_site

__all__ = ["SiteSummary", "write_site"]
