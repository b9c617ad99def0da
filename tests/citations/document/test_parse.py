"""The report document: blocks, sections, code regions, refs and claims, parsed once."""

from __future__ import annotations

from deep_research.citations.document import parse

REF = '<ref id="a">"The pile gets hot."</ref>'

REPORT = f"""# Composting

Intro text {REF}.

## Method

Some text.

```md
## References
- not a heading: code
```

### Detail

> ## Quoted heading

    ## indented code, not a heading

Setext heading
--------------

## Sources

1. model-written list
"""


def test_blocks_have_kinds_spans_and_levels():
    doc = parse(REPORT)
    kinds = [(b.kind, b.level, b.depth) for b in doc.blocks]
    assert kinds[0] == ("heading", 1, 0)
    assert ("fence", 0, 0) in kinds and ("indented", 0, 0) in kinds
    heading = doc.blocks[0]
    assert REPORT[heading.start:heading.end] == "# Composting"
    fence = next(b for b in doc.blocks if b.kind == "fence")
    assert REPORT[fence.start:fence.end] == "```md\n## References\n- not a heading: code\n```"
    quoted = next(b for b in doc.blocks if b.kind == "heading" and b.depth == 1)
    assert REPORT[quoted.segments[0][0]:quoted.segments[0][1]] == "Quoted heading"
    setext = next(b for b in doc.blocks if b.setext)
    assert setext.level == 2 and REPORT[setext.start:setext.end] == "Setext heading\n--------------"


def test_sections_nest_and_skip_code_quotes_and_indented_code():
    doc = parse(REPORT)
    (top,) = doc.sections
    assert top.title == "Composting" and top.start == 0 and top.end == len(REPORT)
    assert [s.title for s in top.children] == ["Method", "Setext heading", "Sources"]
    method = top.children[0]
    assert [s.title for s in method.children] == ["Detail"]
    assert REPORT[method.start:method.end].startswith("## Method") and method.end == top.children[1].start
    titles = [s.title for s in doc.all_sections()]
    assert "References" not in titles and "Quoted heading" not in titles
    assert not any("indented" in t for t in titles)


def test_code_regions_refs_and_claims_carry_offsets():
    md = f"Text `<ref id=\"x\">\"no\"</ref>` and {REF}.\n\n```\n{REF}\n```\n"
    doc = parse(md)
    assert len(doc.refs) == 1 and md[doc.refs[0].start:doc.refs[0].end] == REF
    assert any(md[a:b].startswith("`<ref") for a, b in doc.code)
    (claim,) = doc.claims
    assert claim.ref_indexes == [0] and md[claim.start:claim.end].startswith("Text `")


def test_an_input_verified_findings_section_is_its_heading_and_list_only():
    md = ("# T\n\n## Verified findings\n\n- Old claim " + REF + " *(confidence: medium)*\n\n"
          "The report's own intro " + REF + ".\n\n## Body\n\nText.\n")
    doc = parse(md)
    assert doc.findings is not None
    assert md[doc.findings.start:doc.findings.end].startswith("## Verified findings\n\n- Old claim")
    assert "intro" not in md[doc.findings.start:doc.findings.end]
    assert len(doc.refs) == 1 and len(doc.ignored_refs) == 1  # the section's ref is not a citation
    assert doc.refs[0].line == 7  # lines of the file as given


def test_a_fenced_verified_findings_line_is_not_a_section():
    md = "# T\n\n```text\n## Verified findings\nkept\n```\n\nAfter " + REF + ".\n\n## Next\n"
    doc = parse(md)
    assert doc.findings is None and len(doc.refs) == 1




def test_block_at_finds_the_leaf_block_holding_a_position():
    doc = parse(REPORT)
    md = doc.markdown
    fenced = md.index("## References")
    assert doc.block_at(fenced).kind == "fence"
    assert doc.block_at(md.index("## indented")).kind == "indented"
    heading = doc.block_at(md.index("--------------"))  # a setext heading's underline
    assert heading.kind == "heading" and heading.setext and heading.level == 2
    assert doc.block_at(md.index("Some text") - 1) is None  # the blank line before it
    assert doc.block_at(md.index("Some text.") + 9).kind == "paragraph"


def test_without_refs_blanks_ref_tags_outside_code_only():
    md = (f'Text {REF} and `<ref id="b">"in code"</ref>` and <ref>"bad"</ref>.\n\n'
          '```\n<ref id="c">"fenced"</ref>\n```\n')
    doc = parse(md)
    plain = doc.without_refs()
    assert len(plain) == len(md) and plain.count("\n") == md.count("\n")  # offsets kept
    assert "pile" not in plain and '"bad"' in plain  # a malformed tag pair: its tags go, the words stay
    assert '<ref id="b">"in code"</ref>' in plain and '<ref id="c">"fenced"</ref>' in plain
    assert "<ref>" not in plain and plain.count("</ref>") == 2
    assert doc.without_refs(0, 4) == "Text"
    assert doc.markup()[0] == (doc.refs[0].start, doc.refs[0].end)
