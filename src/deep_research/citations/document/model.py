"""The report as one parsed document: what every check and renderer reads.

A report is markdown a model wrote, with ``<ref id="…">"quote"</ref>`` citations. It is
parsed once (:func:`deep_research.citations.document.parse`) into:

* **blocks** - the leaf blocks a CommonMark renderer sees (headings with their level,
  paragraphs, table-like paragraphs, fenced and indented code), each with its source span
  and the number of containers (block quotes, list items) around it;
* **sections** - the top-level headings and the text each one governs, nested by level; a
  heading inside code, a block quote or a list item starts no section;
* **code** - the regions a renderer shows literally (fenced blocks and code spans): what a
  ref or a heading inside them is not;
* **refs** and **problems** - the citations and the malformed ref markup, with offsets;
* **claims** - for every ref, the report text it supports (a claim unit), with offsets;
* **quoted** - the refs whose quoted words the sentence needs, so outputs show them.

Every offset is into :attr:`Document.markdown`, the text as given: nothing is re-parsed
after a section is removed or added; edits are spans applied when an output is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..claims import Claim
from ..mdscan import Blocks
from ..model import ParsedReport, Ref, RefProblem

_NOT_NEWLINE = re.compile(r"[^\n]")


@dataclass(frozen=True, slots=True)
class Block:
    """One leaf block. ``kind``: ``heading`` | ``paragraph`` | ``fence`` | ``indented``
    (a line of indented code: renderers disagree about indentation inside lists, so it is
    code for headings and sections but text for refs, see ``refs.code_regions``).
    ``start``/``end``: from the start of its first line to the end of its last line (line
    break excluded). ``segments``: its inline content, one (start, end) per line, block
    markers excluded (empty for fences). ``level``: a heading's level (1-6), else 0.
    ``depth``: containers around it (0: at the top level). ``table``: a paragraph a
    renderer with tables may read as a table."""

    kind: str
    start: int
    end: int
    segments: tuple[tuple[int, int], ...] = ()
    level: int = 0
    depth: int = 0
    table: bool = False
    setext: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    """A top-level heading and what it governs: from the start of the heading's line to
    the start of the next top-level heading of the same or a higher level (or the end).
    ``title``: the heading's text as written (a closing ``#`` sequence removed)."""

    heading: Block
    title: str
    start: int
    end: int
    children: tuple[Section, ...] = ()

    @property
    def level(self) -> int:
        return self.heading.level

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Document(ParsedReport):
    """A parsed report (see the module notes). It is a :class:`ParsedReport` (markdown,
    refs, problems), so code that reads refs reads it unchanged."""

    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)  # the top level; children nested
    code: list[tuple[int, int]] = field(default_factory=list)  # fenced blocks and code spans
    claims: list[Claim] = field(default_factory=list)  # in report order
    # Ref.index of the refs whose quoted words the sentence needs ("its core <ref>"typically
    # reaches 55 to 65 °C"</ref>."): every rendered output shows those words, then the marker
    quoted: frozenset[int] = frozenset()
    scan: Blocks | None = None  # the block scan itself (inline contexts, chunks): the output policy reads it
    # the report without its refs, code blanked (offsets kept): where claims were cut
    structure: str = ""
    # an input "Verified findings" section (built by code at an earlier publish, never
    # trusted): its refs and problems are not this report's, they are kept here
    findings: Section | None = None
    ignored_refs: list[Ref] = field(default_factory=list)
    ignored_problems: list[RefProblem] = field(default_factory=list)
    # sentence spans of ``structure`` by unit (start, end), cut once: the claims and the
    # uncited-statement check read the same units (see ``claims.unit_sentences``)
    sentence_spans: dict[tuple[int, int], list[tuple[int, int]]] = field(
        default_factory=dict, repr=False, compare=False)

    def all_sections(self) -> list[Section]:
        """Every section, depth first, in report order."""
        return [s for top in self.sections for s in top.walk()]

    def headings(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "heading"]

    def in_code(self, pos: int) -> bool:
        """Is ``pos`` inside a fenced block, a code span or indented code?"""
        import bisect

        k = bisect.bisect_right(self._code_starts, pos) - 1
        return k >= 0 and pos < self._code_all[k][1]

    @property
    def _code_all(self) -> list[tuple[int, int]]:
        cached = self.__dict__.get("_code_cache")
        if cached is None:
            spans = sorted(self.code + [(b.start, b.end) for b in self.blocks if b.kind == "indented"])
            cached = self.__dict__["_code_cache"] = spans
        return cached

    @property
    def _code_starts(self) -> list[int]:
        return [a for a, _ in self._code_all]

    def line_at(self, pos: int) -> int:
        """The 1-based line of the markdown that holds offset ``pos`` (``markdown.count("\\n", 0,
        pos) + 1``, without rescanning the report for every call)."""
        import bisect

        if pos < 0:
            return self.markdown.count("\n", 0, pos) + 1
        cached = self.__dict__.get("_newlines")
        if cached is None or cached[0] is not self.markdown:
            breaks = [m.start() for m in re.finditer("\n", self.markdown)]
            cached = self.__dict__["_newlines"] = (self.markdown, breaks)
        return bisect.bisect_left(cached[1], pos) + 1

    def title(self) -> Block | None:
        """The report's title: a level-1 ATX heading at the top level that is its first
        block (only blank lines before it)."""
        first = self.blocks[0] if self.blocks else None
        if (first is None or first.kind != "heading" or first.level != 1 or first.depth or first.setext
                or self.markdown[:first.start].strip()):
            return None
        return first

    def refs_in(self, start: int, end: int) -> list[Ref]:
        return [r for r in self.refs if start <= r.start and r.end <= end]

    def block_at(self, pos: int) -> Block | None:
        """The leaf block whose span (first line's start to last line's end) holds ``pos``;
        None between blocks (a blank line outside code)."""
        import bisect

        starts = self.__dict__.get("_block_starts")
        if starts is None:
            starts = self.__dict__["_block_starts"] = [b.start for b in self.blocks]
        k = bisect.bisect_right(starts, pos) - 1
        return self.blocks[k] if k >= 0 and pos <= self.blocks[k].end else None

    def markup(self) -> list[tuple[int, int]]:
        """The spans of every ref tag outside code, in order: refs and malformed ref markup,
        the input "Verified findings" section's included (tags, not words of the text)."""
        tags = [(r.start, r.end) for r in self.refs + self.ignored_refs]
        return sorted(tags + [(p.start, p.end) for p in self.problems + self.ignored_problems])

    def without_refs(self, start: int = 0, end: int | None = None) -> str:
        """``markdown[start:end]`` with every ref tag outside code (:meth:`markup`) blanked to
        spaces, line breaks and offsets kept; a ``<ref>`` inside code is text and stays."""
        end = len(self.markdown) if end is None else end
        out, pos = [], start
        for a, b in self.markup():
            if b <= pos or a >= end:
                continue
            a, b = max(a, pos), min(b, end)
            out += [self.markdown[pos:a], _NOT_NEWLINE.sub(" ", self.markdown[a:b])]
            pos = b
        out.append(self.markdown[pos:end])
        return "".join(out)
