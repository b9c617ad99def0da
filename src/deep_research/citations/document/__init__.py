"""The report, parsed once: blocks, sections, code regions, refs and claims with their
source offsets (see :mod:`.model`). Every check and renderer reads a :class:`Document`;
code-built sections are found and placed through it (:mod:`.sections`)."""

from .model import Block, Document, Section
from .parse import as_document, findings_section, heading_text, parse

__all__ = ["Block", "Document", "Section", "as_document", "findings_section", "heading_text", "parse"]
