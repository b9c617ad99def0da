"""The long cache of quote analyses (``analysis._records``): a quote read again after the
small cache let it go comes back as the same analysis, set orders included, and a record that
would not come back the same is not kept."""

import sys

from deep_research.citations.claims import analysis as A
from deep_research.citations.claims import check_claim
from deep_research.citations.verify import _without_markup, strip_quote_marks

TEXTS = [
    "The server does not restart; it cannot be split. Only five of the 1,024 workers (2.50 %) ran.",
    "Since version 3.11.2, len() returns -3 at most 128 KB, about 10 percent of over 2 million users.",
    "On May 5, 2020 the K18-hACE2 mice (n = 12) were seen; no longer doesnt isnt. Neither A nor B.",
    "東京は日本の首都ではない。Tokyo is the capital; 二十 students.",
    "Twenty-one users said \u201cno\u201d \u2014 none of them\u2014 in the 2019\u201320 season (1.5 million).",
    "",
    "a b c " * 300,
]


def _fresh(q: str):
    return A._analyse(_without_markup(strip_quote_marks(q)), claim_side=False)


def _same(a, b) -> None:
    assert a == b  # every field (the dataclass compares all but the derived-value cache)
    for f in ("stemset", "lowset", "rawset"):  # read in their order by rules (the others only for membership)
        x, y = getattr(a, f), getattr(b, f)
        assert list(x) == list(y) and sys.getsizeof(x) == sys.getsizeof(y), f  # same order, same table
    assert [type(n.value) for n in a.numbers] == [type(n.value) for n in b.numbers]


def test_a_record_gives_back_the_analysis():
    for q in TEXTS:
        t = _fresh(q)
        rec = A._record(t)
        assert rec is not None, q
        _same(A._text_of(A.marshal.loads(A.marshal.dumps(rec))), t)


def test_a_quote_read_again_is_analysed_the_same():
    A._records.cache_clear()
    A._analyse_quote.cache_clear()
    first = [A._analyse_quote(q) for q in TEXTS if q]
    assert all(A._records.find(q) == A._ONCE for q in TEXTS if q)  # no record for a quote read once
    A._analyse_quote.cache_clear()  # the small cache forgets
    second = [A._analyse_quote(q) for q in TEXTS if q]  # read again: analysed, and now recorded
    A._analyse_quote.cache_clear()
    again = [A._analyse_quote(q) for q in TEXTS if q]
    assert all(a is not b for a, b in zip(first, again))  # thawed from a record, not kept
    for a, b, q in zip(first, again, [q for q in TEXTS if q]):
        _same(b, _fresh(q))
        _same(a, b)
    assert all(isinstance(A._records.find(q), bytes) and A._records.find(q) for q in TEXTS if q)
    assert all(a is not b for a, b in zip(second, again))


def test_a_set_that_would_not_come_back_the_same_is_not_recorded():
    t = _fresh(TEXTS[0])
    big = set(range(200))
    for x in range(200):
        big.discard(x)  # (a set never shrinks on removal)
    big.update(t.lowset)  # the same words in a larger table: another size, maybe another order
    assert big == t.lowset and sys.getsizeof(big) != sys.getsizeof(t.lowset)
    t.lowset = big
    assert A._record(t) is None


def test_verdicts_the_same_from_records():
    claim, quote = "The server restarts.", TEXTS[0]
    A._records.cache_clear()
    A._analyse_quote.cache_clear()
    before = check_claim(claim, [quote])
    A._analyse_quote.cache_clear()
    assert check_claim(claim, [quote]) == before
    A._analyse_quote.cache_clear()
    assert isinstance(A._records.find(quote), bytes)  # kept: read back from its record
    after = check_claim(claim, [quote])
    assert (before.status, before.rule, before.note) == (after.status, after.rule, after.note)
    assert before.status.value == "unsupported"


def test_records_are_bounded_in_bytes():
    records = A._Records(10_000)
    for i in range(100):
        records.keep(f"quote {i} " * 20, b"x" * 500)
    assert records.used <= 10_000 and 5 <= len(records) < 20
    assert records.find("quote 99 " * 20) == b"x" * 500 and records.find("quote 0 " * 20) is A._UNSEEN
    records.cache_clear()
    assert not records and records.used == 0
