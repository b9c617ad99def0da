"""Table rows, cells and sentences of the report (citations/document/claims.py): the
search-based scans give what a character-by-character reading gives."""

from __future__ import annotations

import random

from deep_research.citations.document.claims import _cells, _table_lines, split_sentences


def _cells_by_char(s: str, a: int, e: int) -> list[tuple[int, int]]:
    """The rule written out one character at a time: "|" ends a cell, a backslash makes
    the next character text."""
    out, cell, i = [], a, a
    while i < e:
        if s[i] == "\\":
            i += 2
            continue
        if s[i] == "|":
            out.append((cell, i))
            cell = i + 1
        i += 1
    out.append((cell, e))
    return [(x, y) for x, y in out if s[x:y].strip()]


def test_cells_split_on_pipes_but_not_escaped_ones():
    s = "| a | b \\| c | d |"
    assert [s[x:y].strip() for x, y in _cells(s, 0, len(s))] == ["a", "b \\| c", "d"]


def test_cells_read_only_their_row():
    s = "xx| one | two |yy"
    assert [s[x:y] for x, y in _cells(s, 2, 15)] == [" one ", " two "]


def test_backslash_at_the_row_end_escapes_nothing_past_it():
    s = "| a \\|| b"
    assert _cells(s, 0, 5) == _cells_by_char(s, 0, 5) == [(1, 5)]


def test_cells_match_the_character_reading_on_random_rows():
    rng = random.Random(7)
    for _ in range(3000):
        s = "".join(rng.choice("ab |\\  -:") for _ in range(rng.randint(0, 24)))
        a = rng.randint(0, len(s))
        e = rng.randint(a, len(s))
        assert _cells(s, a, e) == _cells_by_char(s, a, e), (s, a, e)


def test_paragraph_without_a_pipe_has_no_table_line():
    assert _table_lines(["A line - with a dash", "---", "another"]) == set()


def test_table_lines_found_when_a_row_has_a_pipe():
    assert _table_lines(["| a | b |", "|---|---|", "| 1 | 2 |", "after"]) == {0, 1, 2}
    assert _table_lines(["text", "a | b", "--- | ---", "c | d"]) == {1, 2, 3}


def test_sentences_across_a_blanked_ref():
    # a ref blanked in the structure text is a run of spaces (a line break or a no-break
    # space among them is whitespace too): the next sentence starts after the run
    gap = " " * 150 + "\n\u00a0" + " " * 50
    s = "First claim." + gap + "Second one." + gap
    assert [s[a:b] for a, b in split_sentences(s)] == ["First claim.", "Second one."]
    # a lower-case word after the run continues the sentence
    s = "Version 3.1." + gap + "then more."
    assert [s[a:b] for a, b in split_sentences(s)] == [s.rstrip()]


def test_sentences_trimmed_inside_the_range():
    s = "xx   Alpha beta. " + " " * 40 + "Gamma.   yy"
    spans = split_sentences(s, 2, len(s) - 2)
    assert [s[a:b] for a, b in spans] == ["Alpha beta.", "Gamma."]
    assert split_sentences(" " * 30) == []
    assert split_sentences("A.  ", 0, 2) == [(0, 2)]
