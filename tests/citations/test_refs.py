"""Parsing <ref id="...">"quote"</ref> tags out of report markdown."""

import pytest

from deep_research.citations.refs import MAX_QUOTE_CHARS, parse_refs, replace_spans


def refs(md: str) -> list[tuple[str, str]]:
    return [(r.source_id, r.quote) for r in parse_refs(md).refs]


def problems(md: str) -> list[tuple[int, int, str]]:
    return [(p.line, p.column, p.message) for p in parse_refs(md).problems]


# --- well-formed refs ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "tag, sid",
    [
        ('<ref id="3">"The ferry runs hourly."</ref>', "3"),
        ("<ref id='3'>\"The ferry runs hourly.\"</ref>", "3"),
        ('<ref id=3>"The ferry runs hourly."</ref>', "3"),
        ('<ref id="src-7">"The ferry runs hourly."</ref>', "src-7"),
        ('<ref id="tavily:example.org/ferry">"The ferry runs hourly."</ref>', "tavily:example.org/ferry"),
        ('<ref id=src_7>"The ferry runs hourly."</ref>', "src_7"),
        ('<ref id = "12" >"The ferry runs hourly."</ref >', "12"),
        ('<ref\n  id="12">"The ferry runs hourly."</ref>', "12"),
        ('<REF ID="12">"The ferry runs hourly."</REF>', "12"),
        ('<ref id=" 12 ">"The ferry runs hourly."</ref>', "12"),
    ],
)
def test_id_forms(tag, sid):
    parsed = parse_refs(f"Ferries: {tag} More text.")
    assert parsed.problems == []
    assert [(r.source_id, r.quote) for r in parsed.refs] == [(sid, "The ferry runs hourly.")]


@pytest.mark.parametrize(
    "inner, quote",
    [
        ('"The ferry runs hourly."', "The ferry runs hourly."),
        ("'The ferry runs hourly.'", "The ferry runs hourly."),
        ("\u201cThe ferry runs hourly.\u201d", "The ferry runs hourly."),
        ("\u2018The ferry runs hourly.\u2019", "The ferry runs hourly."),
        ("\u201eDie Fähre fährt stündlich.\u201c", "Die Fähre fährt stündlich."),
        ("\u00abLe bac part toutes les heures.\u00bb", "Le bac part toutes les heures."),
        ("\u300c渡轮每小时一班。\u300d", "渡轮每小时一班。"),
        ("The ferry runs hourly.", "The ferry runs hourly."),
        ('  "The ferry runs hourly."  ', "The ferry runs hourly."),
        ("'It's the last ferry.'", "It's the last ferry."),
        ('"He called it \u201ca lifeline\u201d for the island."', "He called it \u201ca lifeline\u201d for the island."),
        ('"a < b and c > d"', "a < b and c > d"),
    ],
)
def test_quote_marks(inner, quote):
    parsed = parse_refs(f'See <ref id="1">{inner}</ref>.')
    assert parsed.problems == []
    assert [r.quote for r in parsed.refs] == [quote]


def test_several_refs_in_one_paragraph_keep_order_offsets_and_lines():
    md = (
        "# Ferries\n"
        "\n"
        'Service improved <ref id="1">"The ferry runs hourly."</ref> and fares fell\n'
        '<ref id="2">"Fares dropped by 10 percent."</ref><ref id="1">"Night sailings resumed."</ref>\n'
    )
    parsed = parse_refs(md)
    assert parsed.problems == []
    got = [(r.index, r.source_id, r.quote, r.line) for r in parsed.refs]
    assert got == [
        (0, "1", "The ferry runs hourly.", 3),
        (1, "2", "Fares dropped by 10 percent.", 4),
        (2, "1", "Night sailings resumed.", 4),
    ]
    for r in parsed.refs:
        assert md[r.start : r.end].startswith("<ref ") and md[r.start : r.end].endswith("</ref>")
    assert parsed.markdown == md


def test_quote_wrapped_onto_the_next_line():
    md = 'Service <ref id="1">"The ferry runs hourly\n   during the summer season."</ref> ok.'
    parsed = parse_refs(md)
    assert parsed.problems == []
    (r,) = parsed.refs
    assert r.quote == "The ferry runs hourly\n   during the summer season."
    assert r.line == 1
    assert md[r.start : r.end].endswith("</ref>")


def test_refs_in_code_are_text():
    md = (
        "Write citations as `<ref id=\"1\">\"quote\"</ref>` in the report.\n"
        "\n"
        "```markdown\n"
        '<ref id="2">"Inside a fence."</ref>\n'
        "```\n"
        "\n"
        "~~~\n"
        '<ref id="3">"Inside a tilde fence."</ref>\n'
        "~~~\n"
        "\n"
        "``<ref id=\"4\">\"double backticks\"</ref>``\n"
        'Real <ref id="5">"The ferry runs hourly."</ref>\n'
    )
    parsed = parse_refs(md)
    assert [(r.source_id, r.quote, r.line) for r in parsed.refs] == [("5", "The ferry runs hourly.", 12)]
    assert parsed.problems == []


def test_malformed_tags_inside_code_are_not_problems():
    md = "Example: `<ref id=\"1\">` opens a citation and `</ref>` closes it.\n"
    assert parse_refs(md).problems == []
    assert parse_refs(md).refs == []


def test_inline_code_inside_a_quote_is_kept():
    parsed = parse_refs('Run it <ref id="1">"Run `make check` before each release."</ref>')
    assert parsed.problems == []
    assert [r.quote for r in parsed.refs] == ["Run `make check` before each release."]


# --- malformed: reported with line and column, never dropped -----------------------------------
@pytest.mark.parametrize(
    "md, expected",
    [
        ('Text <ref>"No id here."</ref>',
         [(1, 6, "<ref> tag without an id attribute"), (1, 24, "closing </ref> without an opening tag")]),
        ('Text <ref id="">"Empty id."</ref>', [(1, 6, "<ref> tag with an empty id")]),
        ("Text <ref id=''>\"Empty id.\"</ref>", [(1, 6, "<ref> tag with an empty id")]),
        ('Text <ref id="  ">"Blank id."</ref>', [(1, 6, "<ref> tag with an empty id")]),
        ('Line one\nText <ref id="1">"No closing tag.\nMore text.',
         [(2, 6, "<ref> tag without a closing </ref>")]),
        ("Line one\n  stray </ref> here", [(2, 9, "closing </ref> without an opening tag")]),
        ('Text <ref id="1">"Quote marks never closed.</ref>',
         [(1, 6, '<ref id="1"> quote marks are not closed')]),
        ('Text <ref id="1">\u201cQuote marks never closed.</ref>',
         [(1, 6, '<ref id="1"> quote marks are not closed')]),
        ('Text <ref id="1">""</ref>', [(1, 6, '<ref id="1"> has no quote')]),
        ('Text <ref id="1"></ref>', [(1, 6, '<ref id="1"> has no quote')]),
        ('Text <ref id="1">   </ref>', [(1, 6, '<ref id="1"> has no quote')]),
        ('Text <ref id="1" "no closing bracket', [(1, 6, "unterminated <ref tag")]),
        ('Text <ref id="1"/> self-closed', [(1, 6, "<ref> tag without a closing </ref>")]),
        ('a\nb\nText <ref id="1">"Quote split\n\nby a blank line."</ref>',
         [(3, 6, "<ref> tag without a closing </ref>"), (5, 18, "closing </ref> without an opening tag")]),
    ],
)
def test_malformed_tags_are_problems(md, expected):
    parsed = parse_refs(md)
    assert parsed.refs == []
    assert [(p.line, p.column, p.message) for p in parsed.problems] == expected
    for p in parsed.problems:
        assert p.text
        line = md.split("\n")[p.line - 1]
        assert line[p.column - 1 :].startswith(p.text.split("\n")[0])


def test_nested_refs_report_the_outer_tag():
    md = 'Text <ref id="1">"Outer <ref id="2">"Inner."</ref> quote."</ref> end.'
    parsed = parse_refs(md)
    assert [(r.source_id, r.quote) for r in parsed.refs] == [("2", "Inner.")]
    assert [(p.column, p.message) for p in parsed.problems] == [
        (6, "<ref> tag without a closing </ref>"),
        (59, "closing </ref> without an opening tag"),
    ]


def test_good_refs_survive_next_to_bad_ones():
    md = (
        'A <ref id="1">"The ferry runs hourly."</ref>\n'
        'B <ref id="">"Empty id."</ref>\n'
        'C <ref id="2">"Fares dropped by 10 percent."</ref>\n'
        "D </ref>\n"
    )
    parsed = parse_refs(md)
    assert [r.source_id for r in parsed.refs] == ["1", "2"]
    assert [r.index for r in parsed.refs] == [0, 1]
    assert [(p.line, p.message) for p in parsed.problems] == [
        (2, "<ref> tag with an empty id"),
        (4, "closing </ref> without an opening tag"),
    ]


def test_problems_are_sorted_by_position():
    md = "x </ref>\n" 'y <ref id="">"a"</ref>\n' "z <ref>\"b\"</ref>\n"
    got = problems(md)
    assert got == sorted(got)
    assert [g[0] for g in got] == [1, 2, 3, 3]


def test_overlong_quote_is_a_problem():
    quote = "word " * (MAX_QUOTE_CHARS // 5 + 1)
    parsed = parse_refs(f'<ref id="1">"{quote.strip()}"</ref>')
    assert parsed.refs == []
    assert [p.message for p in parsed.problems] == [f'<ref id="1"> quote is longer than {MAX_QUOTE_CHARS} characters']
    assert len(parsed.problems[0].text) <= 120


def test_columns_count_from_one_after_crlf_lines():
    md = 'first line\r\nsecond <ref>"x"</ref>'
    ((line, col, _), _) = problems(md)
    assert line == 2
    assert md.split("\n")[1][col - 1 :].startswith("<ref>")


def test_tags_that_only_look_alike_are_ignored():
    md = "See <refs> and <reference> and <a href='#ref'>ref</a> and <preface>."
    parsed = parse_refs(md)
    assert parsed.refs == [] and parsed.problems == []


# --- known bugs ----------------------------------------------------------------------------
def test_lone_backtick_does_not_swallow_later_refs():
    md = (
        "Press the ` key to open the console.\n"
        "\n"
        'Service improved <ref id="1">"The ferry runs hourly."</ref>\n'
        "\n"
        "Then run `make` again.\n"
    )
    parsed = parse_refs(md)
    assert [r.source_id for r in parsed.refs] == ["1"] or parsed.problems


def test_fence_closed_by_a_longer_fence():
    md = "```\ncode\n````\n\n" 'Real <ref id="1">"The ferry runs hourly."</ref>\n'
    parsed = parse_refs(md)
    assert [r.source_id for r in parsed.refs] == ["1"] or parsed.problems


# --- replace_spans -------------------------------------------------------------------------
def test_replace_spans_applies_edits_in_offset_order():
    text = "alpha beta gamma delta"
    assert replace_spans(text, [(11, 16, "G"), (0, 5, "A")]) == "A beta G delta"
    assert replace_spans(text, []) == text
    assert replace_spans(text, [(5, 5, "!")]) == "alpha! beta gamma delta"
    assert replace_spans(text, [(0, len(text), "")]) == ""


def test_replace_spans_swaps_refs_for_markers():
    md = 'A <ref id="1">"x y z."</ref> and B <ref id="2">"p q r."</ref>.'
    parsed = parse_refs(md)
    out = replace_spans(md, [(r.start, r.end, f"[{r.index + 1}]") for r in parsed.refs])
    assert out == "A [1] and B [2]."


def test_ref_pattern_reads_quotes_as_the_per_character_pattern_did():
    # the quote part written per character with a look-ahead at each (the rule, spelled
    # out): the faster pattern finds the same refs with the same groups
    import random
    import re

    from deep_research.citations.refs import _REF

    head = _REF.pattern[:_REF.pattern.rindex("*\\s*>") + len("*\\s*>")]
    rule = re.compile(head + r"((?:(?!</?ref\b)[^\n]|\n(?![ \t]*\n))*?)</ref\s*>", re.I)
    pieces = ["<ref id=a>", "<ref id=\"b\" x='y'>", "</ref>", "</ref >", "</REF>", "<ref", "</refx>",
              "<", "\n", "\n\n", "\n \n", "x", " ", "q\"", "<refs>", "</ref x>", "<b>", "ref", "<REF ID=c>"]
    rng = random.Random(11)
    seen = 0
    for _ in range(5000):
        s = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        want = [(m.span(), m.groups()) for m in rule.finditer(s)]
        assert [(m.span(), m.groups()) for m in _REF.finditer(s)] == want, s
        seen += bool(want)
    assert seen > 500  # the inputs hold refs, not only broken markup


def test_an_attribute_named_with_an_underscore_is_read_and_ignored_like_any_other():
    """A model's ``<ref id="s1" source_id="s1">`` (its own attributes, ignored like report.md's
    ``check`` and ``note``) was no citation, reported as a tag "without a closing </ref>"."""
    parsed = parse_refs('Ferries <ref id="s1" source_id="s1" data.page=\'3\'>"The ferry runs hourly."</ref>.')
    assert [(r.source_id, r.quote) for r in parsed.refs] == [("s1", "The ferry runs hourly.")]
    assert parsed.problems == []


@pytest.mark.parametrize("tag", ['<ref id="1" page=3>', '<ref id="1" title="a > b">', '<ref id="1" note=>'])
def test_a_tag_whose_attributes_cannot_be_read_says_so(tag):
    """It was said to have no closing </ref>, which stood right after it."""
    parsed = parse_refs(f'Text {tag}"The ferry runs hourly."</ref> end.')
    assert parsed.refs == []
    assert parsed.problems[0].column == 6
    assert parsed.problems[0].message == ('<ref> tag whose attributes cannot be read (after the id only '
                                          'name="value" pairs may follow)'), parsed.problems
