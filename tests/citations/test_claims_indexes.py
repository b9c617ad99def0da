"""The indexes a quote keeps for the claim rules (``types.derived``): each answers what the
scan it replaced answered, and a long quote is read once for every claim that cites it."""

from itertools import combinations

from deep_research.citations.claims import check_claim
from deep_research.citations.claims.analysis import _MINUS_SIGN, _TOKEN, _TOKEN_ASCII, _analyse_quote, _tokens, _tokens_at
from deep_research.citations.claims.contradiction import _DIGIT_RUN, _NEGATING_PREFIXES, _written, lexical_negation
from deep_research.citations.claims.near_copy import _name_in_quotes, _squeeze
from deep_research.citations.claims.negation import _begins_a_word
from deep_research.citations.claims.types import _WORD, derived, union
from deep_research.citations.claims.words import stem


def _name_by_scan(name: str, text: str) -> bool:
    """The scan ``_name_in_quotes`` made before its index: every run of up to five tokens."""
    t = _analyse_quote(text)
    key = _squeeze(name)
    if any(r.endswith("." + name) for r in t.rawset):
        return True
    for i in range(len(t.raw)):
        acc = ""
        for j in range(i, min(i + 5, len(t.raw))):
            acc += _squeeze(t.raw[j])
            if acc == key:
                return True
            if len(acc) >= len(key) or not key.startswith(acc):
                break
    return False


QUOTE = ("Patients with Covid-19 and CO 2 levels above 400 ppm were seen; see "
         "django.http.HttpRequest.get_host. The K18-hACE2 mice (n = 1,024) got ACE2 - or not.")


def test_name_index_answers_as_the_scan():
    names = ["covid19", "Covid-19", "CO2", "get_host", "HttpRequest.get_host", "hACE2", "K18hACE2",
             "ACE2", "ace", "Django", "mice", "n1024", "ppm400", "SARS", "co", "400ppm", "http"]
    for name in names:
        assert _name_in_quotes(name, [_analyse_quote(QUOTE)]) == _name_by_scan(name, QUOTE), name
    assert _name_in_quotes("covid19", [_analyse_quote(QUOTE)])
    assert not _name_in_quotes("SARS", [_analyse_quote(QUOTE)])


def test_written_values_answer_as_the_scan():
    t = _analyse_quote(QUOTE)
    scanned = {n.key for n in t.numbers} | {m.group(0).rstrip(".,").replace(",", "")
                                             for r in t.rawset for m in _DIGIT_RUN.finditer(r)}
    for key in ["2", "18", "1024", "400", "19", "3", "1,024", "4000"]:
        assert _written(key, [t]) == (key in scanned), key
    assert _written("2", [t]) and not _written("3", [t])


def test_begins_a_word_by_bisection():
    t = _analyse_quote("An asymptomatic carrier, nonblocking calls and unsafe code.")
    for prefix in ("asymptom", "nonblock", "unsaf", "unsafe", "a", "zz", "nonblockingx", "carrier"):
        assert _begins_a_word(t, prefix) == any(w.startswith(prefix) for w in t.lowset), prefix


def test_derived_is_computed_once_per_text():
    calls = []

    def index(t):
        calls.append(t)
        return len(t.raw)

    t = _analyse_quote("One quote, read once.")
    assert derived(t, index) == derived(t, index) == len(t.raw)
    assert calls == [t]
    other = _analyse_quote("Another quote.")
    assert derived(other, index) == len(other.raw) and len(calls) == 2


def test_union_of_one_text_is_its_own_set():
    a, b = _analyse_quote("Red apples fall."), _analyse_quote("Green pears rise.")
    assert union([a], "stemset") is a.stemset
    assert union([a, b], "stemset") == a.stemset | b.stemset
    assert union([], "lowset") == set()


def test_verdict_same_whether_quote_index_is_fresh_or_reused():
    quote = ("The service restarts workers every 24 hours. Workers are not restarted on Windows. "
             "Version 3.11.2 added the flag; most users never set it.")
    claims = ["The service restarts workers every 12 hours.", "Workers are restarted on Windows.",
              "The service restarts workers every 24 hours.", "All users set the flag."]
    first = [check_claim(c, [quote]) for c in claims]  # the index built by the first claim, reused
    _analyse_quote.cache_clear()
    again = [check_claim(c, [quote]) for c in reversed(claims)][::-1]
    assert [(r.status, r.rule, r.note) for r in first] == [(r.status, r.rule, r.note) for r in again]
    assert first[0].status.value == "unsupported" and first[2].status.value == "supported"


def _lexical_by_scan(t, stems):
    """The scan ``lexical_negation`` made before its index: every word token in turn."""
    want = {s for s in stems if len(s) >= 4}
    for x, s in enumerate(t.stems):
        if t.kinds[x] != _WORD:
            continue
        if any(s.startswith(p) and s[len(p):] in want for p in _NEGATING_PREFIXES):
            return t.raw[x]
        if s in want and x and t.low[x - 1] in ("non", "un"):
            return f"{t.raw[x - 1]}-{t.raw[x]}"
    return None


def test_lexical_negation_index_answers_as_the_scan():
    t = _analyse_quote("Un-exported names stay inactive; the cache is uninitialized and non-blocking. "
                       "Disallowed hosts, an unexported name and an unlocked door.")
    words = ["exported", "active", "initialized", "blocking", "allowed", "locked", "door", "name", "host", "un"]
    for n in range(1, 4):
        for stems in combinations([stem(w) for w in words], n):
            assert lexical_negation(t, list(stems)) == _lexical_by_scan(t, stems), stems
    # the first word of the text wins: "Un-exported" (a prefix and its word) before "unexported"
    assert lexical_negation(t, [stem("exported")]) == "Un-exported"
    assert lexical_negation(t, [stem("allowed"), stem("active")]) == "inactive"
    assert lexical_negation(t, [stem("door")]) is None


def test_dashes_between_spaces_take_the_fast_tokens_and_agree_with_the_positional_ones():
    # a dash between spaces marks no minus sign: such text takes the tokeniser without
    # positions, and its tokens are those the positional one reads
    for text in ("Sales rose - by 5 percent - in 2020.", "A pause -- then x86 builds - 3,000 of them",
                 "Le prix - 5 euros - est bas."):
        assert not _MINUS_SIGN.search(text), text
        assert _tokens(text) == _tokens_at(text, _TOKEN_ASCII if text.isascii() else _TOKEN), text
    # a "-" right before a number or word (or at the start) still marks one, as does a call
    for text, minus in (("It fell to -5 degrees.", {4}), ("-3 is less", {1}), ("a (-x86) chip", {3}),
                        ("Temperatures of -40 - very cold.", {3})):
        assert _MINUS_SIGN.search(text), text
        assert _tokens(text)[2] == minus, text
    assert _tokens("call len() on it")[4] == {1}


def test_many_quotes_each_analysed_once(monkeypatch):
    """A claim citing more quotes than the quote cache holds (fresh11 pairs cite up to 101 web
    documents): the proof reads the analyses ``check_claim`` made, never a second pass."""
    from deep_research.citations.claims import analysis

    seen: list[str] = []
    real = analysis._analyse

    def counting(text, claim_side, mid_start=False):
        if not claim_side:
            seen.append(text)
        return real(text, claim_side, mid_start)

    monkeypatch.setattr(analysis, "_analyse", counting)
    _analyse_quote.cache_clear()
    quotes = [f"Worker {i} restarts the service every day." for i in range(30)]
    result = check_claim("Worker 7 restarts the service every day.", quotes)
    assert result.status.value == "supported"  # the proof ran (it reads every quote)
    assert len(seen) == len(quotes) == len(set(seen))
    _analyse_quote.cache_clear()


def test_characters_normalised_as_by_the_translate_table():
    """``_prepare`` replaces the characters of ``_NORMALISE`` by a regex scan: the same text
    as ``str.translate`` with the table, each character and at the edges."""
    from deep_research.citations.claims.analysis import _NORMALISE, _NORMALISE_CHARS, _normalise_chars, _prepare

    every = "".join(_NORMALISE_CHARS)
    for text in (every, f"a{every}b", "é" + "\u2014x\u00ady\u2019s \u201cq\u201d", "plain é text", ""):
        assert _normalise_chars(text) == text.translate(_NORMALISE)
    assert _prepare("caf\u00e9 \u2018x\u2019 1\u20132") == "caf\u00e9 'x' 1-2"
    # the Hebrew prefix letter before a number is read as a maqaf, and only there
    assert _prepare("\u05db-585 \u05d1-2020 \u00e9-5") == "\u05db\u05be585 \u05d1\u05be2020 \u00e9-5"


def test_proof_tries_only_sentences_holding_the_claims_keys_with_the_same_result(monkeypatch):
    """``proof.prove`` aligns a claim (or a part of it) only with the quote sentences holding
    each of its non-number keys: the same proof, note and copy flag as when it tries every
    sentence - whole claims, claims in parts from two sentences or two quotes, a bound shown
    by another number, numbers alone, claims it cannot show."""
    from deep_research.citations.claims import proof as P
    from deep_research.citations.claims.analysis import _analyse, _analyse_claim

    passage = ("The pump moves 40 litres of water per hour. It runs on solar power during the day. "
               "At night the battery, which stores 12 kWh, drives the pump. The valve opens when the "
               "tank is full; the overflow drains into the garden. In 2021 the system was extended "
               "with a second tank that holds 1,200 litres.")
    other = "The garden has 14 beds. The pump was installed in 2019."
    claims = [
        "The pump moves 40 litres of water per hour.",
        "The pump moves more than 30 litres of water per hour.",
        "At night the battery drives the pump.",
        "The valve opens when the tank is full, and the pump runs on solar power during the day.",
        "The overflow drains into the garden; the garden has 14 beds.",
        "The pump was installed in 2019 and moves 40 litres of water per hour.",
        "In 2021 the system was extended.",
        "40 litres.",
        "The pump moves 50 litres of water per hour.",
        "The battery stores 12 kWh and drives the valve.",
        "The tank drains into the garden at night.",
    ]
    def prove(claim: str, quotes: list[str]) -> P.Proof:
        return P.prove(P.items(_analyse_claim(claim), True, P._TABLES),
                       [P.items(_analyse(q, claim_side=False), False, P._TABLES) for q in quotes], P.APPROX)

    cases = [(claim, quotes) for claim in claims for quotes in ([passage], [passage, other], [other, passage])]
    got = [prove(claim, quotes) for claim, quotes in cases]
    monkeypatch.setattr(P, "_may_match", lambda *args: None)  # every sentence tried
    assert got == [prove(claim, quotes) for claim, quotes in cases]
    assert 0 < sum(p.ok for p in got) < len(got)  # both outcomes are compared
    assert any(p.ok and not p.copy for p in got)  # a claim proven part by part among them


def _random_texts(alphabet: str, n: int, seed: int) -> list[str]:
    import random

    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40))) for _ in range(n)]


def test_word_dash_thousands_dash_first_finds_what_the_look_behind_first_found():
    # the pattern as first written (a look-behind first, tried at every position): the one
    # led by "-" must replace exactly the same dashes
    import re

    from deep_research.citations.claims.analysis import _WORD_DASH_THOUSANDS

    behind_first = re.compile(r"(?<=[^\W\d_])-(?=\d{1,3}(?:,\d{3})+(?![\d,]))")
    fixed = ["2.5 mya-10,000 years ago", "5 km-10,000 km", "COVID-19, 1,000", "x-1,000,000", "é-12,345",
             "_-1,000", "9-1,000", "a-1,0000", "a-1,000,", "a-1,000.5", "a -1,000", "ab-1,000-2,000"]
    for text in fixed + _random_texts("a9_-, 1é0", 20000, 7):
        assert _WORD_DASH_THOUSANDS.sub(" - ", text) == behind_first.sub(" - ", text), text
    assert _WORD_DASH_THOUSANDS.sub(" - ", "2.5 mya-10,000 years") == "2.5 mya - 10,000 years"
    assert _WORD_DASH_THOUSANDS.sub(" - ", "9-1,000 and _-1,000") == "9-1,000 and _-1,000"


def _tokens_by_groups(text: str) -> tuple[list[str], list[int]]:
    """The tokens and kinds ``_tokens`` read from ``_TOKEN``'s groups before its flat
    pattern (text with no minus sign and no call)."""
    from deep_research.citations.claims.analysis import _SPLIT_WORDS, _word_parts
    from deep_research.citations.claims.types import _CJK, _NUM, _PUNCT

    raw: list[str] = []
    kinds: list[int] = []
    for num, word, cjk, punct in _TOKEN.findall(text):
        if word:
            if word.isalpha() and word not in _SPLIT_WORDS:
                raw.append(word)
                kinds.append(_WORD)
            else:
                _word_parts(word, 0, text, raw, kinds, set(), set())
        elif punct:
            raw.append(punct)
            kinds.append(_PUNCT)
        elif cjk:
            raw.append(cjk)
            kinds.append(_CJK)
        else:
            raw.append(num.replace(",", "").replace(" ", ""))
            kinds.append(_NUM)
    return raw, kinds


def test_flat_token_patterns_find_what_the_alternations_found():
    # the patterns led by one character class against the alternations they replace, and
    # the kinds told by characters against the groups that gave them
    import re

    from deep_research.citations.claims.analysis import _TOKEN_ASCII_FLAT, _TOKEN_FLAT

    ascii_alternation = re.compile(r"\d{1,3}(?:(?:,\d{3})+|(?: \d{3})++(?!,\d{3}(?!\d)))(?:\.\d+)?(?!\w)|[^\W_]\w*(?:['.\-][^\W_]\w*)*|[^\w\s]",
                                   re.ASCII)
    ascii_texts = ["1,000 and 1 000 000.5x, 12,345,6789 e.g. don't x-ray _a a_b 3.11.2", "9,999x 9,999 ,999"]
    for text in ascii_texts + _random_texts("a1_ ,.'-\t9Z()", 20000, 11):
        assert _TOKEN_ASCII_FLAT.findall(text) == ascii_alternation.findall(text), text
    texts = ["Le prix : 1 000 € (\u00e9t\u00e9) - l'\u00e9cole, na\u00efve", "\u4e2d\u6587\u30fb\u30ab\u30ca 12,000\u5186",
             "\u0661\u0662\u0663 \u05db-585 \u00df\u00aa cannot doesnt \u00c9T\u00c9 x\u00b2",
             "\u0391\u03b8\u03ae\u03bd\u03b1, 2,5 \u043c\u043b\u043d_\u0433\u0440\u043d"]
    for text in texts + _random_texts("a1_ ,.'-\t9Z()\u00e9\u00a0\u4e2d\u6587\u30fc\u30fb\u0663\u00df\u3001", 20000, 13):
        assert _TOKEN_FLAT.findall(text) == ["".join(g) for g in _TOKEN.findall(text)], text
        if "()" not in text and not ("-" in text and _MINUS_SIGN.search(text)):
            raw, kinds, *_ = _tokens(text)
            assert (raw, kinds) == _tokens_by_groups(text), text


def test_stem_tests_each_suffix_under_its_last_letter_with_the_same_stems():
    # the stems of the stemmer that tested every suffix in turn, one word per branch (plural,
    # "-sses", "-ies", past, "-ing", a final "e", a doubled consonant, words kept whole)
    expected = {
        "studies": "study", "classes": "clas", "boxes": "box", "matches": "match", "wishes": "wish",
        "buzzes": "buz", "cats": "cat", "glass": "glas", "status": "status", "basis": "basis",
        "famous": "famous", "carried": "carry", "running": "run", "hopped": "hop", "stopped": "stop",
        "used": "use", "makes": "mak", "notes": "not", "ties": "tie", "oxes": "ox", "doing": "do",
        "hiding": "hid", "filling": "fil", "sized": "siz", "agreed": "agr", "bled": "bled", "needs": "need",
        "HTTPS": "https", "the": "the", "x86": "x86", "dressed": "dres", "tied": "tied", "sing": "sing",
        "seeing": "see", "kissing": "kis",
    }
    assert {w: stem(w) for w in expected} == expected


def test_clause_numbers_count_the_clause_starts_up_to_each_token():
    # a clause mark or clause word starts a clause at its own token
    assert _analyse_quote("A, b; c but d.").clause == (0, 1, 1, 2, 2, 3, 3, 4)
    assert _analyse_quote("plain words only").clause == (0, 0, 0)
    assert _analyse_quote(", x").clause == (1, 1)


def _entity_by_counting(raw: str) -> tuple[bool, bool]:
    """``analysis._is_entity`` as it read every word before its fast path for letters."""
    if not any(map(str.isalpha, raw)):
        return False, False
    if any(map(str.isdigit, raw)) or "_" in raw or "." in raw.strip("."):
        return True, True
    upper = sum(map(str.isupper, raw))
    if upper >= 2 or (upper == 1 and not raw[0].isupper()):
        return True, True
    return False, raw[0].isupper()


def test_entity_fast_path_reads_words_as_the_counting():
    from deep_research.citations.claims.analysis import _is_entity

    words = ["Hello", "hello", "HeLLo", "HELLO", "A", "a", "I", "iPhone", "McDonald", "Über", "über", "Éclair",
             "\u01c5a", "a\u01c5", "\u01c4", "Ab\u3042", "\u3042", "\u3042b", "x86", "Node.js", "e.g", "snake_case",
             "Straße", "STRASSE", "\u1d2cb", "b\u1d2c", "\u2160v", "Ω", "ω", "Ωmega", "oMEGA", "K18", "-", "'"]
    for w in words:
        assert _is_entity(w) == _entity_by_counting(w), w


def test_date_takes_its_day_by_identity():
    """A month-name date replaces the day number it is made of, not an equal-looking one."""
    from deep_research.citations.claims.analysis import _analyse_claim

    keys = [n.key for n in _analyse_claim("On 5 June 2021 and on 5 June 2021 there were 5 cases.").numbers]
    assert keys == ["D:2021-06-5", "D:2021-06-5", "5"]


def test_sentence_ranges_and_index_answer_as_the_item_loop():
    """``proof._sentences`` finds the sentence ranges where the sentence number changes, and
    ``_sentence_index`` lists each key once per sentence holding it, in order: as the loop over
    every item did (empty sentences, a key repeated in a sentence, a quote of one sentence)."""
    from deep_research.citations.claims import proof as P
    from deep_research.citations.claims.analysis import _analyse

    def by_loop(its: P._Items) -> tuple[list[tuple[int, int]], dict[str, list[int]]]:
        ranges, start = [], 0
        for i in range(1, len(its.keys) + 1):
            if i == len(its.keys) or its.sent[i] != its.sent[start]:
                ranges.append((start, i))
                start = i
        where: dict[str, list[int]] = {}
        for j, (a, b) in enumerate(ranges):
            for key in its.keys[a:b]:
                if j not in where.setdefault(key, []):
                    where[key].append(j)
        return ranges, where

    texts = ["The pump runs. The pump runs again!! Does the pump stop? ... It stops. The end",
             "One sentence with the pump and the pump again", "", "...", "Stop. . . Go."]
    for text in texts:
        its = P.items(_analyse(text, claim_side=False), False, P._TABLES)
        assert P._sentence_index(its) == by_loop(its), text
    assert len(P._sentence_index(P.items(_analyse(texts[0], claim_side=False), False, P._TABLES))[0]) == 5


def test_prefixed_form_found_by_look_up_as_by_the_set_of_prefix_rests():
    """``antonym._check_antonym`` asks whether a claim stem has an "un-", "non-" or "dis-" form
    in the quotes by looking the prefixed forms up; the set it built before (what follows each
    prefix in the quotes' stems) held the same stems."""
    from deep_research.citations.claims.antonym import _PREFIXES, _check_antonym
    from deep_research.citations.claims.analysis import _analyse_claim

    quotes = [_analyse_quote("The call is nonblocking and the result is unknown; dishonest or unable, it disagrees."),
              _analyse_quote("An unsafe block, a discovery and an unusual path. Diskus non")]
    stems = union(quotes, "stemset")
    rests = {s[len(p):] for s in stems for p in _PREFIXES if s.startswith(p)}
    words = {s[len(p):] for s in stems for p in _PREFIXES if s.startswith(p)} | stems | {"block", "honest", "cover", "x"}
    for cs in sorted(words):
        assert any(p + cs in stems for p in _PREFIXES) == (cs in rests), cs
    assert "" in rests and "known" in rests  # "non" alone: the empty rest
    # the rule still reads the prefixed form: "blocking" where the quote says "nonblocking"
    found = _check_antonym(_analyse_claim("The call is blocking and the result is unknown."), quotes[:1])
    assert found is not None and "nonblocking" in found.note


def test_function_word_swap_looks_its_context_up_in_every_quote():
    """A function word swapped in the quote the claim repeats is no swap when another quote
    writes the claim's word between the same neighbours; each quote's contexts are built only
    when a swap is looked up, from whichever quote holds them."""
    from deep_research.citations.claims.analysis import _analyse_claim
    from deep_research.citations.claims.near_copy import _align_contexts, _function_word_swapped

    claim = _analyse_claim("The server sends the reply to the client.")
    copy = _analyse_quote("The server sends the reply for the client.")
    other = _analyse_quote("Nobody else writes a reply to the client.")
    unrelated = _analyse_quote("The weather was fine all week.")
    assert _function_word_swapped(claim, [copy]) == ("to", "for", 5)
    assert _function_word_swapped(claim, [copy, unrelated]) == ("to", "for", 5)
    assert _function_word_swapped(claim, [copy, other]) is None
    assert _function_word_swapped(claim, [other, copy]) is None
    assert ("reply", "to", "client") in derived(other, _align_contexts)
    # a claim that repeats no quote builds no context
    fresh = _analyse_quote("A quote nobody repeats, about pumps and valves.")
    assert _function_word_swapped(claim, [fresh]) is None and _align_contexts not in fresh.cache


def test_spaced_compounds_found_only_where_a_hyphen_token_stands():
    """``contradiction._spaced_compound`` skips a text without a hyphen token and reads the
    rest as the scan over every token does."""
    from deep_research.citations.claims.contradiction import _TENS, _spaced_compound
    from deep_research.citations.claims.words import _SMALL_NUMBERS

    def by_scan(t) -> set[str]:
        return {str(_TENS[t.low[i]] + _SMALL_NUMBERS[t.low[i + 2]]) for i in range(len(t.low) - 2)
                if t.low[i] in _TENS and t.low[i + 1] in ("-", "\u2010", "\u2011")
                and _SMALL_NUMBERS.get(t.low[i + 2], 0) in range(1, 10)}

    for text in ("It costs twenty - five dollars.", "It costs twenty five dollars.", "thirty \u2010 two, forty - x",
                 "A well-known fact - nothing more.", ""):
        t = _analyse_quote(text) if text else _analyse_quote(" ")
        assert _spaced_compound(t) == by_scan(t), text
    assert _spaced_compound(_analyse_quote("It costs twenty - five dollars.")) == {"25"}
