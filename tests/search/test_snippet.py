"""search.snippet gives what SQLite's own FTS5 snippet() gives (issue 23).

The oracle is SQLite: every expected value below is asked of an FTS5 table with the index's
tokenizer, never written by hand. Documents: the Python reference documentation shipped with
every Python (``pydoc_data.topics``, text we did not write), and short multilingual texts
with diacritics (composed and decomposed), non-Latin scripts, marks after separators and
other characters the tokenizer classes one by one. Queries: the product's own query shapes
(``fts_query`` AND and OR) built from words and word pairs of those documents.
"""

from __future__ import annotations

import random
import re
import sqlite3
import unicodedata
from pathlib import Path
from pydoc_data.topics import topics

import pytest

from deep_research.search import LocalCorpus, build_index
from deep_research.search import local as local_mod
from deep_research.search import snippet as snippet_mod
from deep_research.search.local import SNIPPET_TOKENS, _query_terms, _varints, fts_query
from deep_research.search.snippet import fold, query_stems, snippet, stem

TOKENIZER = "porter unicode61 remove_diacritics 2"

MULTILINGUAL = [
    ("Le café de la gare ouvre à sept heures. Les élèves y prennent un café crème; "
    "le garçon répète: « café, café ». Où est l'hôtel? À côté du café."),
    ("Die Straße führt über die Brücke. Größere Fahrzeuge müssen die STRASSE meiden: "
    "Maße und Gewichte stehen auf dem Schild."),
    "Ελληνικά: η γλώσσα των Ελλήνων. Η ΓΛΩΣΣΑ είναι παλιά: γλώσσα, γλώσσες.",
    "Русский текст: Москва — столица. МОСКВА большая; в Москве много музеев.",
    "日本語のテキストと漢字。東京は大きい都市です。東京タワー。",
    "Tiếng Việt có nhiều dấu: người Việt Nam nói tiếng Việt. Hà Nội là thủ đô.",
    "İstanbul ve Iğdır: Türkçe harfler ğ, ş, ı. ISTANBUL büyük bir şehir.",
    "ﬁnancial ﬂows and the ﬁle: ligatures ﬁ and ﬂ. Ｆｕｌｌｗｉｄｔｈ ＡＢＣ text.",
    "Emoji 🎉 party 🎉 time; math 𝒜𝒷𝒸 and ① ② ③ numbers. Zero\u200bwidth and soft\u00adhyphen.",
    "Marks: \u0301start e\u0301te\u0301 cafe\u0301 na\u0308ive \u0308\u0308 after space. Done.",
    "Arabic: العربية لغة. مرحبا بالعالم. Hebrew: עברית שפה.",
    "Numbers 3.14 and 2,718: version 3.11.7 released; v2 and v10. 42 is 42.",
    "Quotes “curly” and ‘single’ — dashes – and… ellipsis. “Snippet” test.",
]


def _docs() -> list[str]:
    docs = [text for _, text in sorted(topics.items())]
    docs += MULTILINGUAL
    docs += [unicodedata.normalize("NFD", t) for t in MULTILINGUAL]
    docs += [t.upper() for t in MULTILINGUAL[:7]]
    return docs


DOCS = _docs()
_WORD = re.compile(r"\w+")


def _queries(rng: random.Random, text: str, n: int) -> list[str]:
    """Queries from a document's own words: single words, pairs (near and far), chunks with
    punctuation (``os.path``), two-word phrases, and a word with a word from elsewhere."""
    words = _WORD.findall(text)
    chunks = [c for c in text.split() if len(c) > 2]
    if not words:
        return []
    out = []
    for _ in range(n):
        kind = rng.randrange(6)
        i = rng.randrange(len(words))
        if kind == 0:
            out.append(words[i])
        elif kind == 1:
            out.append(" ".join(words[i:i + 2]))
        elif kind == 2:
            out.append(f"{words[i]} {rng.choice(words)}")
        elif kind == 3 and chunks:
            out.append(rng.choice(chunks))
        elif kind == 4:
            out.append(" ".join(words[i:i + rng.randrange(2, 5)]))
        else:
            other = _WORD.findall(rng.choice(DOCS))
            out.append(f"{words[i]} {rng.choice(other) if other else 'the'}")
    return out


def fts_table(con: sqlite3.Connection, docs: list[str]) -> None:
    con.execute(f"CREATE VIRTUAL TABLE t USING fts5(title, content, tokenize='{TOKENIZER}')")
    con.executemany("INSERT INTO t (rowid, title, content) VALUES (?, ?, ?)",
                    [(i + 1, f"doc {i}", d) for i, d in enumerate(docs)])


def sqlite_snippets(con: sqlite3.Connection, expr: str, limit: int) -> list[tuple[int, str, str, bytes]]:
    return con.execute(
        f"SELECT t.rowid, snippet(t, 1, '', '', '\u2026', {SNIPPET_TOKENS}), t.content, s.sz "
        "FROM t JOIN t_docsize AS s ON s.id = t.rowid WHERE t MATCH ? ORDER BY rank LIMIT ?",
        (expr, limit)).fetchall()


def assert_same(con: sqlite3.Connection, query: str, limit: int = 8) -> int:
    """The best ``limit`` documents of the product's AND and OR query for ``query``: our
    snippet equals SQLite's. Returns how many were compared."""
    compared = 0
    for operator in ("AND", "OR"):
        expr = fts_query(query, operator)
        if not expr:
            continue
        phrases = [query_stems(t) for t in _query_terms(query, operator)]
        for rowid, expected, content, sz in sqlite_snippets(con, expr, limit):
            size = _varints(sz)[1]
            got = snippet(content, phrases, size, tokens=SNIPPET_TOKENS)
            assert got == expected, (query, operator, rowid)
            compared += 1
    return compared


@pytest.fixture(autouse=True, params=["loops", "arrays"])
def window_path(request, monkeypatch):
    """Every test twice: windows scored hit by hit (few hits) and with arrays (many hits,
    snippet.MANY_HITS): the same choice either way."""
    monkeypatch.setattr(snippet_mod, "MANY_HITS", 10**9 if request.param == "loops" else 1)
    return request.param


@pytest.fixture(scope="module")
def con():
    c = sqlite3.connect(":memory:")
    fts_table(c, DOCS)
    yield c
    c.close()


def test_stems_and_folds_are_the_tokenizers(con) -> None:
    """Every token of every document, folded and stemmed, is the term the porter tokenizer
    stores at that position (plain unicode61 gives the unstemmed token at the same place)."""
    c = sqlite3.connect(":memory:")
    c.execute(f"CREATE VIRTUAL TABLE p USING fts5(x, tokenize='{TOKENIZER}')")
    c.execute("CREATE VIRTUAL TABLE u USING fts5(x, tokenize='unicode61 remove_diacritics 2')")
    c.execute("CREATE VIRTUAL TABLE pv USING fts5vocab(p, 'instance')")
    c.execute("CREATE VIRTUAL TABLE uv USING fts5vocab(u, 'instance')")
    for table in ("p", "u"):
        c.executemany(f"INSERT INTO {table} (rowid, x) VALUES (?, ?)", [(i + 1, d) for i, d in enumerate(DOCS)])
    def terms(vocab: str) -> dict[int, list[str]]:
        by_doc: dict[int, list[tuple[int, str]]] = {}
        for doc, offset, term in c.execute(f"SELECT doc, offset, term FROM {vocab}"):
            by_doc.setdefault(doc, []).append((offset, term))
        return {doc: [t for _, t in sorted(v)] for doc, v in by_doc.items()}

    stemmed, plain = terms("pv"), terms("uv")
    pairs = {(u, p) for doc in plain for u, p in zip(plain[doc], stemmed[doc], strict=True)}
    assert len(pairs) > 3000
    wrong = [(u, p) for u, p in pairs if stem(u.encode()) != p.encode()]
    assert not wrong[:20]
    # folding: each document's tokens as our tokenizer cuts and folds them are unicode61's
    for i, doc in enumerate(DOCS):
        t = snippet_mod._Text(doc)
        ours = [fold(t.raw[m.start():m.end()]).decode() for m in snippet_mod._TOKEN.finditer(t.cls)]
        assert ours == plain.get(i + 1, []), i


def test_porter_rules_on_made_up_words() -> None:
    """Short and odd words that exercise each rule's edge (3-letter words, -eed, -ies, y after
    a vowel, double consonants, a word that is only a suffix), against SQLite."""
    words = ["aed", "ing", "aing", "ies", "ties", "sses", "caresses", "ponies", "cats", "feed", "agreed",
             "plastered", "motoring", "sing", "conflated", "troubled", "sized", "hopping", "tanned",
             "falling", "hissing", "fizzed", "failing", "filing", "happy", "sky", "syzygy", "yyy",
             "relational", "conditional", "rational", "valenci", "hesitanci", "digitizer", "conformabli",
             "radicalli", "differentli", "vileli", "analogousli", "vietnamization", "predication",
             "operator", "feudalism", "decisiveness", "hopefulness", "callousness", "formaliti",
             "sensitiviti", "sensibiliti", "triplicate", "formative", "formalize", "electriciti",
             "electrical", "hopeful", "goodness", "revival", "allowance", "inference", "airliner",
             "gyroscopic", "adjustable", "defensible", "irritant", "replacement", "adjustment",
             "dependent", "adoption", "homologou", "communism", "activate", "angulariti", "homologous",
             "effective", "bowdlerize", "probate", "rate", "cease", "controll", "roll", "mobility",
             "possibly", "logically", "abilities", "xyzzyed", "bled", "eeed", "ousness", "ational",
             "a" * 64 + "ing", "a" * 65 + "ing", "s" * 3, "e" * 5 + "s", "ly", "sis", "ss"]
    c = sqlite3.connect(":memory:")
    c.execute(f"CREATE VIRTUAL TABLE p USING fts5(x, tokenize='{TOKENIZER}')")
    c.execute("CREATE VIRTUAL TABLE pv USING fts5vocab(p, 'instance')")
    c.executemany("INSERT INTO p (rowid, x) VALUES (?, ?)", [(i + 1, w) for i, w in enumerate(words)])
    expected = dict(c.execute("SELECT doc, term FROM pv"))
    for i, w in enumerate(words):
        assert stem(w.encode()) == expected[i + 1].encode(), w


def test_snippets_equal_sqlites_on_real_documentation(con) -> None:
    rng = random.Random(23)
    compared = 0
    for doc in DOCS:
        for query in _queries(rng, doc, 4):
            compared += assert_same(con, query, limit=4)
    assert compared > 1000


def test_frequent_words_many_hits_and_repeated_terms(con) -> None:
    """Words with hundreds of hits in one document, a term given twice, a phrase and its
    words, stems shared by different words (``function``, ``functions``, ``functional``)."""
    for query in ["the", "a", "the the", "function", "functions functional", "is the", "of the",
                  "return value", "the object is", "class class", "object object object", "it",
                  "e.g", "i.e.", "x", "1", "0 1", "python 3", "__init__", "os.path.join", "file-like",
                  "self", "print(", "don't", "can't won't"]:
        assert_same(con, query)


def test_non_ascii_diacritics_and_scripts(con) -> None:
    for query in ["café", "cafe", "CAFÉ", "cafe\u0301", "élèves", "eleves", "hôtel", "Straße", "strasse",
                  "STRASSE", "Größere", "grossere", "γλώσσα", "ΓΛΩΣΣΑ", "γλωσσα", "Москва", "москве",
                  "東京", "東京は大きい都市です", "Việt", "viet", "tiếng việt", "İstanbul", "istanbul", "Iğdır",
                  "financial", "ﬁle", "ＡＢＣ", "abc", "🎉", "party time", "𝒜𝒷𝒸", "①", "Zero width",
                  "zerowidth", "soft hyphen", "naive", "ete", "start", "العربية", "עברית", "3.14",
                  "3.11.7", "v10", "42", "curly", "snippet test", "ellipsis", "“curly”",
                  # phrases whose later words are folded to ASCII (or not) from their first byte on
                  "cafe creme", "café crème", "CAFÉ CRÈME", "a cote", "À CÔTÉ du", "du cafe", "gare ouvre",
                  "Où est", "ou est l'hotel", "tiếng Việt", "strasse größere"]:
        assert_same(con, query)


def test_document_start_end_and_short_documents() -> None:
    """Hits in the first and last tokens, documents shorter than a snippet, exactly a
    snippet long, one token longer, empty, only separators, leading and trailing
    separators (which the first or last window keeps), a sentence start as the window."""
    words = _WORD.findall(topics["assignment"])
    docs = ["", "   ", "…", "target", " target ", "«target»", "target.", ".target"]
    for n in (SNIPPET_TOKENS - 1, SNIPPET_TOKENS, SNIPPET_TOKENS + 1, 2 * SNIPPET_TOKENS, 200):
        body = " ".join(words[:n - 1])
        docs += [f"target {body}", f"{body} target", f"  (target) {body}. ", f"{body}: target.\n\n",
                 f"Intro words here. {body}. Target sentence: target ends. {body}",
                 f"— {body} —", f"{body}. target"]
    c = sqlite3.connect(":memory:")
    fts_table(c, docs)
    compared = sum(assert_same(c, q) for q in ["target", "target ends", "target sentence", words[0],
                                               words[3], f"{words[1]} target", "ends", "intro"])
    assert compared > 40
    # a document without a hit in the column (the match is in the title): its start
    (expected,) = c.execute(f"SELECT snippet(t, 1, '', '', '\u2026', {SNIPPET_TOKENS}) FROM t "
                            "WHERE t MATCH 'doc' AND rowid = 9").fetchone()
    assert snippet(docs[8], [query_stems("doc")], None) == expected


def test_generated_text_from_real_words_and_characters() -> None:
    """Documents made of real words and the characters around them in the documents above,
    shuffled with seeded separators, marks and sentence ends; queries of their words."""
    rng = random.Random(7)
    pool = _WORD.findall(" ".join(DOCS[:30])) + _WORD.findall(" ".join(MULTILINGUAL))
    seps = [" ", "  ", "\n", ". ", ": ", ".\n", ", ", " — ", "…", "\u00a0", "\t", " (", ") ", "_", "-", "’",
            "\u0301", " \u0308", "¶", "\u200b"]
    docs = []
    for _ in range(150):
        n = rng.choice([5, 31, 32, 33, 60, 400])
        docs.append("".join(rng.choice(pool) + rng.choice(seps) for _ in range(n)))
    c = sqlite3.connect(":memory:")
    fts_table(c, docs)
    compared = 0
    for doc in docs[:60]:
        for query in _queries(rng, doc, 3):
            compared += assert_same(c, query)
    assert compared > 500


def test_a_count_that_differs_gives_none() -> None:
    text = topics["assignment"]
    phrases = [query_stems("target")]
    t = snippet_mod._Text(text)
    n = t.marked.count(b" a")
    assert snippet(text, phrases, n) is not None
    assert snippet(text, phrases, n + 1) is None
    assert snippet(text, phrases, n - 1) is None


def test_search_falls_back_to_sqlites_snippet(tmp_path: Path, monkeypatch) -> None:
    """A document whose token count in the index is not the one snippet.py counts (an index
    of another SQLite, content changed behind the index) gets SQLite's own snippet, and the
    other results keep theirs."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("assignment", "class", "for", "while"):
        (folder / f"{name}.txt").write_text(topics[name], encoding="utf-8")
    index = tmp_path / "index.sqlite"
    build_index(folder, index_path=index)
    corpus = LocalCorpus(index)
    before = {r.url: r.snippet for r in corpus.search_sync("statement", max_results=5)}
    assert len(before) == 4
    con = sqlite3.connect(index)
    rowid, sz = con.execute("SELECT d.id, s.sz FROM documents d JOIN documents_fts_docsize s ON s.id = d.id "
                            "WHERE d.path = 'for.txt'").fetchone()
    title_n, content_n = _varints(sz)
    # the index says the text has 40 tokens more: SQLite keeps its window inside that count
    con.execute("UPDATE documents_fts_docsize SET sz = ? WHERE id = ?",
                (_varint_bytes(title_n) + _varint_bytes(content_n + 40), rowid))
    con.commit()
    (expected,) = con.execute(local_mod._SNIPPET_SQL, (fts_query("statement"), rowid)).fetchone()
    con.close()
    expected = " ".join(expected.split())  # as search results give snippets
    calls = []
    real = local_mod.snippet

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(out)
        return out

    monkeypatch.setattr(local_mod, "snippet", spy)
    after = {r.url: r.snippet for r in LocalCorpus(index).search_sync("statement", max_results=5)}
    assert calls.count(None) == 1
    for url, text in after.items():
        if url.endswith("for.txt"):
            assert text == expected
        else:
            assert text == before[url]


def _varint_bytes(v: int) -> bytes:
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    return bytes(reversed(out))


def test_varints_read_sqlites_docsize() -> None:
    c = sqlite3.connect(":memory:")
    fts_table(c, ["a " * n for n in (0, 1, 127, 128, 300, 16383, 16384, 70000)])
    for (sz,), n in zip(c.execute("SELECT sz FROM t_docsize ORDER BY id"),
                        (0, 1, 127, 128, 300, 16383, 16384, 70000)):
        assert _varints(sz) == [2, n]
        assert _varint_bytes(n) == sz[1:]


def test_a_phrase_reaching_past_the_window_centres_as_c_divides() -> None:
    """A window whose last phrase ends beyond it: FTS5 centres it by (tokens - span) / 2 with
    C's division (toward zero) of a negative number; also with the phrase one token earlier
    or later, and at the text's start and end."""
    docs = []
    for gap in (28, 29, 30, 31, 32, 33):
        for before, after in ((100, 100), (0, 100), (100, 3), (5, 0)):
            filler = [f"w{i}" for i in range(before + gap + after)]
            words = filler[:before] + ["alpha"] + filler[before:before + gap - 1]
            words += ["beta-gamma-delta-epsilon"] + filler[before + gap - 1:]
            docs.append(" ".join(words))
    c = sqlite3.connect(":memory:")
    fts_table(c, docs)
    compared = sum(assert_same(c, q, limit=len(docs))
                   for q in ["alpha beta-gamma-delta-epsilon", "beta-gamma-delta-epsilon alpha", "alpha gamma-delta"])
    assert compared >= 3 * len(docs)


def test_a_full_character_table_is_replaced_with_one_that_holds_what_was_asked(con, monkeypatch) -> None:
    """Past MAX_CHARS_KEPT characters the cache starts again: the new table holds every
    character of the text that asked (not only the ones it lacked), so folds stay right."""
    monkeypatch.setattr(snippet_mod, "MAX_CHARS_KEPT", 3)
    monkeypatch.setattr(snippet_mod, "_chars", snippet_mod._Chars())
    monkeypatch.setattr(snippet_mod, "_runs", {})
    for query in ["café crème", "Straße größere", "γλώσσα", "Москва", "東京", "tiếng Việt", "ﬁle"]:
        assert_same(con, query)
    assert fold("CAFÉ Crème".encode()) == b"cafe creme"
    assert len(snippet_mod._chars.info) <= 3 + len("CAFÉ Crème")


def test_phrases_that_overlap_repeat_or_start_with_a_frequent_word() -> None:
    """A phrase's places (found by one regex, then stemmed): overlapping ("x x" in "x x x"),
    a frequent first word and a rare phrase, words that stem alike but begin otherwise
    (``running`` for ``run``), non-ASCII first and later words, and a word split by a mark."""
    words = _WORD.findall(topics["assignment"])
    body = " ".join(words[:300])
    docs = ["x x x x. x x", "run runs running ran run. Running runs", f"the {body} the end of the text",
            f"{body} the function returns the value; functions return values. {body}",
            "café café crème; CAFÉ CRÈME. cafe\u0301 cre\u0300me café", "Ελληνικά γλώσσα γλώσσα. γλωσσα γλώσσα",
            "scipy.linalg scipy scipy.linalg.qr scipy.linalg.qr_delete scipy.linalg.qr", "a\u0301b a\u0301b a\u0301b"]
    c = sqlite3.connect(":memory:")
    fts_table(c, docs)
    compared = sum(assert_same(c, q) for q in [
        "x.x", "x.x.x", "x.x.x.x.x", "run.runs", "running.run", "runs.running", "the.end", "the.function",
        "function.returns.the", "functions.return", "the.value", "café.café", "café.crème", "cafe.creme",
        "CRÈME.cafe", "γλώσσα.γλώσσα", "γλωσσα.γλώσσα", "scipy.linalg", "scipy.linalg.qr", "linalg.qr.delete",
        "scipy.scipy", "a\u0301b.a\u0301b", "ab.ab"])
    assert compared > 30
