"""fresh24/fresh25 (R manuals, ImageMagick): a symbol the word analysis skips ("|" for "-",
"+name" for "-name") keeps a copied claim from green; flags that were false on correct claims
(a "-fold" multiple, a name denied on the other side too, "poorly" for "not well", a
footnote mark glued to a word, "often" against "common ... all") now stay grey, and the
contradiction of each shape still flags; the judge's evidence check reads the words around
"before"/"after" in their order."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim
from deep_research.citations.claims.judge_check import JudgeFact, check_judge_evidence
from tests.citations.claim_status import FLAG, GREY, status

SUPPORTED = ClaimStatus.SUPPORTED


# --- symbols ------------------------------------------------------------------------------------

def test_a_pipe_for_a_dash_as_a_filename_is_not_green():
    """(im0196) "with a filename of |" against "with a filename of -"."""
    quote = "The shell can chain two programs. The converter reads its input from standard input with a file name of -."
    got = check_claim("The converter reads its input from standard input with a file name of |.", [quote])
    assert got.status is GREY and '"|"' in (got.note or "")
    assert status("The converter reads its input from standard input with a file name of -.", quote) is SUPPORTED


def test_an_option_prefix_changed_is_not_green():
    """"-verbose" for "--verbose" (the analysis skips "-"); "+antialias" for "-antialias"."""
    quote = "To list every file it converts, run the tool with the option --verbose before the file names."
    got = check_claim("To list every file it converts, run the tool with the option -verbose before the file names.",
                      [quote])
    assert got.status is GREY and "-verbose" in (got.note or "")
    assert status("To list every file it converts, run the tool with the option --verbose before the file names.",
                  quote) is SUPPORTED
    quote = "To draw text without smoothing its edges, give the option -antialias before the text."
    assert status("To draw text without smoothing its edges, give the option +antialias before the text.",
                  quote) is GREY
    assert status("To draw text without smoothing its edges, give the option -antialias before the text.",
                  quote) is SUPPORTED


def test_an_assignment_arrow_changed_is_not_green():
    quote = "Inside a function, the operator <<- assigns to a variable of an enclosing environment."
    got = check_claim("Inside a function, the operator <- assigns to a variable of an enclosing environment.", [quote])
    assert got.status is GREY


def test_hyphens_in_compounds_and_prose_dashes_do_not_count():
    quote = "The well known tool reads files - and writes them back in the same order."
    assert status("The well-known tool reads files and writes them back in the same order.", quote) is SUPPORTED
    quote = "The tool is well-known; it reads files and writes them back in the same order."
    assert status("The tool is well known - it reads files and writes them back in the same order.",
                  quote) is SUPPORTED


# --- correct claims no longer flagged -----------------------------------------------------------

def test_a_count_of_times_written_as_a_hundredfold():
    """(rm0009) "grown one hundred times over" / "increased a hundredfold"."""
    quote = "The archive opened in 2004, and the number of its mirrors has increased a hundredfold since."
    got = status("The archive opened in 2004, and its mirrors have grown one hundred times over since.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("The archive opened in 2004, and its mirrors have grown one thousand times over since.",
                  quote) is FLAG


def test_a_denied_name_named_by_a_not_on_the_other_side():
    """(rm0022) "utf8 is not a valid encoding name (UTF-8 is)" / "The valid name is UTF-8, not utf8"."""
    quote = "Note that ucs2 is not a valid charset label (UCS-2 is), and cp1252 is the usual label on Windows."
    got = status("The valid charset label is UCS-2, not ucs2, and cp1252 is the usual label on Windows.", quote)
    assert got is not FLAG and got is not SUPPORTED
    # the claim calls the denied name valid, and its own "not" stands on another word
    assert status("The valid charset label is ucs2, not UCS-2, and cp1252 is the usual label on Windows.",
                  quote) is FLAG
    assert status("ucs2 is a valid charset label, and cp1252 is the usual label on Windows.", quote) is FLAG


def test_poorly_suited_restates_not_well_suited():
    """(rm0121) "poorly suited" / "not well suited"."""
    quote = "Because every table is held in memory, the engine is not well suited to very large archives."
    got = status("Because every table is held in memory, the engine is poorly suited to very large archives.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("Because every table is held in memory, the engine is well suited to very large archives.",
                  quote) is FLAG


def test_a_footnote_mark_glued_to_a_name():
    """(rm0041, rm0293) "'Unicode'2", ".RData6": a footnote number after the word."""
    quote = "On the Mac it is best to use what Apple calls \u2018Roman\u20193, that is \"x-mac-roman\"."
    got = status("On the Mac it is best to use what Apple calls 'Roman', that is x-mac-roman.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("On the Mac it is best to use what Apple calls 'Western', that is x-mac-roman.", quote) is FLAG


def test_often_against_quite_common_for_all():
    """(rm0061) "often omit" / "quite common ... to have all ... omitted"."""
    quote = ("It is quite common for a log exported from a router to have all trailing blank columns (and their "
             "commas) dropped. To parse such logs set strict = FALSE.")
    got = status("Logs exported from routers often drop trailing blank columns and their commas; setting strict = "
                 "FALSE parses them.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("Logs exported from routers rarely drop trailing blank columns and their commas; setting strict = "
                  "FALSE parses them.", quote) is FLAG


# --- the judge's evidence ------------------------------------------------------------------------

def test_judge_evidence_reads_the_words_around_before_in_order():
    """(rm0372) "run make install before make" backed by "run make before make install": each
    side of "before" keeps its order, but the words around it are swapped."""
    quote = "A parallel build is fine, but run ninja before ninja install."
    span = "run ninja before ninja install"
    swapped = "run ninja install before ninja"
    assert not check_judge_evidence(swapped, [quote], [JudgeFact(swapped, [span], [])]).ok
    ev = check_judge_evidence(span, [quote], [JudgeFact(span, [span], [])])
    assert ev.ok, ev.problems


def test_a_dash_for_a_pipe_at_the_end_is_not_green():
    """The mirror of im0196, the symbol ending the claim: "-" where the quote writes "|"."""
    quote = "To send one program's output into another, give it the file name |"
    got = check_claim("To send one program's output into another, give it the file name -", [quote])
    assert got.status is GREY and '"-"' in (got.note or "")
    # a dash glued to a full stop ("1945.- Most") is punctuation
    quote = "The survey ended in 1945. Most of the records were lost."
    assert status("The survey ended in 1945.- Most of the records were lost.", quote) is SUPPORTED
