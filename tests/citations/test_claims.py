"""Claim checks by code: the report sentence a ref supports against the ref's quote(s).

Quotes are real sentences from Python's documentation (Debian python3.11-doc); claims
are how a report writer would restate them, right or wrong."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from deep_research.citations.claims import (
    ClaimStatus,
    check_claim,
    claims_for_refs,
    prepare_claim,
    split_sentences,
    stem,
)
from deep_research.citations.refs import parse_refs

S, U, C = ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "report.md"

# --- quotes from the Python 3.11 docs -----------------------------------------------------
AIFC = ("This gives a frame size of 4 bytes (2*2), and a second’s worth occupies 2*2*44100 bytes "
        "(176,400 bytes).")
CD = ("For example, CD quality audio has a sample size of two bytes (16 bits), uses two channels "
      "(stereo) and has a frame rate of 44,100 frames/second.")
SLOTS = ("Reading instance variables is 35% faster with __slots__ (as measured with Python 3.10 on an "
         "Apple M1 processor).")
LZMA_MEM = "With preset 9 for example, the overhead for an LZMACompressor object can be as high as 800 MiB."
LZMA_RANGE = "This should be between 4 KiB and 1.5 GiB (inclusive)."
SLOW = "Callbacks taking longer than 100 milliseconds are logged."
SOCKETS = ("I’m only going to talk about INET (i.e. IPv4) sockets, but they account for at least 99% "
           "of the sockets in use.")
RFC = "A sensible default value recommended by the RFC is 0.25 (250 milliseconds)."
PEP604 = "PEP 604 union types using |, before support for this was added to Python 3.10."
SYSLOG = ("The optional ident keyword argument is a string which is prepended to every message, and "
          "defaults to sys.argv[0] with leading path components stripped.")
TERMNAME = ("Return the value of the environment variable TERM, as a bytes object, truncated to 14 "
            "characters.")
ENUM = "Ordered comparisons between enumeration values are not supported."
DESCR = "Accessing the function through the class dictionary does not invoke __get__()."
ISINSTANCE = "You’re encouraged to double-check the type of ann using isinstance() before further examination."
CGI = ("This is easy to use but not much good if you are expecting megabytes to be uploaded — in that "
       "case, use the FieldStorage class instead which is much more flexible.")
ADPCM = ("If you use the ADPCM coder to build network packets and you want your protocol to be stateless "
         "(i.e. to be able to tolerate packet loss) you should not only transmit the data but also the state.")
ANNOT_GET = ("Since the class may or may not have annotations defined, best practice is to call the get "
             "method on the class dict.")
TIMEOUT = ("If the floating-point timeout argument is present and positive, it specifies the maximum wait "
           "time in seconds before returning.")
EXOTIC = ("Note that some exotic or malformed type objects may not have a __dict__ attribute, so for extra "
          "safety you may also wish to use getattr() to access __dict__.")
CERTAIN = ("If you’re certain the object you’re examining is one of these three specific objects, you may "
           "simply use o.__annotations__ to get at the object’s annotations dict.")
BASENAME = "If the basename does not contain a period, this will be the empty string."
PICKLES = ("Very large pickles (approximately 32 MiB+, though it depends on the OS) may raise a ValueError "
           "exception.")
ZIP64 = ("It can handle ZIP files that use the ZIP64 extensions (that is ZIP files that are more than 4 GiB "
         "in size).")
OCTAL = "As in Standard C, up to three octal digits are accepted."
PAX = ("Changed in version 3.8: The modern pax (POSIX.1-2001) format is now used instead of the legacy GNU "
       "format for archives created with format=\"tar\".")
UNICODE_RANGE = "The valid range for the argument is from 0 through 1,114,111 (0x10FFFF in base 16)."


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def assert_unsupported(result, rule: str) -> None:
    assert result.status is U, result
    assert result.rule == rule, result
    assert result.note


def assert_not_unsupported(result) -> None:
    assert result.status is not U, result


# --- numbers --------------------------------------------------------------------------------
def test_changed_digit():
    r = check("A second’s worth of this audio occupies 176,401 bytes.", AIFC)
    assert_unsupported(r, "number")
    assert "176,401" in r.note or "176401" in r.note


def test_the_report_example_129_vs_128_kilobytes():
    r = check("The limit is at least 129 kilobytes.", "The limit is 128 kilobytes.")
    assert_unsupported(r, "number")
    assert "129" in r.note and "128" in r.note


@pytest.mark.parametrize("claim", [
    "A second’s worth occupies 2*2*44100 bytes (176400 bytes).",
    "A second’s worth occupies 2*2*44100 bytes (176 400 bytes).",
    "A second’s worth occupies 2*2*44100 bytes (176\u202f400 bytes).",  # narrow no-break space
    "A second’s worth occupies 2*2*44100 bytes (176\u00a0400 bytes).",
])
def test_thousands_separators(claim):
    assert check(claim, AIFC).status is S


def test_large_numbers_with_separators_and_words():
    assert check("The valid range for the argument is from 0 through 1114111.", UNICODE_RANGE).status is S
    # "goes" is not in the quote: a paraphrase the code cannot show, left to the judge
    assert check("The valid range goes from 0 through 1114111.", UNICODE_RANGE).status is C
    assert_unsupported(check("The valid range goes from 0 through 1,114,112.", UNICODE_RANGE), "number")
    assert check("CD audio has a frame rate of 44.1 thousand frames/second.", CD).status is not U


@pytest.mark.parametrize("claim", [
    "Reading instance variables is 35 percent faster with __slots__.",
    "Reading instance variables is 35 % faster with __slots__.",
    "Reading instance variables is 35 per cent faster with __slots__.",
])
def test_percentages_written_differently(claim):
    assert check(claim, SLOTS).status is S


def test_percentage_changed_or_turned_into_points():
    assert_unsupported(check("Reading instance variables is 45% faster with __slots__.", SLOTS), "number")
    assert_unsupported(check("Reading instance variables is 35 percentage points faster.", SLOTS), "number")


def test_unit_changed_is_unsupported():
    r = check("The overhead for an LZMACompressor object can be as high as 800 KiB.", LZMA_MEM)
    assert_unsupported(r, "number")
    assert "800 KiB" in r.note and "800 MiB" in r.note
    assert_unsupported(check("Callbacks taking longer than 100 seconds are logged.", SLOW), "number")
    assert_unsupported(check("The value is truncated to 14 bytes.", TERMNAME), "number")


def test_binary_and_decimal_prefixes_and_spelled_units_agree():
    assert check("The overhead can be as high as 800 megabytes with preset 9.", LZMA_MEM).status is not U
    assert check("Callbacks taking longer than 100 ms are logged.", SLOW).status is S


def test_dropped_unit_is_no_number_error():
    assert_not_unsupported(check("Callbacks taking longer than 100 are logged.", SLOW))


def test_added_number():
    r = check("Accessing the function through the class dictionary does not invoke __get__() since Python 3.2.",
              DESCR)
    assert_unsupported(r, "number")
    assert "3.2" in r.note


def test_versions():
    assert_unsupported(check("Support for | union types was added to Python 3.1.", PEP604), "number")
    assert check("Support for this was added to Python v3.10.", PEP604).status is not U
    assert check("Changed in v3.8: the modern pax format is now used instead of the legacy GNU format.",
                 PAX).status is not U
    # a claim version less precise than the quote's is not flagged, and not proven either:
    # "Changed in version 3.6" says 3.6.0 had it, "Changed in version 3.6.2" does not
    assert check("Python 3.11 fixed it.", "Python 3.11.2 fixed it.").status is C
    assert check("Changed in version 3.6: The file parameter accepts a path-like object.",
                 "Changed in version 3.6.2: The file parameter accepts a path-like object.").status is C
    assert check("Python 3.11.2 fixed it.", "Python 3.11.2 fixed it.").status is S


def test_index_is_a_number_not_a_footnote():
    r = check(SYSLOG.replace("sys.argv[0]", "sys.argv[1]"), SYSLOG)
    assert_unsupported(r, "number")


def test_number_words():
    assert check("CD quality audio has a sample size of 2 bytes and uses 2 channels.", CD).status is S
    assert_unsupported(check("CD quality audio uses three channels.", CD), "number")
    assert_unsupported(check("As in Standard C, up to nine octal digits are accepted.", OCTAL), "number")
    assert check("As in Standard C, up to 3 octal digits are accepted.", OCTAL).status is S
    # quote words a writer turns into digits
    assert check("CPython 3.11 runs this benchmark 2x faster.", "CPython 3.11 runs this benchmark twice as fast.").status \
        is not U


def test_ranges():
    assert check("It should be 4 KiB to 1.5 GiB.", LZMA_RANGE).status is S
    assert check("It should be 4\u20131.5 GiB.", LZMA_RANGE).status is not U
    assert_unsupported(check("It should be between 4 KiB and 2.5 GiB.", LZMA_RANGE), "number")


def test_bounds_and_approximations():
    assert check("Reading instance variables is more than 30% faster with __slots__.", SLOTS).status is S
    assert_unsupported(check("Reading instance variables is at least 40% faster with __slots__.", SLOTS), "number")
    assert_unsupported(check("INET sockets account for at least 99.5% of the sockets in use.", SOCKETS), "number")
    # a bound is loosened only against an exact figure: the quote's own bound must be repeated
    assert_unsupported(check("IPv4 sockets account for more than 90% of the sockets in use.", SOCKETS), "number")
    assert check("The RFC recommends a default of about 260 milliseconds.", RFC).status is not U
    assert_unsupported(check("The RFC recommends a default of about 400 milliseconds.", RFC), "number")
    # a bound in the other direction than the quote's
    assert_unsupported(check("It handles ZIP files of not more than 4 GiB.", ZIP64), "number")


def test_list_markers_footnotes_and_frame_dates_are_not_claims():
    assert check("3. Callbacks taking longer than 100 milliseconds are logged [2].", SLOW).status is S
    assert check("- Callbacks taking longer than 100 milliseconds are logged\u00b9.", SLOW).status is S
    framed = check("As of 2024, callbacks taking longer than 100 milliseconds are logged.", SLOW)
    assert framed.status is C  # not a number error, but not confirmed either
    assert_unsupported(check("Callbacks taking longer than 100 milliseconds are logged as of 2024.", SLOW),
                       "number")


def test_a_superscript_after_a_digit_is_a_power_not_a_footnote():
    # fresh12 er0476: "2\u00b3\u00b2 - 1" was shown supported by a quote saying "2\u2076\u2074 - 1" (both read "2 - 1")
    refs = "Each set of references consist of 2\u2076\u2074 - 1 unique references."
    assert check("Each set of references consists of 2\u00b3\u00b2 - 1 unique references.", refs).status is not S
    assert check("Each set of references consist of 2\u2076\u2074 - 1 unique references.", refs).status is S
    assert check("Each set of references consist of 2^64 - 1 unique references.", refs).status is S
    light = "Light travels at about 3\u00d710\u2078 m/s in a vacuum, and (n+1)\u00b2 grows fast\u00b9."
    assert check("Light travels at about 3\u00d710\u2079 m/s in a vacuum.", light).status is not S
    assert check("Light travels at about 3\u00d710\u2078 m/s in a vacuum.", light).status is S
    assert check("Light travels at about 3\u00d710 m/s in a vacuum.", light).status is not S


# --- polarity -------------------------------------------------------------------------------
def test_negation_removed():
    r = check("Ordered comparisons between enumeration values are supported.", ENUM)
    assert_unsupported(r, "negation")
    assert_unsupported(check("Accessing the function through the class dictionary invokes __get__().", DESCR),
                       "negation")
    assert_unsupported(check("Temporary files are indeed removed when the process exits.",
                             "Temporary files are not removed when the process exits."), "negation")
    r = check("Changed in version 3.9: the function still strips whitespaces from stderr.",
              "Changed in version 3.9: The function no longer strips whitespaces from stderr.")
    assert_unsupported(r, "negation")
    assert "no longer" in r.note
    assert_unsupported(check("Formatted bytes literals are.", "Formatted bytes literals are not."), "negation")


def test_negation_added():
    assert_unsupported(check("You’re encouraged not to double-check the type of ann using isinstance().",
                             ISINSTANCE), "negation")
    assert_unsupported(check("The FieldStorage class is never more flexible.", CGI), "negation")
    assert_unsupported(check("The basename cannot be the empty string.", "The basename can be the empty string."),
                       "negation")
    assert_unsupported(check("Accessing the function through the class dictionary fails to invoke __get__().",
                             "Accessing the function through the class dictionary invokes __get__()."), "negation")


def test_negation_reworded_on_both_sides_passes():
    assert_not_unsupported(check("Enumeration values do not support ordered comparisons.", ENUM))
    assert_not_unsupported(check("Going through the class dictionary doesn't invoke __get__().", DESCR))


def test_negation_in_a_part_of_the_quote_the_claim_does_not_use():
    assert_not_unsupported(check("The FieldStorage class is much more flexible.", CGI))
    assert_not_unsupported(check("IPv4 sockets account for at least 99% of the sockets in use.", SOCKETS))


def test_not_only_but_also_is_no_negation():
    r = check("To keep the protocol stateless, you should transmit both the data and the state.", ADPCM)
    assert_not_unsupported(r)


def test_double_negation_and_hedges_are_not_flagged():
    claim = "Best practice is to call the get method on the class dict, since a class does not necessarily have annotations."
    assert_not_unsupported(check(claim, ANNOT_GET))
    assert_not_unsupported(check("Callbacks taking longer than 100 milliseconds do not go unlogged.", SLOW))
    assert_not_unsupported(check("Ordered comparisons between enumeration values are not possible.", ENUM))


# --- near copies ----------------------------------------------------------------------------
def test_antonym():
    r = check(TIMEOUT.replace("maximum", "minimum"), TIMEOUT)
    assert_unsupported(r, "near_copy:antonym")
    assert "minimum" in r.note and "maximum" in r.note
    assert_unsupported(check("The method decreases the reference count.", "The method increases the reference count."),
                       "near_copy:antonym")


def test_order():
    assert_unsupported(check(TIMEOUT.replace("before returning", "after returning"), TIMEOUT), "near_copy:order")


def test_quantifier():
    assert_unsupported(check(EXOTIC.replace("some exotic", "all exotic"), EXOTIC), "near_copy:quantifier")


def test_modal():
    r = check(CERTAIN.replace("you may simply", "you must simply"), CERTAIN)
    assert_unsupported(r, "near_copy:modal")
    assert "must" in r.note and "may" in r.note


def test_entity_swap():
    assert_unsupported(check(DESCR.replace("__get__()", "__set__()"), DESCR), "near_copy:entity")
    assert_unsupported(check(SOCKETS.replace("IPv4", "IPv6"), SOCKETS), "near_copy:entity")
    assert_unsupported(check(SLOTS.replace("Apple M1", "Intel M1"), SLOTS), "near_copy:entity")


def test_words_swapping_places_are_no_substitution():
    quote = "The cannot be located or loaded error names the package."
    assert_not_unsupported(check("The cannot be loaded or located error names the package.", quote))
    assert_not_unsupported(check("It sets the minimum and maximum sizes.", "It sets the maximum and minimum sizes."))


# --- paraphrases that must pass ------------------------------------------------------------
@pytest.mark.parametrize("claim,quotes", [
    ("This will be the empty string if the basename does not contain a period.", [BASENAME]),
    ("According to the Python documentation, callbacks taking longer than 100 milliseconds are logged.", [SLOW]),
    ("The documentation notes that callbacks taking longer than 100 milliseconds are logged.", [SLOW]),
    ("Callbacks taking longer than 100 milliseconds are logged, as the asyncio docs explain.", [SLOW]),
    ("Callbacks that take longer than 100 milliseconds get logged.", [SLOW]),
    ("Callbacks that took longer than 100 milliseconds were logged.", [SLOW]),
    ("CALLBACKS TAKING LONGER THAN 100 MILLISECONDS ARE LOGGED!", [SLOW]),
    ("Very large pickles may raise a ValueError exception.", [PICKLES]),
    ("CD quality audio has a frame rate of 44,100 frames/second, and a second’s worth occupies 176,400 bytes.",
     [CD, AIFC]),
])
def test_paraphrases_are_not_unsupported(claim, quotes):
    r = check_claim(claim, quotes)
    assert r.status is not U, r


def test_confident_support_for_copies_and_close_rewordings():
    assert check(SLOW, SLOW).rule == "copy"
    assert check("Callbacks that take longer than 100 milliseconds are logged.", SLOW).status is S
    r = check("CD quality audio has a sample size of 2 bytes, and a second’s worth occupies 2*2*44100 bytes.",
              CD, AIFC)
    assert r.status is S and r.rule == "proof"
    # dropping "quality" from "CD quality audio" changes what is claimed: not shown
    assert check("CD audio has a sample size of 2 bytes.", CD).status is C


def test_claims_adding_content_are_left_unchecked():
    r = check("Callbacks taking longer than 100 milliseconds are logged and then silently discarded by asyncio.",
              SLOW)
    assert r.status is C
    assert r.note.startswith("not in its quotes:") and "silently" in r.note


def test_no_claim():
    for claim in ("", "   ", "According to the docs:", "The documentation notes that"):
        r = check(claim, SLOW)
        assert r.status is S and r.rule == "no_claim", (claim, r)


def test_markdown_in_quotes_and_claims():
    r = check("**Callbacks** taking longer than `100` milliseconds are [logged](https://docs.python.org/x).",
              "*Callbacks* taking longer than 100 milliseconds are logged.")
    assert r.status is S


def test_deterministic_and_no_quotes():
    a = [check(TIMEOUT.replace("maximum", "minimum"), TIMEOUT) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    assert check("Callbacks are logged.").status is C


def test_degenerate_input_finishes(tmp_path):
    # 60 KB of one character or one short pattern: no super-linear behaviour
    for claim, quote in [("1," * 30000, "1," * 1000), ("not " * 15000, "not " * 500), ("a" * 60000, "a" * 2000),
                         ("e.g. " * 12000, "x"), ("According to " * 5000, "y"), ("|" * 60000, "|")]:
        assert check_claim(claim, [quote]).status in (S, U, C)
    md = "Text <ref id=\"a\">\"Quote.\"</ref>, " * 2000 + "\n" + "| " * 20000 + "\n" + "- " * 20000
    assert len(claims_for_refs(md, parse_refs(md).refs)) == 2000


def test_literal_check_on_degenerate_copies_is_linear():
    # a claim the copy rule proves goes on to the "*"/"_" literal check; a long word run with
    # a stray "_", or many emphasis openers without closers, took 14.8 s / 2.7 s for 30 KB
    # (quadratic patterns); now each is one linear scan
    for claim in ["The value " + "x" * 60000 + " is set, _", "The value is set" + " *a" * 20000 + "."]:
        t = time.process_time()
        assert check_claim(claim, [claim]).status is S
        assert time.process_time() - t < 5, claim[:40]


# --- stems and sentences --------------------------------------------------------------------
def test_light_stems():
    assert stem("returns") == stem("returned") == stem("returning") == stem("return")
    assert stem("processes") == stem("processed") == stem("process")
    assert stem("copies") == stem("copied") == stem("copy")
    assert stem("was") == stem("is") == stem("be")
    assert stem("higher") != stem("high")


def test_split_sentences_keeps_abbreviations_and_decimals():
    text = "E.g. Python v2.1 and 3.5 are old, i.e. unsupported. Dr. Smith agrees! 中文句子。第二句"
    spans = [text[a:b] for a, b in split_sentences(text)]
    assert spans == ["E.g. Python v2.1 and 3.5 are old, i.e. unsupported.", "Dr. Smith agrees!", "中文句子。",
                     "第二句"]


def test_prepare_claim_strips_frames_and_markers():
    assert prepare_claim("1. According to the manual, X is on by default.") == "X is on by default."
    assert prepare_claim("The Python docs state that x is on.") == "x is on."
    assert prepare_claim("X is on (see the documentation).") == "X is on ."
    assert "PEP 475" in prepare_claim("X is retried (see PEP 475 for the rationale).")


# --- claims of a report ---------------------------------------------------------------------
def claims(md: str):
    parsed = parse_refs(md)
    assert not parsed.problems
    return parsed, claims_for_refs(md, parsed.refs)


def test_several_refs_in_one_sentence():
    md = ('Reading instance variables is 35% faster with `__slots__` <ref id="a">"Reading instance variables '
          'is 35% faster with __slots__."</ref>, and slow callbacks are logged <ref id="b">"' + SLOW + '"</ref>, '
          'as the docs explain.\n')
    parsed, cs = claims(md)
    assert [c.text for c in cs] == ["Reading instance variables is 35% faster with __slots__",
                                    "and slow callbacks are logged, as the docs explain."]
    assert [c.ref_indexes for c in cs] == [[0], [1]]
    for c in cs:
        assert md[c.start:c.end].startswith(c.text.split()[0])
        assert check_claim(c.text, [parsed.refs[i].quote for i in c.ref_indexes]).status is not U


def test_ref_after_the_period_supports_the_sentence_before():
    md = f'Slow callbacks are logged. <ref id="a">"{SLOW}"</ref> The RFC value is 0.25 <ref id="b">"{RFC}"</ref>.'
    _, cs = claims(md)
    assert [c.text for c in cs] == ["Slow callbacks are logged.", "The RFC value is 0.25."]


def test_adjacent_refs_share_one_claim_checked_against_both_quotes():
    md = (f'CD quality audio has a sample size of 2 bytes, and a second’s worth occupies 2*2*44100 bytes '
          f'<ref id="a">"{CD}"</ref>, <ref id="b">"{AIFC}"</ref>.\n')
    parsed, cs = claims(md)
    assert len(cs) == 1 and cs[0].ref_indexes == [0, 1]
    assert check_claim(cs[0].text, [parsed.refs[i].quote for i in cs[0].ref_indexes]).status is S


def test_inline_quote_is_part_of_the_claim():
    md = 'A hot pile sanitises itself: its core <ref id="b">"typically reaches 55 to 65 °C"</ref>.\n'
    _, cs = claims(md)
    assert cs[0].text == "A hot pile sanitises itself: its core typically reaches 55 to 65 °C."
    md2 = 'The balance shows in the smell: <ref id="t">"A pile that smells of ammonia has too much nitrogen"</ref>.'
    _, cs2 = claims(md2)
    assert cs2[0].text == "The balance shows in the smell."


def test_list_items_and_ordered_lists():
    md = (f"Findings:\n\n- Slow callbacks are logged <ref id=\"a\">\"{SLOW}\"</ref>\n"
          f"- Ordered comparisons of enum values are not supported <ref id=\"b\">\"{ENUM}\"</ref>\n"
          f"1. The RFC value is 0.25 <ref id=\"c\">\"{RFC}\"</ref>\n   which is 250 ms.\n")
    _, cs = claims(md)
    assert [c.text for c in cs] == ["Slow callbacks are logged", "Ordered comparisons of enum values are not supported",
                                    "The RFC value is 0.25 which is 250 ms."]
    md2 = f"- <ref id=\"a\">\"{SLOW}\"</ref>\n-   2. <ref id=\"b\">\"{ENUM}\"</ref>\n"
    parsed, cs2 = claims(md2)
    assert [c.text for c in cs2] == ["", ""]
    assert [c.start for c in cs2] == [r.start for r in parsed.refs]


def test_table_cells():
    md = ("| Material | Role | Source |\n|---|---|---|\n"
          f"| Callbacks | logged when slow | <ref id=\"a\">\"{SLOW}\"</ref> |\n"
          f"| Enum | comparisons unsupported <ref id=\"b\">\"{ENUM}\"</ref> | x |\n")
    parsed, cs = claims(md)
    assert [c.text for c in cs] == ["", "comparisons unsupported"]
    r = check_claim(cs[0].text, [parsed.refs[0].quote])
    assert r.status is S and r.rule == "no_claim"


def test_headings_lose_their_numbers():
    md = f"## 2.1 Slow callbacks are logged <ref id=\"a\">\"{SLOW}\"</ref>\n\nText.\n"
    _, cs = claims(md)
    assert cs[0].text == "Slow callbacks are logged"


def test_cjk_sentences():
    md = ('中文资料给出同样的比例建议：<ref id="zh">"厨余和落叶按大约一比三的体积比例混合，效果最好。"</ref>'
          '另一句话说明温度<ref id="zh">"堆肥中心温度可达六十度。"</ref>。\n')
    _, cs = claims(md)
    assert [c.text for c in cs] == ["中文资料给出同样的比例建议", "另一句话说明温度。"]


@pytest.mark.parametrize("claim, quote, status", [
    # a claim that copies its quote, Chinese numerals and all, was grey ("not in its quotes: 一, 三")
    ("厨余和落叶按大约一比三的体积比例混合，效果最好。", "厨余和落叶按大约一比三的体积比例混合，效果最好。", S),
    ("每个小部件平均重三公斤", "每个小部件平均重三公斤。", S),
    ("小部件在一九五零年发明", "小部件在一九五零年发明。", S),
    ("一些人喜欢茶", "一些人喜欢茶。", S),
    ("每个小部件平均重3公斤", "每个小部件平均重三公斤。", S),
    # ... and a changed numeral is caught as a number (it was grey too)
    ("每个小部件平均重四公斤", "每个小部件平均重三公斤。", U),
    ("厨余和落叶按大约一比四的体积比例混合，效果最好。", "厨余和落叶按大约一比三的体积比例混合，效果最好。", U),
])
def test_a_claim_reads_chinese_numerals_as_its_quote_does(claim, quote, status):
    assert check_claim(claim, [quote]).status is status


def test_emphasis_links_and_code_are_stripped():
    md = (f"**Callbacks** taking longer than [100 ms](https://docs.python.org/3/library/asyncio-dev.html) "
          f"are `logged` <ref id=\"a\">\"{SLOW}\"</ref>.\n")
    parsed, cs = claims(md)
    assert cs[0].text == "Callbacks taking longer than 100 ms are logged."
    assert check_claim(cs[0].text, [parsed.refs[0].quote]).status is S


def test_abbreviations_and_decimals_do_not_split_a_claim():
    md = f"E.g. the RFC recommends 0.25, i.e. 250 ms <ref id=\"a\">\"{RFC}\"</ref>.\n"
    _, cs = claims(md)
    assert cs[0].text == "E.g. the RFC recommends 0.25, i.e. 250 ms."


def test_example_report():
    md = EXAMPLE.read_text(encoding="utf-8")
    parsed = parse_refs(md)
    cs = claims_for_refs(md, parsed.refs)
    assert sorted(i for c in cs for i in c.ref_indexes) == list(range(len(parsed.refs)))
    by_first = {c.ref_indexes[0]: c for c in cs}
    results = {k: check_claim(c.text, [parsed.refs[i].quote for i in c.ref_indexes]) for k, c in by_first.items()}
    for c in cs:
        assert "<ref" not in c.text and "</ref" not in c.text
        assert c.start <= parsed.refs[c.ref_indexes[0]].start <= c.end
    # the table cells state their facts in their quotes' words: proven
    cells = [k for k, c in by_first.items() if c.text.startswith(("Paper filters", "Shred them"))]
    assert len(cells) == 2 and all(results[k].status is ClaimStatus.SUPPORTED for k in cells)
    # the deliberately altered quote is caught by the quote check (it is not on the page);
    # no claim of the example is a false alarm of the rules
    assert [k for k, r in results.items() if r.status is U] == []
    inline = next(c for c in cs if "The centre of a hot pile typically" in c.text)
    assert "typically reaches 55 to 65 °C" in inline.text
    assert results[inline.ref_indexes[0]].status is not U


def test_a_label_before_the_claim_is_a_frame():
    quote = "The default encoding for Python source code is UTF-8."
    assert check_claim("Evidence: the docs say that the default encoding for Python source code is UTF-8",
                       [quote]).status is ClaimStatus.SUPPORTED
    assert check_claim("Key finding: the default encoding for Python source code is UTF-16",
                       [quote]).status is ClaimStatus.UNSUPPORTED


def test_a_negation_said_by_a_word_of_its_own_is_not_a_dropped_negation():
    quote = ["If a timeout occurs, the request is not retried."]
    # "stops ... from being retried" says the "not" in a verb: not a misstatement, not proven
    r = check_claim("A timeout stops the request from being retried.", quote)
    assert r.status is ClaimStatus.UNCHECKED and "stops" in r.note
    # the dropped negation without such a word is still caught
    r = check_claim("If a timeout occurs, the request is retried.", quote)
    assert r.status is ClaimStatus.UNSUPPORTED and r.rule == "negation"


# --- flags only what code can prove (issue 25): correct paraphrases the rules once flagged,
# beside the altered claim each rule must still catch -------------------------------------------
def test_a_names_number_glued_in_the_quote_is_not_flagged():
    assert_not_unsupported(check("A headache is a potential symptom of COVID-19.",
                                 "We concluded that headache is a common nonrespiratory symptom of COVID19."))
    assert_not_unsupported(check("Neuropilin-1 facilitates SARS-CoV-2 cell entry.",
                                 "Thus, NRP1 could explain the enhanced tropism and spreading of SARSCoV2."))
    assert_not_unsupported(check("BRCA 1 mutation carriers face a higher risk.",
                                 "BRCA1 mutation carriers face a higher risk."))


def test_a_names_other_number_is_still_flagged():
    assert_unsupported(check("UTF-16 is the default encoding of source files.",
                             "UTF-8 is the default encoding of source files."), "number")
    # the glued letters must be able to stand for the name joined to the number: "\u03b11"
    # does not state Cox-1 - but the quote gives Cox no other number either, so the claim is
    # not proven wrong (issue 25: a flag rests on proof) and stays grey, never supported
    r = check("Cox-1 antitrypsin inhibits the infection.", "\u03b11-AT inhibits the infection.")
    assert r.status is C and "no quote gives cox another number" in r.note, r
    assert_unsupported(check("Cox-1 antitrypsin inhibits the infection.",
                             "Cox-2 antitrypsin inhibits the infection."), "number")


def test_a_date_given_in_parts_is_not_flagged():
    quotes = ("Foxtel will be airing the episodes in Australia from March 4th.",
              "Season 2 is due out on Netflix on March 6th, 2019.")
    assert_not_unsupported(check("It aired on March 4, 2019, in Australia.", *quotes))
    assert_not_unsupported(check("The study found antibodies as early as the week ending Feb. 23, 2020.",
                                 "We identified seropositive samples as early as in the week ending February 23, 2020."))
    assert_not_unsupported(check("Federal officials expect the variant to dominate by March 2021.",
                                 "The modeled trajectory shows rapid growth in early 2021, becoming the "
                                 "predominant variant in March."))


def test_a_date_the_quotes_contradict_or_lack_is_still_flagged():
    quotes = ("Foxtel will be airing the episodes in Australia from March 4th.",
              "Season 2 is due out on Netflix on March 6th, 2019.")
    assert_unsupported(check("It aired on March 5, 2019, in Australia.", *quotes), "number")
    assert_unsupported(check("It was released on vinyl on November 25, 2016.",
                             "Their 1990 recording will be released on vinyl on November 25."), "number")
    assert_unsupported(check("The study found antibodies as early as the week ending Feb. 24, 2020.",
                             "We identified seropositive samples as early as in the week ending February 23, 2020."),
                       "number")


def test_ordinal_word_and_number_words():
    assert_not_unsupported(check("The 2nd law of thermodynamics applies statistically.",
                                 "The second law applies statistically."))
    assert_unsupported(check("The 3rd law of thermodynamics applies statistically.",
                             "The second law applies statistically."), "number")
    # "five thirty-second ads" is five ads of thirty seconds, not 35
    assert_not_unsupported(check("Walmart will air five ads.", "Walmart will air five thirty-second ads in all."))
    assert_unsupported(check("Walmart will air six ads.", "Walmart will air five thirty-second ads in all."), "number")
    assert_not_unsupported(check("The catalyst shows stable activity over several hundred hours.",
                                 "The catalyst shows no degradation after more than 500 hours of operation."))


def test_a_name_the_quote_writes_otherwise_is_no_swap():
    quote = ("The government had already approved the vaccine for emergency use for frontline workers at risk "
             "of contracting Covid-19.")
    assert_not_unsupported(check("The government approved use of the covid19 vaccine.", quote))
    # one name for another between the same words is still a swap
    assert_unsupported(check("By default, time.gmtime() is used for the conversion.",
                             "By default, time.localtime() is used for the conversion."), "near_copy:entity")


def test_negation_reaching_a_relative_clause_or_past_a_quotation_mark():
    quote = ("So what the study found is that there is no U.S. locality where minimum wage earners can find a "
             "modest two-bedroom home that will rent for 30% or less of their income.")
    assert_not_unsupported(check("At the minimum wage, you can't rent a modest two-bedroom home anywhere.", quote))
    assert_not_unsupported(check('Carbon dioxide is not "a primary contributor to the global warming".',
                                 "EPA chief Scott Pruitt says carbon dioxide is not a primary contributor to global "
                                 "warming."))
    # a plain positive statement still proves the added negation wrong
    assert_unsupported(check("Under make installcheck, the TAP tests do not start servers of their own.",
                             "The TAP tests will start test servers even when you say make installcheck."), "negation")


def test_not_until_states_when_not_never():
    quotes = ("Opened on May 24, 1883, the Brooklyn Bridge was the first fixed crossing across the East River.",)
    assert_not_unsupported(check("The bridge did not open until 1883.", *quotes))
    # without "until" the claim denies what the quote states
    assert_unsupported(check("The Brooklyn Bridge did not open.", *quotes), "negation")


def test_a_contraction_written_without_its_apostrophe_is_a_negation():
    quote = "Cuomo warns the US won't have enough hospital beds for the coronavirus pandemic."
    assert_not_unsupported(check("The US doesnt have enough hospital beds for the pandemic.", quote))
    assert_unsupported(check("The US doesnt have enough hospital beds for the pandemic.",
                             "The US has enough hospital beds for the pandemic."), "negation")


def test_digits_with_a_glued_letter_and_dates_in_digits():
    quote = "For instance, on x86, it is possible to map 2M and even 1G pages using entries in the page tables."
    assert_not_unsupported(check("On x86, page table entries can map pages of 2 megabytes.", quote))
    assert_unsupported(check("On x86, page table entries can map pages of 4 megabytes.", quote), "number")
    quotes = ("JR Motorsports | 1/25/2019", "Michael Annett will drive the No. 1 Chevrolet.")
    assert_not_unsupported(check("On January 25, 2019, it was announced that Annett would drive the No. 1 Chevrolet.",
                                 *quotes))
    assert_unsupported(check("On January 26, 2019, it was announced that Annett would drive the No. 1 Chevrolet.",
                             *quotes), "number")
    # a claim's month and year against a date in digits of that month (rsyslog's "(2009-11-06)")
    quote = "Written by Rainer Gerhards (2009-11-06)"
    assert_not_unsupported(check("Rainer Gerhards wrote the message parser article in November 2009.", quote))
    assert_not_unsupported(check("Gerhards wrote it in November 2009.", "Written on 11/06/2009."))
    assert_unsupported(check("Gerhards wrote it in November 2010.", quote), "number")
    assert_unsupported(check("Gerhards wrote it in December 2009.", quote), "number")


def test_negation_shapes_that_deny_nothing_or_agree():
    # a quotation mark does not end the clause its negation covers
    assert_not_unsupported(check('Caches aren\'t cleared after each test, since no separate "test cache" is used.',
                                 'Caches are not cleared after each test because, unlike databases, a separate '
                                 '"test cache" is not used.'))
    # "far from X" is "not X"
    assert_not_unsupported(check("Optimizing userland is far from mandatory.",
                                 "Optimizing userland is by far not mandatory."))
    # a leading "Without X, ..." states what holds in X's absence
    assert_not_unsupported(check("Without a tag.gpgSign configuration variable, GPG-signing of tags is disabled.",
                                 "GPG-signing of tags is controlled by the tag.gpgSign configuration variable if it "
                                 "exists, or disabled otherwise."))
    # "not ... without" is a double negation
    assert_not_unsupported(check("Any public API that is moved or renamed will get backwards-compatible aliases.",
                                 "All the public APIs will not be moved or renamed without providing "
                                 "backwards-compatible aliases."))
    # the same "non-" words, reordered
    assert_not_unsupported(check("Instances of non-atomic types are tracked, while instances of atomic types are not.",
                                 "Instances of atomic types aren't tracked and instances of non-atomic types are."))


def test_negation_flips_around_those_shapes_are_still_caught():
    assert_unsupported(check("Optimizing userland is mandatory.", "Optimizing userland is by far not mandatory."),
                       "negation")
    assert_unsupported(check("A separate test cache is not used for the tests.",
                             "A separate test cache is used for the tests."), "negation")
    assert_unsupported(check("Instances of non-atomic types are tracked by the collector.",
                             "Instances of atomic types are tracked by the collector."), "near_copy:antonym")


def test_a_question_and_a_name_variant_next_to_the_aligned_name():
    assert_not_unsupported(check("Her hair started to fall out because of the dye.",
                                 "Didn't all your hair fall out because of the dye?"))
    assert_unsupported(check("Her hair started to fall out because of the dye.",
                             "None of her hair fell out because of the dye."), "negation")
    quote = "SARS-CoV-2 infection of K18-hACE2-transgenic mice leads to severe lung inflammation."
    assert_not_unsupported(check("SARS-CoV-2 infection of human ace2-transgenic mice leads to severe lung inflammation.",
                                 quote))
    assert_unsupported(check("SARS-CoV-2 infection of K18-hDPP4-transgenic mice leads to severe lung inflammation.",
                             quote), "near_copy:entity")


def test_a_names_number_inside_a_glued_name_or_acronym():
    assert_not_unsupported(check("Kir7.1 is coupled to the melanocortin-4 receptor in the hypothalamus.",
                                 "Ligand-induced coupling of MC4R to the channel Kir7.1 in the hypothalamus."))
    assert_not_unsupported(check("Alpha-1 antitrypsin inhibits the infection.", "\u03b11-AT inhibits the infection."))
    assert_not_unsupported(check("Quercetin inhibits angiotensin-converting enzyme 2 activity.",
                                 "Quercetin inhibits rhACE2 activity."))
    assert_unsupported(check("Quercetin inhibits angiotensin-converting enzyme 3 activity.",
                             "Quercetin inhibits rhACE2 activity."), "number")


def test_neither_nor_is_one_negation():
    # Bash reference manual: "neither A nor B" says what "A and B are not" says
    quote = "Word splitting and filename expansion are not performed."
    assert_not_unsupported(check("In a variable assignment, neither word splitting nor filename expansion is performed.",
                                 quote))
    assert_unsupported(check("In a variable assignment, word splitting and filename expansion are performed.", quote),
                       "negation")


def test_a_negation_another_quote_states_is_not_added():
    quotes = ("If a command is not found, the child process created to execute it returns a status of 127.",
              "If a command is found but is not executable, the return status is 126.")
    assert_not_unsupported(check("Bash returns 127 for a command that is not found and 126 for one that is found "
                                 "but cannot be executed.", *quotes))
    # a negation no quote states is still added
    assert_unsupported(check("If a command is found but is not executable, the return status is not 126.", quotes[1]),
                       "negation")
    # an implicit negation elsewhere in the quote's clause ("ignored") states nothing of the word
    assert_unsupported(check("ROWID values that were rolled back are ignored and can never be reused.",
                             "ROWID values that were rolled back are ignored and can be reused."), "negation")


def test_no_x_except_y_is_only_y():
    quote = "No reads or writes occur except within a transaction."
    assert_not_unsupported(check("Reads and writes happen only inside a transaction.", quote))
    assert_not_unsupported(check("Reads and writes occur only within a transaction.", quote))
    # without "only" the dropped "No" still reverses the quote
    assert_unsupported(check("Reads or writes occur except within a transaction.", quote), "negation")


def test_a_negation_in_what_is_compared_against_denies_nothing():
    # a baseline after "compared with" (SciFact evidence) and the comparand after "than"
    quote = ("Compared with patients with no hypoglycemia, patients with single or multiple episodes had a "
             "graded increase in risk of dementia.")
    assert_not_unsupported(check("Hypoglycemia increases the risk of dementia.", quote))
    assert_not_unsupported(check("There are more jobs in the solar industry than in coal mining.",
                                 "Today's energy jobs are in solar, not coal."))
    # outside the comparison the negation still counts
    assert_unsupported(check("Patients with hypoglycemia had a graded increase in risk of dementia.",
                             "Patients with hypoglycemia had no increase in risk of dementia."), "negation")
    assert_unsupported(check("Today's energy jobs are in coal.", "Today's energy jobs are in solar, not coal."),
                       "negation")


def test_an_opposite_beside_its_own_opposite_in_the_quote_proves_no_reversal():
    # CovidFact evidence: the quote states both directions ("increasing dose decreased efficacy")
    quote = ("Our simulation showed that increasing pathogen challenge dose decreased vaccine efficacy, "
             "while variance in susceptibility also affected vaccine protection.")
    assert_not_unsupported(check("Simulations predict reduced vaccine efficacy at a higher challenge dose.", quote))
    # one direction alone, reversed by the claim, is still caught
    assert_unsupported(check("Simulations predict increased vaccine efficacy at a higher challenge dose.",
                             "Our simulation showed that a higher pathogen challenge dose reduced vaccine efficacy."),
                       "antonym")


def test_a_round_bound_before_a_implied_by_a_quote_bound():
    # PolitiHop: "more than a million" / "over 1.1 million"
    quote = "The number of people given legal permanent residence in the U.S. was still over 1.1 million in 2017."
    assert_not_unsupported(check("The U.S. grants legal permanent residence to more than a million people a year.",
                                 quote))
    for wrong in ("more than two million", "more than a billion"):
        assert_unsupported(check(f"The U.S. grants legal permanent residence to {wrong} people a year.", quote),
                           "number")
    assert_unsupported(check("The U.S. grants legal permanent residence to more than a million people a year.",
                             "The number of people given legal permanent residence was over 900,000."), "number")


def test_a_participle_describing_a_noun_is_not_the_negated_verb():
    # PolitiHop: "commonly used prescription drugs" is no use the quote's "never been used" denies
    quote = "March-in rights have never been used to negotiate a lower price for prescription drugs."
    assert_not_unsupported(check("The government can negotiate the price of many commonly used prescription drugs.",
                                 quote))
    assert_unsupported(check("March-in rights have been used to negotiate a lower price for prescription drugs.",
                             quote), "negation")
    assert_unsupported(check("March-in rights were often used to negotiate a lower price for drugs.", quote),
                       "negation")


def test_a_names_number_with_the_next_word_glued_on_in_the_quote():
    # CovidFact evidence scraped without a space: "COVID-19moved"
    quote = "Wastewater contained viral RNA days after students who had all tested negative for COVID-19moved in."
    assert_not_unsupported(check("Students had all tested negative for COVID-19 before moving in.", quote))
    assert_unsupported(check("Students had all tested negative for COVID-18 before moving in.", quote), "number")


def test_a_negation_said_by_a_prefix_scarcity_or_too_to():
    # HealthVer / Climate-FEVER evidence
    quote = "Symptoms in children are mainly mild or even asymptomatic."
    assert_not_unsupported(check("Children have mild symptoms or no symptoms at all.", quote))
    assert_not_unsupported(check("Droughts have not changed over the past 60 years.",
                                 "Other research suggests that there has been little change in drought over the "
                                 "past 60 years."))
    assert_not_unsupported(check("The tropics are already too hot to efficiently grow rice grain.",
                                 "Rice exposed to temperatures above 35 degrees during flowering produces no grain."))
    # the plain statement against each is still a flip
    assert_unsupported(check("Symptoms in children are not mild.", quote), "negation")
    assert_unsupported(check("Droughts have not changed over the past 60 years.",
                             "Other research suggests that there has been a little change in drought over the "
                             "past 60 years."), "negation")
    assert_unsupported(check("Rice exposed to temperatures above 35 degrees during flowering produces grain.",
                             "Rice exposed to temperatures above 35 degrees during flowering produces no grain."),
                       "negation")


def test_over_a_period_may_be_the_period_followed():
    # CovidFact: "over 8 months" is the span the study followed, not "more than 8 months"
    quote = "The cross-sectional data describe the dynamics of SARS-CoV-2 memory B cells over 8 months."
    assert_not_unsupported(check("Memory B cells to SARS-CoV-2 were followed for up to 8 months.", quote))
    assert_unsupported(check("Memory B cells to SARS-CoV-2 were followed for up to 6 months.", quote), "number")
    assert_unsupported(check("Memory B cells to SARS-CoV-2 were followed for up to 8 months.",
                             "The data describe memory B cells for more than 8 months."), "number")


def test_leaving_a_thing_alone_is_not_changing_it():
    # git-reset(1): "--mixed: Resets the index but not the working tree"
    quote = "Resets the index but not the working tree and reports what has not been updated."
    assert_not_unsupported(check("This mode resets the index while leaving the working tree alone.", quote))
    assert_unsupported(check("This mode resets the index and the working tree.", quote), "negation")


def test_a_number_the_quote_writes_another_way():
    pairs = [("The drug caused a 2-fold increase in risk.", "The drug caused a twofold increase in risk."),
             ("Levels were 2 times higher.", "Levels were twice as high."),
             ("A phase 3 trial showed benefit.", "A phase III trial showed benefit."),
             ("The type-1 interferon system is silenced.", "Type I interferons are silenced."),
             ("Symptoms resolved within 2 weeks.", "Symptoms resolved within 14 days."),
             ("Walpole led Great Britain for two decades.", "Walpole's run of 20 years as Prime Minister."),
             ("50% of the patients recovered.", "Half of the patients recovered."),
             ("The film ran 120 minutes.", "The film ran 2 hours."),
             ("He scored ten goals in the 2019–20 season.", "He scored ten goals in the 2019-2020 season."),
             ("The patients were followed for a median of 5 years.", "Median follow-up was 5.0 years."),
             ("The risk fell by 30%.", "The risk fell by 30.0%."),
             ("About 40 percent of voters agreed.", "Some 41 percent of voters agreed."),
             ("The 20th anniversary was in 2015.", "The twentieth anniversary was celebrated in 2015.")]
    for claim, quote in pairs:
        assert_not_unsupported(check(claim, quote))
    # another number in the same forms is still flagged
    wrong = [("The drug caused a 3-fold increase in risk.", "The drug caused a twofold increase in risk."),
             ("A phase 2 trial showed benefit.", "A phase III trial showed benefit."),
             ("Symptoms resolved within 3 weeks.", "Symptoms resolved within 14 days."),
             ("Walpole led Great Britain for three decades.", "Walpole's run of 20 years as Prime Minister."),
             ("25% of the patients recovered.", "Half of the patients recovered."),
             ("The film ran 90 minutes.", "The film ran 2 hours."),
             ("He scored ten goals in the 2019–21 season.", "He scored ten goals in the 2019-2020 season."),
             ("The patients were followed for a median of 6 years.", "Median follow-up was 5.0 years."),
             ("About 50 percent of voters agreed.", "Some 41 percent of voters agreed."),
             ("The 30th anniversary was in 2015.", "The twentieth anniversary was celebrated in 2015."),
             ("Python 3.1 added the feature.", "Python 3.10 added the feature."),
             ("Git stores 3 copies.", "Git stores the third copy.")]
    for claim, quote in wrong:
        assert_unsupported(check(claim, quote), "number")


def test_an_abbreviation_of_the_quotes_words_is_no_swap():
    quote = "Arsenal Football Club is a professional football club based in London that plays in the Premier League."
    assert_not_unsupported(check("Arsenal F.C. is a top team in the Premier League.", quote))
    assert_not_unsupported(check("Arsenal F.C. is a professional club.", quote))
    assert_unsupported(check("Arsenal R.C. is a professional football club based in London that plays in the Premier "
                             "League.", quote), "near_copy:entity")


def test_season_end_looks_at_the_numbers_just_before_alone():
    """A claim of many "2019-20" spans: each two-digit end looks at the two tokens before it,
    not at every number of the claim (a 96 KB claim took 7.9 s of CPU, quadratic)."""
    from deep_research.citations.claims.analysis import _analyse_claim, _analyse_quote
    from deep_research.citations.claims.numbers import _season_end

    class Counted(list):
        visits = 0

        def __iter__(self):
            for x in super().__iter__():
                Counted.visits += 1
                yield x

        def __getitem__(self, i):
            Counted.visits += 1
            return super().__getitem__(i)

    claim = _analyse_claim(" ".join(["2019-20"] * 2000) + ".")
    quote = _analyse_quote("The 2019-2020 season.")
    ends = [c for c in claim.numbers if c.raw == "20"]
    claim.numbers = Counted(claim.numbers)
    assert all(_season_end(c, claim, quote.numbers) for c in ends)
    assert Counted.visits < 40 * len(ends)  # a few per end; comparing with all: 4,000 per end
    assert not _season_end(ends[0], claim, _analyse_quote("The 2021-2022 season.").numbers)


def test_an_owner_turned_round_is_not_shown_supported():
    """"The handler's logger" read back as "the handler of the logger": the analysis drops
    "'s" and "of", so the copy rule showed the swapped owner supported. The same fact said
    the other way ("the logger of the handler") is not flagged either."""
    q = ["The handler's logger is closed first."]
    for wrong in ("The handler of the logger is closed first.", "The table of the owner can drop it."):
        quotes = q if "handler" in wrong else ["The table's owner can drop it."]
        r = check_claim(wrong, quotes)
        assert r.status is not ClaimStatus.SUPPORTED, (wrong, r)
        assert "roles swapped" in r.note, r
    back = check_claim("The handler's logger is closed first.", ["The logger of the handler is closed first."])
    assert back.status is not ClaimStatus.SUPPORTED, back
    assert check_claim("The handler's logger is closed first.", q).status is ClaimStatus.SUPPORTED
    assert check_claim("The logger of the handler is closed first.", q).status is not ClaimStatus.UNSUPPORTED
    assert check_claim("The value of the setting is read at start.",
                       ["The value of the setting is read at start."]).status is ClaimStatus.SUPPORTED


def test_a_copy_cut_inside_a_pair_is_not_shown_supported():
    """A copy that stops after the first part of "both A and B" (unseen QAGS summary:
    "possessing both a firearm." for "... both a firearm and an illegal drug") has every
    word of its quote in order and was shown supported as a copy. The whole pair, a pair
    the quote does not complete, and "both" as a pronoun are untouched."""
    q = ["He was accused of possessing both a firearm and an illegal drug, marijuana."]
    cut = check_claim("He was accused of possessing both a firearm.", q)
    # (a bare "and" in a quote is no clause mark either: the gap it opens is inside a clause)
    assert cut.status is ClaimStatus.UNCHECKED and ("cut short" in cut.note or "inside a clause" in cut.note), cut
    either = check_claim("You can connect through either the file.", ["You can connect through either the file "
                                                                      "or the socket."])
    assert either.status is ClaimStatus.UNCHECKED, either
    whole = check_claim("He was accused of possessing both a firearm and an illegal drug.", q)
    assert whole.status is ClaimStatus.SUPPORTED, whole
    assert check_claim("The value lies between 1 and 5.", ["The value lies between 1 and 5."]).status \
        is ClaimStatus.SUPPORTED
    assert check_claim("Both servers restart.", ["Both servers restart."]).status is ClaimStatus.SUPPORTED


def test_a_scale_word_after_the_number_and_a_negated_like_are_no_contradiction():
    """Dialogue summaries (SummEdits SAMSum, seen after its measurement): "5 mln bucks" is
    5 million (a scale word after the number, as "bn" glued on), and "he doesn't like being my
    roommate" negates "like", not "roommate" ("like" is a stop word elsewhere). Another number,
    "m" (metres), and a "likes" the claim states against the quote stay flagged."""
    mln = ["if we're late we may loose 5 mln bucks"]
    assert check_claim("We may lose 5 million if we are late.", mln).status is not ClaimStatus.UNSUPPORTED
    assert check_claim("We may lose 6 million if we are late.", mln).status is ClaimStatus.UNSUPPORTED
    assert check_claim("The pipe is 5 million long.", ["The pipe is 5 m long."]).status is ClaimStatus.UNSUPPORTED
    q = ["Sam: he was saying he doesn't like being my roommate ."]
    said = check_claim("He was saying something about being my roommate.", q)
    assert said.status is not ClaimStatus.UNSUPPORTED, said
    assert check_claim("He likes being my roommate.", q).status is ClaimStatus.UNSUPPORTED


def test_a_verb_stating_absence_restates_a_negation():
    """Apache manual pairs (seen after their one measurement): "removes the limit" is "no
    limit", "keep the server from thrashing" is "does not thrash", "leave X out of" is "NOT
    make X part of", "decompresses" is the quote's "uncompress". Each was flagged; a claim
    that states the opposite stays flagged."""
    grey = [("Setting the value to 0 removes the limit.", ["A value of 0 means no limit."]),
            ("A small site might lower it so the server does not thrash.",
             ["Sites with limited memory may need to decrease it to keep the server from thrashing."]),
            ("The developers decided to leave suEXEC out of the default installation.",
             ["It was the decision of the team to NOT make suEXEC part of the default installation."]),
            ("The example decompresses the gzip output from example.com.",
             ["This example will uncompress gzip-compressed output from example.com."])]
    for claim, quotes in grey:
        r = check_claim(claim, quotes)
        assert r.status is not ClaimStatus.UNSUPPORTED, (claim, r)
    flagged = [("A value of 0 sets a limit.", ["A value of 0 means no limit."]),
               ("The developers made suEXEC part of the default installation.",
                ["The team decided to NOT make suEXEC part of the default installation."]),
               ("The example compresses the output from example.com.",
                ["This example will uncompress the output from example.com."])]
    for claim, quotes in flagged:
        assert check_claim(claim, quotes).status is ClaimStatus.UNSUPPORTED, claim


def test_larger_than_and_smaller_than_are_bounds_like_more_and_less_than():
    """"greater than 2,147,483,647" for "larger than 2147483647" was flagged (the quote's bound
    was not read as one); a bound of the other direction or other digits is still caught."""
    q = ["When delay is larger than 2147483647 or less than 1, the delay will be set to 1."]
    ok = check_claim("A delay greater than 2,147,483,647 or smaller than 1 is set to 1.", q)
    assert ok.status is not ClaimStatus.UNSUPPORTED, ok
    for wrong in ("A delay smaller than 2,147,483,647 is set to 1.", "A delay greater than 2,147,483,648 is set to 1."):
        r = check_claim(wrong, q)
        assert r.status is ClaimStatus.UNSUPPORTED and r.rule == "number", (wrong, r)


# --- red team (issue 25): a pronoun or preposition swapped in a near copy -----------------------
@pytest.mark.parametrize(("quote", "claim"), [
    ("Once you\u2019ve created a virtual environment, you may activate it.",
     "Once you\u2019ve created a virtual environment, it may activate you."),
    ("If the module name is followed by as, then the name following as is bound directly to the imported module.",
     "If the module name is followed by as, then the name following as is bound directly in the imported module."),
    ("Zswap evicts pages from compressed cache on an LRU basis to the backing swap device when the compressed pool "
     "reaches its size limit.",
     "Zswap evicts pages from compressed cache on an LRU basis at the backing swap device when the compressed pool "
     "reaches its size limit."),
    # a code name in another case
    ("Calling getinfo() for a name not currently contained in the archive will raise a KeyError.",
     "Calling getinfo() for a name not currently contained in the archive will raise a keyerror."),
    ("Set SECURE_SSL_REDIRECT to True, so that requests over HTTP are redirected to HTTPS.",
     "Set secure_ssl_redirect to True, so that requests over HTTP are redirected to HTTPS."),
])
def test_a_swapped_pronoun_or_preposition_or_a_recased_code_name_is_not_proven(quote, claim):
    r = check_claim(claim, [quote])
    assert r.status is C and any(x in r.note for x in ("where its quote says", "case-sensitive", "compared as written")), r
    assert check_claim(quote, [quote]).status is S


def test_a_function_word_a_quote_writes_so_stays_proven():
    quotes = ["Users with SSDs as swap devices can extend the life of the device.",
              "Users of SSDs can extend the life of the device."]
    # the first quote, a near copy, says "with" there; the second writes "Users of SSDs"
    assert check_claim("Users of SSDs can extend the life of the device.", quotes).status is S
    assert check_claim("Users of SSDs as swap devices can extend the life of the device.", quotes).status is S


def test_https_is_not_the_plural_of_http():
    q = "Set SECURE_SSL_REDIRECT to True, so that requests over HTTP are redirected to HTTPS."
    r = check_claim("Set SECURE_SSL_REDIRECT to True, so that requests over HTTPS are redirected to HTTP.", [q])
    assert r.status is not S, r
    assert stem("HTTPS") != stem("HTTP") and stem("URLs") == stem("URL")


def test_and_for_or_in_a_near_copy_is_not_proven():
    q = "Sent before or after a model\u2019s save() method is called."
    r = check_claim("Sent before and after a model\u2019s save() method is called.", [q])
    assert r.status is C and '"and" where' in r.note, r


def test_the_same_value_in_another_notation_is_not_flagged():
    """".5" / "0.5", "1.5" / "1.50", "1.4 billion" / "1.4bn", "20 cm" / "0.2 m" state one value:
    the number rule flagged them (a flag must prove a mismatch). Other values in the same
    notations, and "Python 3.1" / "Python 3.10" (two releases), are still flagged."""
    same = [("The ratio is .5 for this mode.", "The ratio is 0.5 for this mode."),
            ("The ratio is 0.5 for this mode.", "The ratio is .5 for this mode."),
            ("The factor is 1.5 here.", "The factor is 1.50 here."),
            ("The factor is 1.50 here.", "The factor is 1.5 here."),
            ("The company earned 1.4 billion dollars last year.", "The company earned 1.4bn dollars last year."),
            ("The plant grows 20 cm per year.", "The plant grows 0.2 m per year."),
            ("The plant grows 0.2 m per year.", "The plant grows 20 cm per year."),
            ("The parcel weighs 1.5 kg.", "The parcel weighs 1500 g.")]
    for claim, quote in same:
        r = check(claim, quote)
        assert r.status is C, (claim, r)
    wrong = [("The ratio is .6 for this mode.", "The ratio is 0.5 for this mode."),
             ("The ratio is 0.6 for this mode.", "The ratio is .5 for this mode."),
             ("The factor is 1.5 here.", "The factor is 1.55 here."),
             ("Python 3.1 added the feature.", "Python 3.10 added the feature."),
             ("The company earned 1.5 billion dollars last year.", "The company earned 1.4bn dollars last year."),
             ("The plant grows 2 cm per year.", "The plant grows 0.2 m per year."),
             ("The parcel weighs 1.5 kg.", "The parcel weighs 150 g.")]
    for claim, quote in wrong:
        assert_unsupported(check(claim, quote), "number")


def test_a_sum_or_product_the_quote_writes_out_is_not_flagged():
    """"1,048,576" for "1024 * 1024" and "256K" for "128K ... + 128K ..." (Node.js docs) were
    flagged: the reader does no arithmetic. A product of numbers not beside the sign, a sum
    without a "+" between its terms, or another result is still flagged."""
    buf = "maxBuffer: largest amount of data in bytes allowed on stdout. Default: 1024 * 1024."
    zlib = ("That is: 128K for windowBits = 15 + 128K for memLevel = 8 (default values) plus a few "
            "kilobytes for small objects.")
    assert check("maxBuffer defaults to 1,048,576 bytes.", buf).status is C
    assert check("With the defaults, deflate needs 256K plus a few kilobytes for small objects.", zlib).status is C
    assert_unsupported(check("maxBuffer defaults to 1,048,577 bytes.", buf), "number")
    assert_unsupported(check("With the defaults, deflate needs 512K plus a few kilobytes for small objects.", zlib),
                       "number")
    hr = ("The period of the hrtimer is 2*watchdog_thresh/5, which means it has two or three chances to "
          "generate an interrupt.")
    assert_unsupported(check("The period of the hrtimer is 2*watchdog_thresh/5, which means it has four or five "
                             "chances to generate an interrupt.", hr), "number")
    magic = "The magic must reside in the first 128 bytes of the file, i.e. offset+size(magic) has to be less than 128."
    assert_unsupported(check("The magic must reside in the first 256 bytes of the file.", magic), "number")


def test_a_power_or_product_the_claim_writes_is_shown_as_written_and_left_grey():
    """"2**10" lost its "**" as if it were bold and read 210 in the note; its operands then
    read alone (2, 10) flagged a true claim. The reader does no arithmetic: grey, the note
    naming the expression as the claim writes it."""
    for claim, quote, shown in [("A kibibyte is 2**10 bytes.", "A kibibyte is 1024 bytes.", '"2**10"'),
                                ("The limit is 2^10 entries.", "The limit is 210 entries.", '"2^10"'),
                                ("The buffer holds 1024 * 1024 bytes.", "The buffer holds 1048576 bytes.",
                                 '"1024*1024"')]:
        r = check(claim, quote)
        assert r.status is C, (claim, r)
        assert f"the claim says {shown}" in r.note, r.note
    assert check("A kibibyte is 2**10 bytes.", "A kibibyte is 2**10 bytes.").status is ClaimStatus.SUPPORTED
    assert_unsupported(check("The limit is **10** entries.", "The limit is 12 entries."), "number")


def _negation_pairs(pairs):
    for claim, quote, flagged in pairs:
        r = check(claim, quote)
        if flagged:
            assert_unsupported(r, "negation")
        else:
            assert r.status is C, (claim, r)


def test_a_double_negation_or_out_of_reach_in_the_quote_is_no_dropped_negation():
    """"not executable without a terminal" says they need one; "is out of reach" says it
    cannot be reached (Node.js docs: both were flagged as negation flips)."""
    bat = ("On Windows, however, .bat and .cmd files are not executable on their own without a terminal, and "
           "therefore cannot be launched using child_process.execFile().")
    main = "When the entry point is not a CommonJS module, the main module is out of reach."
    _negation_pairs([
        ("child_process.execFile() cannot start .bat or .cmd files on Windows, since they need a terminal to run.",
         bat, False),
        ("On Windows, .bat and .cmd files are executable on their own, and can be launched using "
         "child_process.execFile().", bat, True),
        ("Batch files need a terminal to run.", "Batch files are run without a terminal.", True),
        ("If the entry point is not CommonJS, the main module cannot be reached.", main, False),
        ("If the entry point is CommonJS, the main module cannot be reached.",
         "When the entry point is a CommonJS module, the main module can be reached.", True)])


def test_otherwise_a_negated_bound_and_a_negated_predicate_restate_the_quote():
    """"only if $HOME is not defined" restates "if defined. Otherwise ..."; "No X can have
    more than one" is "at most one"; "Removing listeners ... does not stop them" negates
    the predicate of the removal. The same words against a quote without the complement,
    the bound or the negation are still flagged."""
    home = ("On POSIX, it uses the $HOME environment variable if defined. Otherwise it uses the effective UID to "
            "look up the user's home directory.")
    emit = ("Any removeListener() calls after emitting and before the last listener finishes execution will not "
            "remove them from emit() in progress.")
    _negation_pairs([
        ("os.homedir() on POSIX uses the effective UID only if $HOME is not defined.", home, False),
        ("os.homedir() on POSIX uses the $HOME variable only if it is not defined.",
         "On POSIX, it uses the $HOME environment variable if defined.", True),
        ("No ChildProcess can have more than one IPC stdio file descriptor.",
         "A ChildProcess may have at most one IPC stdio file descriptor.", False),
        ("No ChildProcess can have more than one IPC stdio file descriptor.",
         "A ChildProcess can have more than one IPC stdio file descriptor.", True),
        ("Removing listeners while an emit() is in progress does not stop them from being called in that emit().",
         emit, False),
        ("Removing listeners removes them from the emit() in progress.", emit, True),
        ("This does not require your working tree to be clean.",
         "This requires your working tree to be clean (no modifications from the HEAD commit).", True)])


def test_modal_order_and_name_pairs_that_state_the_same_thing():
    """Node.js docs restated faithfully were flagged by the near copy rule: "will" for an
    expected "should"; "cannot" for "will not be possible"; "B after A" for "A before B";
    "Node" for "Node.js", "worker.kill" for "kill"; a subject named ("path.basename() throws
    a TypeError") where the quote keeps it implicit ("A TypeError is thrown"). Other modals,
    the order reversed and other names are still flagged."""
    timeout = ("The ref option defaults to true; setting it to false means the scheduled Timeout should not require "
               "the Node.js event loop to remain active.")
    zlib = ("Using this method, it will not be possible to determine whether the input ended prematurely or lacks "
            "the integrity checks.")
    order = "Listeners installed with events.errorMonitor are called before the regular 'error' listeners are called."
    io = "Workers do not help much with I/O. The Node.js built-in asynchronous I/O is more efficient."
    kill = "The kill() function kills the worker process without waiting for a graceful disconnect."
    same = [("Setting it to false means the scheduled Timeout will not require the Node.js event loop to remain "
             "active.", timeout),
            ("Using this method, it cannot determine whether the input ended prematurely or lacks the integrity "
             "checks.", zlib),
            ("The regular 'error' listeners are called after the listeners installed with events.errorMonitor.", order),
            ("Worker threads do not help much with I/O, where Node's built-in asynchronous I/O is more efficient.", io),
            ("worker.kill() kills the worker process without waiting for a graceful disconnect.", kill),
            ("path.basename() throws a TypeError when path is not a string.",
             "A TypeError is thrown if path is not a string.")]
    for claim, quote in same:
        r = check(claim, quote)
        assert r.status is C, (claim, r)
    # "must" / "should", "can" / "will": another strength, but both may hold - no proof of a
    # contradiction, so grey (issue 25: a flag rests on proof), never supported
    for claim, quote in [("Setting it to false means the scheduled Timeout must not require the Node.js event loop "
                          "to remain active.", timeout),
                         ("Using this method, it can determine whether the input ended prematurely.",
                          "Using this method, it will determine whether the input ended prematurely.")]:
        r = check(claim, quote)
        assert r.status is ClaimStatus.UNCHECKED and "may both hold" in r.note, (claim, r)
    wrong = [("Listeners installed with events.errorMonitor are called after the regular 'error' listeners are "
              "called.", order, "near_copy:order"),
             ("Worker threads do not help much with I/O, where Deno's built-in asynchronous I/O is more efficient.", io,
              "near_copy:entity"),
             ("worker.kill() ends the worker process without waiting for a graceful disconnect.",
              "The disconnect() function ends the worker process without waiting for a graceful disconnect.",
              "near_copy:entity"),
             ("path.basename() throws a RangeError when path is not a string.",
              "path.basename() throws a TypeError when path is not a string.", "near_copy:entity")]
    for claim, quote, rule in wrong:
        assert_unsupported(check(claim, quote), rule)


def test_two_names_aligned_on_their_wrong_words_are_no_swap():
    """"Charles Dickens ... Tim" against "Tiny Tim, Dickens ...": the alignment paired
    "Charles" with "Tim" (each name's other word stands on the other side). Names that share
    only a word ("Vietnam War" / "Cold War", "Point Henry" / "Port Henry") are still swaps,
    and so is a name the claim writes only to set it aside ("rather than the EventEmitter API")."""
    r = check("In A Winter Tale, Charles Dickens modeled the persona of Tim on his young relative.",
              "For the character Tiny Tim, Dickens used his nephew Henry, a boy who was five at the time "
              "A Winter Tale was written.")
    assert r.status is C, r
    emit = ("These objects implement the Node.js EventEmitter API, allowing the parent process to register "
            "listener functions.")
    for claim, quote in [("The Vietnam War lasted 19 years.", "The Cold War lasted 19 years."),
                         ("Alcoa announced the closure of its Point Henry aluminium smelter.",
                          "Alcoa announced the closure of its Port Henry aluminium smelter."),
                         ("Each ChildProcess instance implements the Node.js Stream API rather than the "
                          "EventEmitter API.", emit)]:
        assert_unsupported(check(claim, quote), "near_copy:entity")


def test_a_unit_of_one_a_strict_bound_and_a_fold_word_state_the_claims_number():
    """"every 24 hours" / "once a day", "two or more" / "more than one", "3 parts" / "a
    threefold job" were flagged as numbers the quotes lack; other numbers are still flagged."""
    day = "A common strategy for read-mostly databases is to run VACUUM once a day."
    servers = "Some of these tests run more than one server."
    job = "Logger objects have a threefold job."
    for claim, quote in [("For read-mostly databases, a common strategy is to run VACUUM once every 24 hours.", day),
                         ("Some of these tests run two or more servers.", servers),
                         ("Logger objects have a job with 3 parts.", job)]:
        r = check(claim, quote)
        assert r.status is C, (claim, r)
    for claim, quote in [("For read-mostly databases, a common strategy is to run VACUUM once every 12 hours.", day),
                         ("Some of these tests run three or more servers.", servers),
                         ("Logger objects have a job with 4 parts.", job),
                         ("The two cities share one station.", "Radiation levels on the surface were doubled.")]:
        assert_unsupported(check(claim, quote), "number")


def test_two_for_a_pair_the_quote_names_without_a_number():
    """"two linked MessagePorts" for "port1 and port2 ..., which refer to linked MessagePort
    instances" was flagged as a number the quote lacks: the quote gives no number at all and
    names a pair. Another count, or "two" against a quote number, is still flagged."""
    q = "new MessageChannel() yields an object with port1 and port2 properties, which refer to linked MessagePort instances."
    r = check("A new MessageChannel has port1 and port2 properties that refer to two linked MessagePorts.", q)
    assert r.status is C, r
    assert_unsupported(check("A new MessageChannel has port1 and port2 properties that refer to three linked "
                             "MessagePorts.", q), "number")
    assert_unsupported(check("A new MessageChannel has two linked ports.",
                             "A new MessageChannel has three linked ports: port1, port2 and port3."), "number")


# --- seen at fresh12's first sight: reworded negations read as flips ---------------------------
def test_a_tokenised_nt_is_a_negation():
    # "Do n't" as tokenised news text writes it: the same negation as "Don't"
    assert check("The horse Do n't Look Back won in 2010.", "The horse Don't Look Back won in 2010.").status is S
    assert_unsupported(check("The daemon do n't restart.", "The daemon restarts."), "negation")


def test_a_negation_across_a_list_colon_is_not_a_flip():
    lead_in = "A worker is not allowed to:\nopen a second socket to the broker."
    r = check("A worker cannot open a second socket to the broker.", lead_in)
    assert r.status is C and "across a colon" in r.note
    item = "The worker restarts when the retry flag of the job is:\nnot set, and the queue is empty."
    assert check("The worker restarts for a job without the retry flag when the queue is empty.", item).status is C
    # a lead-in without a negation still proves the flip
    assert_unsupported(check("A worker cannot open a second socket.", "A worker is allowed to:\nopen a second socket."),
                       "negation")


def test_a_pronoun_is_not_a_swapped_name():
    duo = "Blue Lantern (BL) is a Welsh folk duo formed by Ann Reese and Gwen Hale."
    assert check("of course, It is a Welsh folk duo formed by Ann Reese and Gwen Hale", duo).status is C
    assert_unsupported(check("Blue Lantern is a Welsh folk duo formed by Mary Reese and Gwen Hale.", duo),
                       "near_copy:entity")


def test_a_word_that_only_shares_a_stem_proves_nothing():
    # the light stemmer joins "Hale" and "Hall", "filing" and "filling": a copy in stems, not in words
    duo = "The duo was formed by Ann Reese and Gwen Hale."
    r = check("The duo was formed by Ann Reese and Gwen Hall.", duo)
    assert r.status is C and "only looks like" in r.note
    assert check("The script is filling the form.", "The script is filing the form.").status is C
    assert check("The planes were grounded.", "The plans were grounded.").status is C
    # forms of one word still prove it
    assert check("The duo was formed by Ann Reese and Gwen Hale.", duo).status is S
    assert check("The scripts stopped the jobs.", "The script stops the job.").status is S
    assert check("The boxes matched.", "The box matches.").status is S


def test_before_and_after_with_one_side_negated_is_not_an_order_swap():
    quote = "The cache cannot be dropped before every pending write has been flushed."
    assert check("The cache can only be dropped after every pending write has been flushed.", quote).status is C
    assert_unsupported(check("The cache is dropped after every pending write has been flushed.",
                             "The cache is dropped before every pending write has been flushed."), "near_copy:order")


def test_a_passive_is_not_proven_by_an_active_with_a_pronoun_object():
    # "kills it": the pronoun object leaves no gap, and the subject turns from doer to done-to
    r = check("The parent process is killed.", "The parent process kills it.")
    assert r.status is C and "passive" in r.note
    assert check("The tools were configured.", "The tool configures them.").status is C
    # the same voice, an agent named with "by", or a participle clause still prove it
    assert check("The parent process was killed.", "The parent process was killed.").status is S
    assert check("The store is located on Elm Street.", "The store, located on Elm Street, opens at nine.").status is S
    assert check("The tool configures them.", "The tool configures them.").status is S


# --- seen at fresh13's first sight: a headline that asks, or calls it a hoax -------------------
def test_a_question_in_the_quote_proves_nothing():
    r = check("The bridge is closed.", "The Bridge Closed?")
    assert r.status is C and "question" in r.note
    # a question beside a statement of the same: the statement proves it
    assert check("The bridge is closed.", "Is the bridge closed? The bridge is closed.").status is S


def test_a_quote_that_calls_it_a_hoax_proves_nothing():
    r = check("The singer is dead.", "The Singer Dead: Fans Fall For Another Death Hoax")
    assert r.status is C and "hoax" in r.note
    assert check("The mayor reportedly resigned.", "The mayor reportedly resigned.").status is S
    assert check("The mayor resigned.", "The mayor reportedly resigned.").status is not S


# --- seen at fresh13's hand half: a negation that moved, not dropped ---------------------------
def test_a_negation_that_moved_is_grey_not_a_flip():
    r = check("A fetch is scheduled for the page when none exists yet.",
              "If there is no fetch for the page, one is scheduled.")
    assert r.status is C and "of its own" in r.note
    assert check("When the limit is left out, the default limit is used.",
                 "When no limit is given, the default limit is used.").status is C
    assert check("Where zstd is not available, the default codec is gzip.",
                 "The default codec is zstd, where available, or gzip otherwise.").status is C
    assert check("The proxy uses little memory.", "The proxy doesn't use much memory.").status is C
    # a plain drop of the quote's negation is still a flip
    assert_unsupported(check("The proxy uses much memory.", "The proxy doesn't use much memory."), "negation")
    assert_unsupported(check("A fetch is scheduled for the page.", "No fetch is scheduled for the page."),
                       "negation")


# --- seen at fresh14's first sight: a compressed sentence that changes what it says ------------
def test_the_tense_of_be_and_a_noun_cut_at_and_are_not_proven():
    r = check("My grandfather is one of them.", "My grandfather was one of them.")
    assert r.status is C and "past only" in r.note
    assert check("The parent process was killed.", "The parent process is killed.").status is C
    # a bare "and" in the quote may join two nouns: dropping what follows it changes the count's scope
    assert check("They found over 1000 pairs of runners.",
                 "They found over 1000 pairs of runners and slippers stashed away.").status is C
    # after a comma, "and" opens a clause of its own, which a claim may leave out
    assert check("The server restarts.", "The server restarts, and the cache is cleared.").status is S


def test_a_statement_cut_from_between_two_kept_parts_is_not_proven():
    quote = ("Of the 90 million spent, 45 million was used for items such as televisions, phones, speakers and "
             "other devices.")
    r = check("90 million spent, phones, speakers and other devices.", quote)
    assert r.status is C and "between its parts" in r.note
    # a relative clause opened by "which" may go, "be" or not
    assert check("The pump moves 40 litres of water per hour.",
                 "The pump, which is powered by the sun, moves 40 litres of water per hour.").status is S


# --- seen at fresh14 (CoGenSumm): compressions whose every word is the quote's ------------------
def test_be_contracted_onto_its_subject_counts_as_its_tense():
    r = check("I'm was in the office.", "I'm in the office, near the station.")
    assert r.status is C and "present only" in r.note
    assert check("I'm in the office.", "I'm in the office, near the station.").status is S


def test_a_preposition_left_out_before_kept_words_is_not_proven():
    # "to this day" is "still", "this day" is "today": the preposition gives the phrase its role
    quote = "To this day, the song is loved and the singer admired."
    r = check("This day, the song is loved and the singer admired.", quote)
    assert r.status is C and '"To this day"' in r.note
    assert check("The song is loved this day.", "The song is loved to this day.").status is C
    assert check("You use herbs meant for healing.",
                 "Herbalism is the study and use of herbs meant for healing.").status is C
    # after "and", the claim's own preposition covers both
    assert check("He sent letters to Anna and Tom.", "He sent letters to Anna and to Tom.").status is S
    assert check("The song is loved to this day.", quote.replace("To this day, the", "The") + " The song is loved "
                 "to this day.").status is S


def test_a_noun_cut_from_its_pair_under_one_article_is_not_proven():
    # "the rose and crown": one article over two nouns may name one thing (a pub)
    r = check("they waited outside the rose.", "they waited outside the rose and crown on bank street.")
    assert r.status is C
    # another phrase or a verb after "and" opens a part of its own that a claim may leave out
    assert check("He practised law for a decade.", "He practised law for a decade and served in the senate.").status is S
    assert check("She walked the dog.", "She walked the dog and his puppy.").status is S


def test_a_clause_opened_by_a_bare_because_runs_past_its_comma():
    quote = "It works with many apps, such as Logic because it reads gestures, such as strumming, tapping and sliding."
    r = check("It works with many apps, such as Logic, tapping and sliding.", quote)
    assert r.status is C and '"because ..."' in r.note
    # a parenthesis ("X, because Y, Z") ends at its comma
    assert check("The build failed and nobody noticed.",
                 "The build failed, because the disk was full, and nobody noticed.").status is S
