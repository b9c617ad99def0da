"""Publishing: checked citations -> UI markdown, linked markdown, HTML, PDF, Word, audit files.

The publishing entry points live in :mod:`.publisher` and load on first use (PEP 562), so
``deep-research publish`` starts its PDF worker (:class:`.pdf.PdfWorker`) before the
citation checker, the templates and the markdown parsers are imported."""

from __future__ import annotations

_PUBLIC = ("FILES", "PublishResult", "detect_lang", "output_policy", "publish_report", "write_atomic")
__all__ = list(_PUBLIC)


def __getattr__(name: str):
    if name in _PUBLIC:
        from . import publisher

        return getattr(publisher, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
