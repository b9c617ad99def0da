"""Numbers in claims and quotes: reading them (digits, number words, units, bounds, ranges,
versions) and the ``number`` rule."""

from __future__ import annotations

import bisect
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from .contradiction import _grey, cmp_dates, number_verdict, same_kind, same_slot, sentence_bounds
from .types import (
    _CJK,
    _NUM,
    _WORD,
    ClaimCheck,
    ClaimStatus,
    _Memo,
    _Num,
    _Text,
    derived,
    union,
)
from .words import (
    _AFTER_COMPARATORS,
    _CJK_DIGITS,
    _CJK_UNITS,
    _CMP_LAST,
    _COMPARATORS,
    _CURRENCY,
    _ENERGY_UNITS,
    _GLUED_UNITS,
    _NUMBER_START,
    _NUMBER_WORDS,
    _ORDINALS,
    _QUOTE_NUMBER_WORDS,
    _SCALES,
    _SMALL_NUMBERS,
    _STOP,
    _TENS,
    _UNITS,
    stem,
)

APPROX = Decimal("0.1")  # "about N" accepts a quote number within 10 %


_VAGUE_BEFORE = frozenset({"several", "few", "many", "some"})  # "several hundred": no exact number


_NUMBER = re.compile(r"(\d+(?:\.\d+)*)([a-zµμ%]*)", re.IGNORECASE)


_VERSION = re.compile(r"[vV](\d+(?:\.\d+)*)")


def _number_key(digits: str) -> tuple[str, Decimal | None, bool]:
    """(key, value, is_version) of a run of digits and dots."""
    parts = digits.split(".")
    if len(parts) >= 3:
        return digits, None, True
    whole = parts[0].lstrip("0") or "0"
    if len(parts) == 2:
        key = f"{whole}.{parts[1]}"
    else:
        key = whole
    try:
        return key, Decimal(key), False
    except InvalidOperation:  # pragma: no cover - digits only
        return key, None, False


def _scaled(value: Decimal, scale: int) -> tuple[str, Decimal]:
    v = value * scale
    if v == v.to_integral_value():
        return str(int(v)), v
    return format(v.normalize(), "f"), v


def _candidates(low: list[str], kinds: list[int]) -> list[int]:
    """Positions where a number may start: a digit token, a number word, a CJK numeral, a
    version ("v15"). Most texts have none or few: the scans below run at C speed first."""
    has_num = _NUM in kinds
    words = _NUMBER_START.intersection(low)
    if _CJK in kinds or any(m.group(1).isdigit() for m in _V_TOKEN.finditer(" " + " ".join(low))):
        return [i for i, w in enumerate(low) if kinds[i] == _NUM or w in _NUMBER_START
                or (kinds[i] == _CJK and (w in _CJK_DIGITS or w in _CJK_UNITS))
                or (w[0] == "v" and len(w) > 1 and w[1].isdigit())]
    if not has_num and not words:
        return []
    # no CJK and no "v<something>" token: the digit tokens and the number words, found by index
    out = _indexes(kinds, _NUM) if has_num else []
    for w in words:
        out += _indexes(low, w)
    return sorted(set(out)) if words else out


def _indexes(items: list, x: object) -> list[int]:
    """Every position of ``x`` in ``items``, in order."""
    out: list[int] = []
    i = -1
    try:
        while True:
            i = items.index(x, i + 1)
            out.append(i)
    except ValueError:
        return out


def _read_digit_token(tok: str) -> tuple[str, Decimal | None, str | None, bool] | None:
    """(key, value, unit, is_version) of a token of digits ("3.11", "12th", "5km", "4k"),
    or None when the token is a name, not a number ("x86", "3D", "mp3")."""
    m = _NUMBER.fullmatch(tok)
    if not m:
        return None
    digits, suffix = m.group(1), m.group(2).lower()
    key, value, version = _number_key(digits)
    unit = None
    if suffix:
        if suffix in ("st", "nd", "rd", "th"):
            key += "th"  # an ordinal: "3rd" (the third) is not "3" (three)
        elif suffix == "s" and len(digits) == 4:
            pass  # the 1990s
        elif suffix == "k" and value is not None:
            key, value = _scaled(value, 1000)
        elif suffix in _GLUED_UNITS:
            unit = _GLUED_UNITS[suffix]
        else:
            return None
    return key, value, unit, version


# Each digit token read once (its reading is immutable: a Decimal and strings).
_DIGIT_TOKENS = _Memo(_read_digit_token, 65536)


# a token "v" + something: a version when the something is a digit (tested with str.isdigit,
# as the reader below does; most such tokens are words: "very", "various")
# (a space before every token; lower case: a letter after "v" is a-z or not ASCII)
_V_TOKEN = re.compile(r" v([^a-z ])")


def _numbers(raw: list[str], low: list[str], kinds: list[int], minus: set[int], hyph: set[int],
             claim_side: bool) -> tuple[list[_Num], set[int], set[int]]:
    """Numbers of a token list (digits, number words, CJK numerals), with units and
    comparators. Returns the numbers, the token positions they cover (number, unit, scale
    word) and the positions of their bounds ("at least", "or more")."""
    out: list[_Num] = []
    used: set[int] = set()
    bounds: set[int] = set()
    n = len(raw)
    free = 0  # first token not yet taken by a number
    for i in _candidates(low, kinds):
        if i < free:
            continue
        kind = kinds[i]
        tok = raw[i]
        num: _Num | None = None
        end = i + 1
        if kind == _NUM:
            read = _DIGIT_TOKENS[tok]
            if read is None:
                kinds[i] = _WORD  # x86, 3D, mp3: a name, not a number
                continue
            key, value, unit, version = read
            num = _Num(key, value, unit, i, tok, negative=i in minus, version=version)
        elif kind == _WORD:
            lw = low[i]
            # "v15", "v2.1" are versions; "v1", "v2" are more often names (variables)
            m = _VERSION.fullmatch(tok) if lw[0] == "v" and len(tok) > 2 else None
            if m:
                key, value, _ = _number_key(m.group(1))
                num = _Num(key, value if "." not in m.group(1) else None, None, i, tok, version=True)
                if "." in m.group(1):
                    num.key = m.group(1)
            elif lw in _NUMBER_WORDS or lw == "hundred" or (lw in _SCALES and i > 0 and low[i - 1] == "a"):
                total, current, j = 0, 0, i
                while j < n and kinds[j] == _WORD:
                    w = low[j]
                    if w in _SMALL_NUMBERS:
                        if current % 100 and (current % 10 or current % 100 < 20):
                            break  # "five six", "twenty five six": two numbers
                        current += _SMALL_NUMBERS[w]
                    elif w in _TENS:
                        if current % 100:
                            break  # "five thirty-second ads": five, then thirty
                        current += _TENS[w]
                    elif w == "hundred":
                        current = max(current, 1) * 100
                    elif w in _SCALES:
                        total += max(current, 1) * _SCALES[w]
                        current = 0
                    elif w == "and" and j + 1 < n and low[j + 1] in _NUMBER_WORDS and j > i \
                            and low[j - 1] in ("hundred", "thousand", "million", "billion"):
                        pass
                    else:
                        break
                    j += 1
                value_i = total + current
                required = not (claim_side and j == i + 1 and lw == "one")
                num = _Num(str(value_i), Decimal(value_i), None, i, " ".join(raw[i:j]), required=required)
                end = j
            elif not claim_side and lw in _ORDINALS:
                num = _Num(f"{_ORDINALS[lw]}th", Decimal(_ORDINALS[lw]), None, i, tok)
            elif not claim_side and lw in _QUOTE_NUMBER_WORDS:
                key = _QUOTE_NUMBER_WORDS[lw]
                num = _Num(key, Decimal(key), None, i, tok)
        elif kind == _CJK and (tok in _CJK_DIGITS or tok in _CJK_UNITS):
            total, current, j = 0, 0, i
            while j < n and kinds[j] == _CJK and (raw[j] in _CJK_DIGITS or raw[j] in _CJK_UNITS):
                c = raw[j]
                if c in _CJK_DIGITS:
                    current = current * 10 + _CJK_DIGITS[c] if current and raw[j - 1] in _CJK_DIGITS else \
                        current + _CJK_DIGITS[c]
                elif _CJK_UNITS[c] >= 10**4:
                    total = (total + max(current, 1)) * _CJK_UNITS[c]
                    current = 0
                else:
                    total += max(current, 1) * _CJK_UNITS[c]
                    current = 0
                j += 1
            v = total + current
            # a claim reads its numerals as its quote does (a claim copying "一比三" had 一 and 三
            # as words no quote holds); a lone 一 of a claim (一些, 一起) is not a count it must show
            num = _Num(str(v), Decimal(v), None, i, "".join(raw[i:j]),
                       required=not (claim_side and j == i + 1 and tok == "一"))
            end = j
        if num is None:
            continue
        # scale words and units after the number
        k = end
        if k < n and low[k] in _SCALES and num.value is not None and kind == _NUM:
            num.key, num.value = _scaled(num.value, _SCALES[low[k]])
            num.raw += " " + raw[k]
            k += 1
            used.add(k - 1)
        if k < n:
            lk = low[k]
            if lk == "%":
                num.unit, num.unit_raw = "%", "%"
            elif lk == "°" and k + 1 < n and low[k + 1] in ("c", "f"):
                num.unit = "degC" if low[k + 1] == "c" else "degF"
                num.unit_raw = "°" + raw[k + 1]
                used.add(k + 1)
            elif lk in ("per", "percentage") and k + 1 < n and low[k + 1] in ("cent", "point", "points"):
                num.unit = "%" if low[k + 1] == "cent" else "pp"
                num.unit_raw = raw[k] + " " + raw[k + 1]
                used.update((k, k + 1))
            elif lk in _UNITS and kinds[k] == _WORD and num.unit is None:
                num.unit, num.unit_raw = _UNITS[lk], raw[k]
                used.add(k)
                if num.unit in _ENERGY_UNITS and k + 1 < n and low[k + 1] in ("hour", "hours") \
                        and kinds[k + 1] == _WORD:
                    num.unit = _ENERGY_UNITS[num.unit]  # "585 kilowatt-hours" is 585 kWh
                    num.unit_raw = raw[k] + ("-" if k + 1 in hyph else " ") + raw[k + 1]
                    used.add(k + 1)
            elif kinds[k] == _WORD and lk not in _STOP:
                num.noun = stem(lk)
        if num.unit is None and i > 0 and raw[i - 1] in _CURRENCY:
            num.unit = _CURRENCY[raw[i - 1]]
        # comparators before / after
        b = i - 1 if i > 0 and raw[i - 1] in _CURRENCY else i
        if b > 0 and low[b - 1] in _CMP_LAST:
            for phrase, cmp_kind in _COMPARATORS:
                L = len(phrase)
                if b - L >= 0 and tuple(low[b - L:b]) == phrase:
                    num.cmp = cmp_kind
                    num.cmp_raw = " ".join(raw[b - L:b])
                    bounds.update(range(b - L, b))  # the bound belongs to the number
                    break
        kk = k + (1 if k < n and low[k] in _UNITS else 0)
        if num.cmp is None and kk < n and low[kk] in ("or", "+"):
            for phrase, cmp_kind in _AFTER_COMPARATORS.items():
                if tuple(low[kk:kk + len(phrase)]) == phrase:
                    num.cmp = cmp_kind
                    bounds.update(range(kk, kk + len(phrase)))
        # "as of 2024": a frame date, not a claim
        if claim_side and i <= 3 and n > 2 and low[0] == "as" and low[1] in ("of", "at") and (
                num.value is None or 1900 <= num.value <= 2100 or i > 2):
            num.frame = True  # "As of 2024, ...": when, not what
        if claim_side and i > 0 and kinds[i - 1] == _WORD:
            num.before = low[i - 1]
            if kind == _NUM and i in hyph:
                num.name = low[i - 1]  # "COVID-19", "SARS-CoV-2": part of a name
            elif low[i] == "hundred" and low[i - 1] in _VAGUE_BEFORE:
                num.vague = True  # "several hundred hours": no exact number
        out.append(num)
        used.update(range(i, end))
        free = end
    if not _MONTHS.keys().isdisjoint(low):
        out = _dates(raw, low, out, used, claim_side)
    return out, used, bounds


_MONTHS = {w: i + 1 for i, names in enumerate([
    "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
    "august aug", "september sep sept", "october oct", "november nov", "december dec"]) for w in names.split()}


_MONTH_ABBREVIATIONS = frozenset(w for w in _MONTHS if len(w) <= 4 and w not in ("may", "june", "july"))


def _dates(raw: list[str], low: list[str], nums: list[_Num], used: set[int], claim_side: bool) -> list[_Num]:
    """Month-name dates as one value each ("May 5, 2020", "5 June 2021", "June 2021"), so a
    claim's date is matched whole, never piece by piece from two dates. Key
    "D:<year>-<month>-<day>", "?" for a part not given. On the quote side the year also
    stays a number of its own (a claim may give the year alone). A month's name is told by
    its capital ("may 30" is a modal and a number) - except in a quote that writes no
    capital at all (lower-cased, tokenised news: "on may 30 .", "in november 1980"), where
    a month's name followed by its day or year is read as a date all the same."""
    at = {n.pos: n for n in nums}
    uncased: bool | None = None  # does the text write no capital at all (read when first needed)

    def day(k: int) -> _Num | None:
        n = at.get(k)
        ok = n is not None and n.value is not None and n.unit is None and n.cmp is None and not n.negative
        return n if ok and n.value == n.value.to_integral_value() and 1 <= n.value <= 31 else None

    def year(k: int) -> _Num | None:
        n = at.get(k)
        ok = n is not None and n.value is not None and n.unit is None and not n.negative and len(n.raw) == 4
        return n if ok and 1000 <= n.value <= 2999 else None

    out = list(nums)
    taken: set[int] = set()
    for m, w in enumerate(low):
        if w not in _MONTHS or m in taken:
            continue
        if not raw[m][:1].isupper():
            if uncased is None:
                uncased = not claim_side and not any(r[:1].isupper() for r in raw)
            if not uncased:
                continue
        parts: list[_Num] = []
        d = y = None
        nxt = m + 1
        if nxt < len(low) and low[nxt] == "." and w in _MONTH_ABBREVIATIONS:
            nxt += 1  # "Feb. 23, 2020", "Aug. 10"
        if day(nxt) and nxt not in taken:
            d = day(nxt)
            nxt += 1
            if nxt < len(low) and low[nxt] == ",":
                nxt += 1
        elif m >= 1 and day(m - 1) and m - 1 not in taken:
            d = day(m - 1)
        if year(nxt):
            y = year(nxt)
        if d is None and y is None or not raw[m][:1].isupper() and y is None and nxt == m + 1:
            continue  # lower case: the day or year must follow the month ("30 may be" is no date)
        parts = [x for x in (d, y) if x is not None]
        key = f"D:{int(y.value) if y else '?'}-{_MONTHS[w]:02d}-{int(d.value) if d else '?'}"
        start = min([m] + [x.pos for x in parts])
        last = max([m] + [x.pos for x in parts])
        date = _Num(key, None, None, start, " ".join(raw[start:last + 1]).replace(" ,", ","))
        for x in parts:
            if (x is y or not raw[m][:1].isupper()) and not claim_side:
                # kept for a claim that gives the year alone, or the number a lower-case
                # "may 30" may be after all; not an item of proofs
                x.required = False
            else:
                # by identity: each number is its own (``_Num`` compares by value, field by field)
                at_x = next((i for i, o in enumerate(out) if o is x), None)
                if at_x is not None:
                    del out[at_x]
        taken.update(range(start, last + 1))
        used.update(range(start, last + 1))
        out.append(date)
    out.sort(key=lambda n: n.pos)
    return out


def date_matches(claim_key: str, quote_key: str) -> bool:
    """Is the claim's date the quote's, with the claim giving no part the quote lacks?"""
    c, q = claim_key[2:].split("-"), quote_key[2:].split("-")
    return all(a == "?" or a == b for a, b in zip(c, q, strict=True))


# --- the rules -------------------------------------------------------------------------------
def _unit_ok(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


def _fmt(num: _Num) -> str:
    """The number as written, with its bound and unit."""
    text = num.raw
    if num.unit_raw and num.unit_raw.lower() not in text.lower():
        text += num.unit_raw if num.unit_raw == "%" else " " + num.unit_raw
    elif num.unit and not num.unit_raw and num.unit in _CURRENCY.values():
        text = next(k for k, v in _CURRENCY.items() if v == num.unit) + text
    if num.cmp_raw:
        text = f"{num.cmp_raw} {text}"
    if num.negative:
        text = "-" + text
    return text


def _number_supported(c: _Num, qnums: list[_Num], by_key: dict[str, tuple[set, set, set]]) -> bool:
    """Is claim number c in the quotes? Same key with the same unit, or without a unit on
    one side when no quote gives that number another unit; a version prefix; a bound or
    an approximation satisfied by an exact quote number of the same quantity."""
    if c.key.startswith("D:"):
        return any(q.key.startswith("D:") and date_matches(c.key, q.key) for q in qnums)
    units = by_key.get(c.key)
    if units and c.cmp in _OPPOSITE and units[2] == {_OPPOSITE[c.cmp]}:
        return False  # "at most 4 GiB" where the quote says "more than 4 GiB"
    if units:
        given = units[1] if c.negative else units[0]  # units the quotes give the number
        if given and (c.unit is None or c.unit in given or given == {None}):
            return True  # same unit, or no unit on one side
    if "." in c.key or c.version:
        for q in qnums:
            if q.version and q.key.startswith(c.key + "."):
                return True
    if c.cmp and c.value is not None:
        for q in qnums:
            if q.value is None or q.cmp is not None or (c.negative and not q.negative):
                continue
            if c.unit is not None or q.unit is not None:
                if c.unit != q.unit:
                    continue
            elif c.noun is None or c.noun != q.noun:
                continue
            if c.cmp == "ge" and q.value >= c.value:
                return True
            if c.cmp == "le" and q.value <= c.value:
                return True
            if c.cmp == "approx" and abs(q.value - c.value) <= APPROX * abs(c.value):
                return True
    return False


def _closest(c: _Num, qnums: list[_Num]) -> _Num | None:
    best, best_d = None, None
    for q in qnums:
        if q.key == c.key:
            return q
        if q.value is None or c.value is None:
            d = Decimal(10**12)
        else:
            d = abs(q.value - c.value) / (abs(c.value) + 1)
        d += 0 if q.unit == c.unit else 1
        if best_d is None or d < best_d:
            best, best_d = q, d
    return best


def _by_key(qnums: list[_Num]) -> dict[str, tuple[set, set, set]]:
    """key -> (units given to it anywhere, units given to it as a negative number, the
    bounds it is given: "ge", "le", "approx" or None)."""
    out: dict[str, tuple[set, set, set]] = {}
    for q in qnums:
        units = out.setdefault(q.key, (set(), set(), set()))
        units[0].add(q.unit)
        units[2].add(q.cmp)
        if q.negative:
            units[1].add(q.unit)
    return out


def _numbers_by_key(t: _Text) -> dict[str, tuple[set, set, set]]:
    return _by_key(t.numbers)


_OPPOSITE = {"ge": "le", "le": "ge"}


def _check_numbers(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    if not any(c.required and not c.frame for c in claim.numbers):
        return None
    if len(quotes) == 1:  # (read, never changed: a quote's own list and index serve)
        qnums, by_key = quotes[0].numbers, derived(quotes[0], _numbers_by_key)
    else:
        qnums = [q for t in quotes for q in t.numbers]
        by_key = _by_key(qnums)
    grey = None
    for c in claim.numbers:
        if not c.required or c.frame:
            continue
        if _number_supported(c, qnums, by_key) or _maybe_stated(c, claim, quotes, qnums):
            continue
        expr = _expression(claim, c.pos)
        if expr:  # an operand of "2**10", "32 * 32": the reader does no arithmetic
            near = _closest(c, qnums)
            said = f" where the quote says {_fmt(near)}" if near is not None else ""
            grey = grey or ClaimCheck(ClaimStatus.UNCHECKED, None, f'not proven wrong (number): the claim says '
                                      f'"{expr}"{said}; the reader does not compute a product or power')
            continue
        why = _not_a_proof(c, claim, quotes, qnums)
        if why:
            grey = grey or _grey("number", f"the claim says {_fmt(c)}", why)
            continue
        near = _closest(c, qnums)
        if near is None:
            note = f"the claim says {_fmt(c)}, a number none of its quotes has"
        elif near.key == c.key:
            note = f"the claim says {_fmt(c)} where the quote says {_fmt(near)}"
        else:
            note = f"the claim says {_fmt(c)} where the quote says {_fmt(near)}"
        found = number_verdict(note, c, quotes)
        if found.status is ClaimStatus.UNSUPPORTED and not found.lacking:
            why = _value_unread(c, claim, quotes)
            if why:
                found = _grey("number", found.note, why)
        if found.status is ClaimStatus.UNSUPPORTED:
            return found
        grey = grey or found
    return grey


# --- shapes the rule cannot read as a mismatch (issue 25, fresh19) --------------------------
def _not_a_proof(c: _Num, claim: _Text, quotes: list[_Text], qnums: list[_Num]) -> str | None:
    """Why claim number ``c``, found in no quote, is still not proven wrong, else None:

    * a manual page's section ("find(1)"): part of a name, where no quote gives that command
      another section ("find(8)");
    * a rounded number, after "about" and the like or written with a scale word ("about 69
      thousand", "1.5 million"), that an exact quote number of the same unit rounds to at the
      claim's precision ("68980": 69 thousand to the thousand);
    * an integer inside a range the quote gives ("runlevels 2, 3 and 4" / "runlevel 2 to 4");
    * an approximate duration against an approximate one in another unit, the two within 15 %
      ("roughly four weeks" / "about a month");
    * a later version than one a quote gives as a lower bound ("2.4.20" / "2.4.19 and later");
    * kilobytes against a number with "k" glued on and no unit ("1 KiB" / "1k of memory": the
      reader takes "1k" for a thousand)."""
    if c.section_of is not None:
        if not any(_called(t, c.section_of) for t in quotes):
            return f'"{c.section_of}({c.raw})" names a manual page: its section is no quantity'
        return None
    if c.version:
        later = _later_version_of(c, quotes)
        if later:
            return f'the quote says "{later}", which the claim\'s {c.raw} may fall under'
        return None
    if c.value is None or c.key.startswith("D:") or c.key.endswith("th"):
        return None
    if c.unit == "kB" and c.raw.isdigit() and any(q.raw.lower() == c.raw + "k" and q.unit is None for q in qnums):
        return f'the quote\'s "{c.raw}k" may count kilobytes, as the claim\'s {_fmt(c)} does'
    q = _rounds_to(c, qnums)
    if q is not None:
        return f"the quote's {q.raw} rounds to the claim's {_fmt(c)}"
    r = _in_quote_range(c, claim, quotes)
    if r:
        return f"the claim's {c.raw} lies within the quote's range {r}"
    d = _about_as_long(c, quotes)
    if d:
        return f'the claim\'s {_fmt(c)} is close to the quote\'s "{d}", both approximate'
    return None


_LATER = frozenset({"later", "newer", "above", "onwards", "onward", "up"})


def _later_version_of(c: _Num, quotes: list[_Text]) -> str | None:
    """A quote version with the claim version's parts but a smaller last one, followed by "and
    later" / "or newer" / "onwards" ("2.4.19 and later" for the claim's "2.4.20"): the words,
    else None."""
    parts = c.key.split(".")
    if not all(p.isdigit() for p in parts):
        return None
    for t in quotes:
        for q in t.numbers:
            qparts = q.key.split(".")
            if not q.version or len(qparts) != len(parts) or qparts[:-1] != parts[:-1] \
                    or not qparts[-1].isdigit() or int(qparts[-1]) >= int(parts[-1]):
                continue
            after = tuple(t.low[q.pos + 1:q.pos + 3])
            if after[:1] in (("onwards",), ("onward",), ("+",)):
                return " ".join(t.raw[q.pos:q.pos + 2])
            if len(after) == 2 and after[0] in ("and", "or") and after[1] in _LATER:
                return " ".join(t.raw[q.pos:q.pos + 3])
    return None


def _called(t: _Text, name: str) -> bool:
    """Does the text write ``name`` followed by a number in brackets ("find(8)", "exit(0)")?"""
    low = t.low
    return any(low[x + 1] == "(" and t.kinds[x + 2] == _NUM and low[x + 3] == ")"
               for x in _indexes(list(low[:-3]), name))


_ROUNDING = frozenset({"about", "around", "approximately", "roughly", "some", "circa", "ca", "approx", "~",
                       "\u2248", "nearly", "almost", "close to", "or so", "an estimated", "estimated"})


def _rounds_to(c: _Num, qnums: list[_Num]) -> _Num | None:
    """An exact quote number within 10 % of the claim's rounded number that rounds to it at
    its precision, of the same unit and sign, and counting the same thing where both name it.
    The precision of "about N" is N's last non-zero digit ("about 69 thousand" to the thousand,
    "nearly 700000" to the ten thousand); of a whole number of digits before a scale word
    without a bound ("69 thousand") the scale. "nearly" / "almost" ask the quote number not to
    exceed it."""
    assert c.value is not None
    words = c.raw.lower().split()
    if c.value <= 0:
        return None
    if c.cmp_raw.lower() in _ROUNDING:
        exponent = c.value.normalize().as_tuple().exponent
        if not isinstance(exponent, int):
            return None
        step = Decimal(1).scaleb(exponent)
    elif c.cmp is None and len(words) == 2 and words[0].isdigit() and words[1] in _SCALES:
        step = Decimal(_SCALES[words[1]])
    else:
        return None
    below = c.cmp_raw.lower() in ("nearly", "almost")
    for q in qnums:
        if q.value is None or q.cmp is not None or q.version or q.unit != c.unit or q.negative != c.negative \
                or q.key.startswith("D:") or q.key.endswith("th") or q.value == c.value \
                or abs(q.value - c.value) > APPROX * c.value \
                or (c.noun is not None and q.noun is not None and c.noun != q.noun):
            continue
        if (q.value / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step == c.value \
                and not (below and q.value > c.value):
            return q
    return None


_RANGE_SEPARATORS = frozenset({"to", "through", "thru", "until", "till", "-", "\u2013", "\u2014"})


def _in_quote_range(c: _Num, claim: _Text, quotes: list[_Text]) -> str | None:
    """A quote range of integers "N to M", "N-M", "from N to M", "between N and M" of the same
    unit that the claim's integer lies strictly inside, where the claim names the range's
    thing (the word before its start) near the number, or gives both ends too."""
    assert c.value is not None
    if c.cmp is not None or c.negative or c.value != c.value.to_integral_value() or _range_end(claim, c.pos):
        return None
    cstems = set(claim.stems[max(0, c.pos - 8):c.pos])
    ckeys = {n.key for n in claim.numbers}
    for t in quotes:
        nums = t.numbers
        for a, b in zip(nums, nums[1:], strict=False):
            if not (a.raw.isdigit() and b.raw.isdigit()) or a.value is None or b.value is None or a.unit != b.unit or a.unit != c.unit or a.negative \
                    or b.negative or a.cmp is not None or b.cmp is not None or a.key.startswith("D:") \
                    or b.key.startswith("D:") or a.value != a.value.to_integral_value() \
                    or b.value != b.value.to_integral_value() or not a.value < c.value < b.value:
                continue
            between = t.low[a.pos + 1:b.pos]
            joined = (len(between) == 1 and between[0] in _RANGE_SEPARATORS) or not between \
                or (between == ["and"] and a.pos > 0 and t.low[a.pos - 1] == "between")
            if not joined:
                continue
            thing = t.stems[a.pos - 1] if a.pos > 0 and t.kinds[a.pos - 1] == _WORD else None
            if (thing is not None and thing in cstems) or {a.key, b.key} <= ckeys:
                return f"{a.raw} ... {b.raw}"
    return None


def _range_end(t: _Text, pos: int) -> bool:
    """Is the number at ``pos`` an end of a range the text gives itself ("1 through 9")?"""
    low = t.low
    return (pos + 1 < len(low) and low[pos + 1] in _RANGE_SEPARATORS) or (pos > 0 and low[pos - 1] in _RANGE_SEPARATORS)


# a unit of time in days (a month and a year on average)
_DAYS = {"s": Decimal(1) / 86400, "min": Decimal(1) / 1440, "h": Decimal(1) / 24, "day": Decimal(1),
         "week": Decimal(7), "month": Decimal("30.44"), "year": Decimal("365.25"), "decade": Decimal("3652.5"),
         "century": Decimal("36525")}


def _about_as_long(c: _Num, quotes: list[_Text]) -> str | None:
    """An approximate quote duration ("about a month", "around 30 days") in another unit that
    the claim's approximate duration ("roughly four weeks") is within 15 % of."""
    assert c.value is not None
    if c.cmp_raw.lower() not in _ROUNDING or c.unit not in _DAYS:
        return None
    days = c.value * _DAYS[c.unit]
    for t in quotes:
        got: list[tuple[Decimal, str, str]] = [(q.value, q.unit, q.raw) for q in t.numbers if q.value is not None
                                               and q.cmp == "approx" and q.unit in _DAYS]
        for x in range(len(t.low) - 2):  # "about a month": the reader takes no number
            unit = _UNITS.get(t.low[x + 2])
            if t.low[x] in _ROUNDING and t.low[x + 1] in ("a", "an", "one") and unit in _DAYS \
                    and t.kinds[x + 2] == _WORD:
                got.append((Decimal(1), unit, " ".join(t.raw[x:x + 3])))
        for value, unit, raw in got:
            if unit != c.unit and abs(value * _DAYS[unit] - days) <= Decimal("0.15") * days:
                return raw
    return None


# --- a claim value another quote value does not contradict (issue 25, fresh18) ---------------
# words between a negator and the claim's number that make the negation one of a bound or an
# order ("not more than 5", "not later than 2004"), which another value can contradict
_BOUNDING = frozenset({"before", "after", "until", "till", "since", "than", "earlier", "later", "by", "under",
                       "over", "above", "below", "within", "more", "less", "fewer", "least", "most", "beyond"})
# "between A and B", "from A to B": a range the quote gives
_RANGE_OPENERS = frozenset({"from", "between"})
_RANGE_JOINS = frozenset({"to", "until", "till", "through", "and"})


def _value_unread(c: _Num, claim: _Text, quotes: list[_Text]) -> str | None:
    """Why claim number ``c``, flagged against another quote value, is not proven wrong, else
    None:

    * the claim denies it and gives the value it holds instead, "not A but B" ("was not
      released on March 28, 2003 but on March 29, 2004"): the number stands in a clause the
      claim negates, no bound or order word between the negator and it, and another number
      follows "but" in its sentence (it is read for itself); another value in the quote does
      not contradict a denial;
    * a date after "by" ("shut down by July 2017") is a bound: a quote date of the same kind
      in the claim date's slot (``contradiction.same_slot``) and not after it ("in June
      2017") meets it;
    * a date that lies within a range the quote gives in its slot, "from July 1, 1983 to June
      1, 1986" or "between ... and ..." (the rule reads a date against one date of the quote,
      here the range's end or another date)."""
    at = c.pos
    if claim.clause[at] in claim.neg_clauses:
        neg = next((x for x in range(at - 1, -1, -1) if claim.neg[x] and claim.clause[x] == claim.clause[at]), None)
        _lo, hi = sentence_bounds(claim, at)
        but = next((x for x in range(at + 1, hi) if claim.low[x] == "but"), None)
        if neg is not None and but is not None and _BOUNDING.isdisjoint(claim.low[neg + 1:at]) \
                and any(n.pos > but and n.pos < hi for n in claim.numbers):
            return f'the claim denies {c.raw} ("{claim.raw[neg]} ... {c.raw} but ..."): another value does not ' \
                   "contradict a denial"
    if not c.key.startswith("D:"):
        return None
    slot = [(t, q) for t in quotes for q in t.numbers
            if same_kind(c, q) and q.key != c.key and same_slot(claim, at, at + 1, t, q.pos)]
    if at and claim.low[at - 1] == "by":
        met = next((q for _t, q in slot if cmp_dates(q.key, c.key) in (-1, 0)), None)
        if met is not None:
            return f'"{claim.raw[at - 1]} {c.raw}" is a bound, which the quote\'s {met.raw} meets'
    for t, q in slot:
        for o in t.numbers:
            first, last = (q, o) if q.pos < o.pos else (o, q)
            if o is q or not same_kind(c, o) or last.pos - first.pos > 8 or first.pos == 0 \
                    or t.low[first.pos - 1] not in _RANGE_OPENERS or _RANGE_JOINS.isdisjoint(t.low[first.pos + 1:last.pos]):
                continue
            if cmp_dates(first.key, c.key) in (-1, 0) and cmp_dates(c.key, last.key) in (-1, 0):
                return f"the claim's {c.raw} lies within the quote's range {first.raw} ... {last.raw}"
    return None



# --- numbers code cannot prove absent ----------------------------------------------------------
# A flag is a proof that the claim is wrong. These claim numbers are not matched by
# _number_supported, yet the quotes may well state them in a form the reader does not take
# for that number; the rule does not flag them (the claim stays unproven: grey).
# a name with digits glued on, perhaps a letter or three after them: "covid19", "fgf21", "mc4r"
_GLUED = re.compile(r"([^\W\d_]+)(\d+)[^\W\d_]{0,3}")


def _glued(quotes: list[_Text]) -> list[tuple[str, str]]:
    """(letters, digits) of every quote word made of letters with digits glued on."""
    return [x for q in quotes for x in derived(q, _glued_in)]


def _glued_in(q: _Text) -> list[tuple[str, str]]:
    out = []
    for w in q.lowset:
        if not w.isalpha():
            m = _GLUED.fullmatch(w)
            if m:
                out.append((m.group(1), m.group(2).lstrip("0") or "0"))
    return out


def _maybe_stated(c: _Num, claim: _Text, quotes: list[_Text], qnums: list[_Num]) -> bool:
    """Can the quotes state claim number ``c`` in a form the number reader does not match?

    * a name's number ("COVID-19", "SARS-CoV-2", "BRCA 1", "growth factor 21") where a
      quote writes a name with the same digits glued on ("COVID19", "SARSCoV2", "NRP1",
      "BRCA1", "FGF21"): after a hyphen when the glued letters and the word joined to the
      number begin with the same letter or one ends with the other; after a space when the
      glued letters are that word or end like the initials of the words before the
      number ("angiotensin-converting enzyme 2" / "rhACE2");
    * digits a quote writes with a letter glued on, which the reader takes for a name
      ("2 megabytes" / "2M pages");
    * "several hundred": no exact number to compare;
    * the ordinals "1st" / "2nd" where a quote has the word "first" / "second" (which the
      reader does not take for a number: "a second" is also a time);
    * a date whose parts the quotes give apart: a quote date of the same month that
      agrees on every part both give, a part it lacks being a number of the quotes
      ("April 9, 2011" / "April 9th ... 2011"); for a month and year, the quotes' month
      name and year; a plain number the quotes give as a date's day or year ("until 5
      april" / "until 5 April");
    * the same value in another notation: a leading point (".5" / "0.5"), trailing zeros of
      a decimal without a unit ("1.5" / "1.50"; not after a name or "version": "Python 3.1"
      / "Python 3.10" stays flagged), a scale glued on ("1.4 billion" / "1.4bn"); a sum or
      product the quote writes out ("1,048,576" / "1024 * 1024"); a metric unit converted
      ("20 cm" / "0.2 m");
    * a time in another unit against "a day", "an hour" ("every 24 hours" / "once a day"); an
      integer bound against the strict bound one below it ("two or more" / "more than one");
      a count a quote writes as a multiple ("3 parts" / "threefold").
    """
    if c.vague:
        return True
    if _bound_within_quote_bound(c, claim, qnums) or _over_a_period(c, qnums):
        return True
    if _written_otherwise(c, quotes, qnums) or _season_end(c, claim, qnums) or _same_value(c, qnums):
        return True
    if _another_notation(c, claim, quotes) or _computed(c, quotes) or _converted(c, claim, quotes):
        return True
    if _one_unit(c, quotes) or _strict_bound(c, qnums) or _fold_word(c, quotes) or _a_pair(c, quotes, qnums):
        return True
    if _occasions(c, claim, qnums):
        return True
    if c.key in ("1th", "2th") and ("first" if c.key == "1th" else "second") in union(quotes, "lowset"):
        return True
    if c.key.startswith("D:"):
        return _date_maybe_stated(c, quotes, qnums)
    if c.value is not None and not c.negative and c.key in _lead_digits(quotes):
        return True  # "2 megabytes" / "2M pages": digits with a letter the reader takes for a name
    if c.value is None or c.unit is not None:
        return False
    if c.name is not None and c.raw.isdigit() and _name_number_glued_on(c, quotes):
        return True
    digits = c.key.removesuffix("th")
    if c.before is not None and c.cmp is None and c.raw.isdigit():
        glued = _glued(quotes)
        if glued:
            if c.name is not None and any(d == digits and _same_name(c.name, letters) for letters, d in glued):
                return True
            initials = "".join(w[:1] for w in claim.low[max(0, c.pos - 4):c.pos] if w[:1].isalpha())
            for letters, d in glued:
                if d == digits and (letters == c.before or len(letters) >= 2
                                    and _common_tail(initials, letters) >= min(3, len(letters))):
                    return True
    if digits.isdigit():
        for q in qnums:
            if q.key.startswith("D:"):
                qy, _, qd = q.key[2:].split("-")
                if digits in (qy, qd):
                    return True
    return False


# "has been increased four times" / "Four successive rises": "N times" right after a verb of
# change ("increased", "raised", "rose", "changed") may count the occasions, not multiply; the
# quotes' same number without a unit may be that count
_CHANGE_VERBS = frozenset(stem(w) for w in "increased raised rose risen changed cut reduced lowered decreased "
                          "revised amended updated doubled moved fell fallen dropped".split())


def _occasions(c: _Num, claim: _Text, qnums: list[_Num]) -> bool:
    if c.unit != "x" or c.cmp is not None or c.pos == 0:
        return False
    before = claim.stems[c.pos - 1]
    if before not in _CHANGE_VERBS:
        return False
    return any(q.key == c.key and q.unit is None and not q.key.startswith("D:") for q in qnums)


_FOLD_WORDS = {2: ("twofold", "twice", "double", "doubled", "doubles", "doubling"),
               3: ("threefold", "thrice", "triple", "tripled", "triples", "tripling"),
               4: ("fourfold", "quadruple", "quadrupled"), 5: ("fivefold",), 6: ("sixfold",), 7: ("sevenfold",),
               8: ("eightfold",), 9: ("ninefold",), 10: ("tenfold",), 100: ("hundredfold",),
               1000: ("thousandfold",)}  # "one hundred times" / "a hundredfold" (fresh24)
_ROMAN = {1: "i", 2: "ii", 3: "iii", 4: "iv", 5: "v", 6: "vi", 7: "vii", 8: "viii", 9: "ix", 10: "x"}
_ROMAN_BEFORE = frozenset({"type", "phase", "class", "grade", "stage", "level", "group", "part", "chapter",
                           "war", "volume", "book", "act", "title", "schedule", "tier", "category"})
# a time unit in another: (claim unit, quote unit) -> quote units per claim unit
_TIME_IN = {("week", "day"): 7, ("year", "month"): 12, ("decade", "year"): 10, ("century", "year"): 100,
            ("day", "h"): 24, ("h", "min"): 60, ("min", "s"): 60, ("s", "ms"): 1000}
_SHARE_WORDS = {50: ("half",), 25: ("quarter",)}


def _written_otherwise(c: _Num, quotes: list[_Text], qnums: list[_Num]) -> bool:
    """Do the quotes write the claim number in a form the reader does not take for it: a
    multiple as a word ("2-fold" / "twofold", "2 times" / "twice"), a numbered kind in Roman
    numerals ("type 2" / "type II", "phase 3" / "phase III"), a time in a smaller unit ("2
    weeks" / "14 days", "120 minutes" / "2 hours"), a share as a word ("50 %" / "half")?"""
    if c.value is None or c.negative or c.cmp is not None or c.value != c.value.to_integral_value():
        return False
    n = int(c.value)
    words = union(quotes, "lowset") if quotes else set()
    if c.unit == "x" and not words.isdisjoint(_FOLD_WORDS.get(n, ())):
        return True
    if c.key == f"{n}th" and not words.isdisjoint(w for w, v in _MORE_ORDINALS.items() if v == n):
        return True  # "20th" / "twentieth"
    if c.unit is None and c.before in _ROMAN_BEFORE and n in _ROMAN:
        for q in quotes:
            if any(q.low[x] == c.before and q.low[x + 1] == _ROMAN[n] for x in range(len(q.low) - 1)):
                return True
    for (cu, qu), k in _TIME_IN.items():
        if c.unit == cu and any(q.unit == qu and q.value == n * k and q.cmp is None for q in qnums):
            return True
        if c.unit == qu and n % k == 0 and any(q.unit == cu and q.value == n // k and q.cmp is None for q in qnums):
            return True  # "120 minutes" / "2 hours"
    return c.unit == "%" and not words.isdisjoint(_SHARE_WORDS.get(n, ()))


_MORE_ORDINALS = {w: i + 11 for i, w in enumerate(
    "eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split())}
_MORE_ORDINALS.update({w: 10 * (i + 2) for i, w in enumerate(
    "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split())})
_MORE_ORDINALS["hundredth"] = 100


def _same_value(c: _Num, qnums: list[_Num]) -> bool:
    """A quote number of the claim number's value written with other zeros ("5 years" /
    "5.0 years", "30 %" / "30.0 %": with a unit, or a whole number; a unit on the claim's side
    only when the quotes give that value none, "thirty seconds" / "30.0"), or an approximation
    against a quote approximation of the same unit within 10 % ("about 40 percent" / "some
    41 percent"). Versions are left out ("3.10" is not "3.1")."""
    if c.value is None or c.version:
        return False
    units = set()  # the units the quotes give a number of the claim number's value
    for q in qnums:
        if q.value is None or q.version or q.negative != c.negative or q.key.startswith("D:") \
                or q.key.endswith("th") != c.key.endswith("th"):
            continue  # an ordinal is not a count ("3" / "third")
        if q.value == c.value and q.cmp == c.cmp and (c.unit is not None or c.value == c.value.to_integral_value()):
            units.add(q.unit)
        if q.unit == c.unit and c.cmp == "approx" and q.cmp == "approx" \
                and abs(q.value - c.value) <= APPROX * abs(c.value):
            return True
    # the same unit; or, as for the same digits (``_number_supported``), the unit on one side
    # only when no quote gives the value another one ("thirty seconds" / "Defaults to 30.0")
    return c.unit in units or units == {None}


def _season_end(c: _Num, claim: _Text, qnums: list[_Num]) -> bool:
    """The two-digit end of a season or span right after a year ("2019–20", "2019/20") where a
    quote gives the full year ("2019-2020")."""
    if c.value is None or len(c.raw) != 2 or not c.raw.isdigit():
        return False
    # the numbers are in token order: look at the two tokens before alone (a claim of many
    # "2019-20" must not compare each with all)
    nums = claim.numbers
    prev = []
    for i in range(bisect.bisect_left(nums, c.pos - 2, key=lambda x: x.pos), len(nums)):
        x = nums[i]
        if x.pos >= c.pos:
            break
        if x.value is not None and 1000 <= x.value <= 2100 and x.value % 100 + 1 == int(c.raw) % 100:
            prev.append(x)
    return bool(prev) and any(q.value == prev[0].value + 1 for q in qnums if q.value is not None and q.unit is None)


_PERIODS = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "decade", "century"})


def _over_a_period(c: _Num, qnums: list[_Num]) -> bool:
    """A claim bound whose number a quote gives after "over" with a unit of time: "over 8
    months" is as often the period a thing was followed over as "more than 8 months", so
    a claim's "up to 8 months" may restate it."""
    return c.cmp is not None and c.unit in _PERIODS and any(
        q.key == c.key and q.unit == c.unit and q.cmp == "ge" and q.cmp_raw.lower() == "over" for q in qnums)


def _bound_before_a(c: _Num, claim: _Text) -> str | None:
    """The bound written before "a" of a round claim number ("more than a million"), which
    the reader does not attach to the number."""
    if c.cmp or c.before != "a":
        return None
    b = c.pos - 1  # the "a"
    for phrase, kind in _COMPARATORS:
        if b - len(phrase) >= 0 and tuple(claim.low[b - len(phrase):b]) == phrase:
            return kind
    return None


def _bound_within_quote_bound(c: _Num, claim: _Text, qnums: list[_Num]) -> bool:
    """A round claim bound that a quote bound of the same direction implies: "more than a
    million" / "over 1.1 million" (same unit or none). Only a round "a million", "a
    thousand": a claim that changes a bound's digits ("more than 10 seconds" / "more than
    20 seconds") misstates its quote, even where it follows from it."""
    bound = _bound_before_a(c, claim)
    if bound not in ("ge", "le") or c.value is None:
        return False
    return any(q.cmp == bound and q.value is not None and q.unit == c.unit and q.negative == c.negative
               and (q.value >= c.value if bound == "ge" else q.value <= c.value) for q in qnums)


def _name_number_glued_on(c: _Num, quotes: list[_Text]) -> bool:
    """A name's number ("COVID-19") that a quote writes with the next word glued on
    ("COVID-19moved": a scraping slip the reader takes for a name)."""
    digits = c.raw.lstrip("0") or "0"
    for t in quotes:
        for x, w in enumerate(t.low[:-1]):
            if w == c.name:
                m = _DIGITS_LETTERS.fullmatch(t.low[x + 1])
                if m and (m.group(1).lstrip("0") or "0") == digits:
                    return True
    return False


_DIGITS_LETTERS = re.compile(r"(\d+)[^\W\d_]+")


_LEAD = re.compile(r"(\d+)[^\W\d_]{1,2}")  # "2m", "1g", "4k": digits, then one or two letters


def _lead_digits(quotes: list[_Text]) -> set[str]:
    """The digits of every quote word made of digits and one or two letters ("2M", "1G")."""
    return set().union(*(derived(q, _lead_digits_in) for q in quotes))


def _lead_digits_in(q: _Text) -> frozenset[str]:
    out = set()
    for w in q.lowset:
        if w[:1].isdigit():
            m = _LEAD.fullmatch(w)
            if m:
                out.add(m.group(1).lstrip("0") or "0")
    return frozenset(out)


def _date_maybe_stated(c: _Num, quotes: list[_Text], qnums: list[_Num]) -> bool:
    """Claim date ``c`` (key "D:<year>-<month>-<day>"): do the quotes give it in parts?"""
    cy, cm, cd = c.key[2:].split("-")
    if cy != "?" and cd != "?" and _numeric_date(int(cy), int(cm), int(cd), quotes):
        return True
    plain = {q.key for q in qnums if q.value is not None}  # quote numbers, dates' years among them
    for q in qnums:
        if q.key.startswith("D:"):
            qy, qm, qd = q.key[2:].split("-")
            if qm == cm and _agree(cy, qy, plain) and _agree(cd, qd, plain):
                return True
    if cd != "?" or cy == "?":
        return False
    if _numeric_date(int(cy), int(cm), None, quotes):  # "November 2009" / "2009-11-06"
        return True
    # a month and a year ("by March 2021"): the month's name and the year, apart
    names = {w for w, k in _MONTHS.items() if k == int(cm)}
    return cy in plain and any(r[:1].isupper() and r.lower() in names for q in quotes for r in q.rawset)


def _agree(a: str, b: str, plain: set[str]) -> bool:
    """Does the claim date's part ``a`` agree with the quote date's part ``b``: equal, not
    given by the claim, or not given by the quote date and a number of the quotes?"""
    return a == "?" or a == b or (b == "?" and a in plain)


_GREEK = {"\u03b1": "alpha", "\u03b2": "beta", "\u03b3": "gamma", "\u03b4": "delta", "\u03ba": "kappa"}


def _same_name(word: str, letters: str) -> bool:
    """May ``letters`` glued to a number ("cov" of "SARSCoV2", "nrp" of "NRP1", "\u03b1" of
    "\u03b11-AT") stand for ``word`` joined to that number by a hyphen ("SARS-CoV-2",
    "Neuropilin-1", "Alpha-1")?"""
    letters = _GREEK.get(letters, letters)
    return word[0] == letters[0] or word.endswith(letters) or letters.endswith(word)


def _common_tail(a: str, b: str) -> int:
    """The length of the longest common ending of a and b ("ace" / "rhace": 3)."""
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _numeric_date(year: int, month: int, day: int | None, quotes: list[_Text]) -> bool:
    """Does a quote write the date in digits: "1/25/2019", "25/1/2019" or "2019-01-25"? With no
    ``day`` (a claim's "November 2009"), a digit date of that month and year, any day, counts
    (never a proof: the number rule only keeps from flagging it)."""
    def wanted(got: tuple[int, ...] | None) -> bool:
        if got is None:
            return False
        if day is not None:
            return got in {(month, day, year), (day, month, year), (year, month, day)}
        a, b, c = got
        return (c == year and month in (a, b)) or (a == year and b == month)

    for q in quotes:
        low, kinds = q.low, q.kinds
        for i in range(len(low) - 2):
            if kinds[i] == _NUM and kinds[i + 1] != _NUM:
                if i + 4 < len(low) and low[i + 1] == "/" and low[i + 3] == "/" and kinds[i + 2] == _NUM \
                        and kinds[i + 4] == _NUM and wanted(_ints(low[i], low[i + 2], low[i + 4])):
                    return True
            elif kinds[i] == _NUM and kinds[i + 1] == _NUM and kinds[i + 2] == _NUM \
                    and len(low[i]) == 4 and wanted(_ints(low[i], low[i + 1], low[i + 2])):
                return True  # "2019-01-25": three numbers joined by hyphens
    return False


def _ints(*parts: str) -> tuple[int, ...] | None:
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


# --- the same value written another way (never a proof of a mismatch) -------------------------
_SCALE_SUFFIX = re.compile(r"(\d+(?:\.\d+)?)(k|m|mn|mln|b|bn|tn)")
_SUFFIX_SCALE = {"k": 10**3, "m": 10**6, "mn": 10**6, "mln": 10**6, "b": 10**9, "bn": 10**9, "tn": 10**12}
# a scale written as its own word after the number ("5 mln bucks"); not "m", "k" or "b"
# (metres, a grade, a bit)
_SCALE_WORD = {"mn": 10**6, "mln": 10**6, "bn": 10**9, "bln": 10**9, "tn": 10**12}
_VERSION_WORDS = frozenset({"version", "versions", "release", "releases", "v", "python", "rfc", "pep"})


def _after_name(t: _Text, pos: int) -> bool:
    """Is the number at ``pos`` written right after a name or a version word ("Python 3.10",
    "version 1.50"), where "3.1" and "3.10" are two releases?"""
    if pos == 0 or t.kinds[pos - 1] != _WORD:
        return False
    return t.low[pos - 1] in _VERSION_WORDS or (t.raw[pos - 1][:1].isupper() and not t.sent_start[pos - 1])


def _leading_point(t: _Text, n: _Num) -> Decimal | None:
    """The value of a number written with a leading point (".5": the reader takes "." and "5")."""
    p = n.pos
    if p and t.low[p - 1] == "." and n.raw.isdigit() and n.unit is None and n.cmp is None \
            and (p < 2 or t.kinds[p - 2] != _NUM):
        return Decimal("0." + n.raw)
    return None


def _another_notation(c: _Num, claim: _Text, quotes: list[_Text]) -> bool:
    """Do the quotes give the claim number's value in a notation the reader keys otherwise:
    a leading point (".5" / "0.5", either side), trailing zeros of a decimal without a unit
    ("1.5" / "1.50", not after a name or a version word), a scale glued on ("1.4bn") or after it ("5 mln")?"""
    if c.value is None or c.version or c.negative or c.key.startswith("D:") or c.key.endswith("th"):
        return False
    cval = _leading_point(claim, c) or c.value
    plain = c.unit is None and c.cmp is None
    for t in quotes:
        for q in t.numbers:
            if q.value is None or q.version or q.negative or q.key.endswith("th"):
                continue
            if plain and (cval != c.value or _leading_point(t, q) is not None) and \
                    (_leading_point(t, q) or q.value) == cval:
                return True  # ".5" / "0.5"
            after = t.low[q.pos + 1] if q.pos + 1 < len(t.low) else ""
            if after in _SCALE_WORD and c.value >= 1000 and q.value * _SCALE_WORD[after] == c.value:
                return True  # "5 million" / "5 mln"
            if plain and q.unit is None and q.cmp is None and q.value == c.value and "." in c.key + q.key \
                    and c.value != c.value.to_integral_value() and not _after_name(claim, c.pos) \
                    and not _after_name(t, q.pos):
                return True  # "1.5" / "1.50"
        for w in t.lowset if c.value >= 1000 else ():  # a glued scale is at least a thousand
            if w[:1].isdigit():
                m = _SCALE_SUFFIX.fullmatch(w)
                if m and Decimal(m.group(1)) * _SUFFIX_SCALE[m.group(2)] == c.value:
                    return True  # "1.4 billion" / "1.4bn"
    return False


_OPERATORS = frozenset({"*", "\u00d7", "+"})
_POWER_OR_PRODUCT = frozenset({"*", "\u00d7", "^"})


def _expression(t: _Text, pos: int) -> str | None:
    """The product or power number ``pos`` of a claim is an operand of ("2**10", "2^10",
    "32 * 32"), as the claim writes it (its tokens joined, spaces dropped), or None."""
    def operator_end(i: int, step: int) -> int:  # the token past the operator at i ("**" is two)
        j = i
        while 0 <= j < len(t.low) and t.low[j] in _POWER_OR_PRODUCT and abs(j - i) < 2:
            j += step
        return j if j != i else -1
    digits = {n.pos for n in t.numbers}
    start = end = pos
    while (j := operator_end(start - 1, -1)) >= 0 and j in digits:
        start = j
    while (j := operator_end(end + 1, 1)) >= 0 and j in digits:
        end = j
    return "".join(t.raw[start:end + 1]) if end > start else None


def _computed(c: _Num, quotes: list[_Text]) -> bool:
    """Is the claim number a product a quote writes out ("1,048,576" / "1024 * 1024": the two
    numbers right beside the sign), or a sum of two exact numbers of a quote sentence with a
    "+" between them ("256K" / "128K for windowBits + 128K for memLevel")? The reader does not
    do the arithmetic, so it cannot show a mismatch."""
    if c.value is None or c.negative or c.cmp is not None:
        return False
    for t in quotes:
        if not any(op in t.low for op in _OPERATORS):
            continue
        nums = [q for q in t.numbers if q.value is not None and not q.version and q.cmp is None
                and not q.negative and _unit_ok(c.unit, q.unit)][:50]  # bounded: pairs of at most 50
        at = {q.pos: q for q in nums}
        for x, q in enumerate(nums):
            p = q.pos + 1
            if p + 1 < len(t.low) and t.low[p] in ("*", "\u00d7") and p + 1 in at \
                    and q.value * at[p + 1].value == c.value:
                return True
            for r in nums[x + 1:]:
                if q.value + r.value == c.value and "+" in t.low[q.pos + 1:r.pos] \
                        and not any(t.sent_start[q.pos + 1:r.pos + 1]):
                    return True
    return False


# metric units of one quantity, in a common base
_METRIC = {"mm": ("len", Decimal("0.001")), "cm": ("len", Decimal("0.01")), "metre": ("len", Decimal(1)),
           "km": ("len", Decimal(1000)), "mg": ("mass", Decimal("0.001")), "g": ("mass", Decimal(1)),
           "kg": ("mass", Decimal(1000)), "t": ("mass", Decimal(10**6)), "ml": ("vol", Decimal("0.001")),
           "l": ("vol", Decimal(1)), "W": ("pow", Decimal(1)), "kW": ("pow", Decimal(1000)),
           "MW": ("pow", Decimal(10**6)), "GW": ("pow", Decimal(10**9)), "TW": ("pow", Decimal(10**12)),
           "Wh": ("energy", Decimal(1)), "kWh": ("energy", Decimal(1000)), "MWh": ("energy", Decimal(10**6)),
           "GWh": ("energy", Decimal(10**9)), "TWh": ("energy", Decimal(10**12)), "Hz": ("freq", Decimal(1)),
           "kHz": ("freq", Decimal(1000)), "MHz": ("freq", Decimal(10**6)), "GHz": ("freq", Decimal(10**9))}


def _metric_unit(t: _Text, n: _Num) -> str | None:
    """The metric unit of a number: its read unit, or a bare "m" after it (metre; the reader
    leaves "m" alone, it may be a million)."""
    if n.unit is not None:
        return n.unit
    p = n.pos + 1
    return "metre" if p < len(t.low) and t.low[p] == "m" and t.kinds[p] == _WORD else None


def _converted(c: _Num, claim: _Text, quotes: list[_Text]) -> bool:
    """Does a quote give the claim's amount in another metric unit of the same quantity ("20
    cm" / "0.2 m", "1.5 kg" / "1500 g")?"""
    if c.value is None or c.negative or c.version:
        return False
    cu = _METRIC.get(_metric_unit(claim, c) or "")
    if cu is None:
        return False
    for t in quotes:
        for q in t.numbers:
            qu = _METRIC.get(_metric_unit(t, q) or "") if q.value is not None and q.cmp == c.cmp else None
            if qu is not None and qu[0] == cu[0] and qu[1] != cu[1] and q.value * qu[1] == c.value * cu[1]:
                return True
    return False


_ONE_BEFORE = frozenset({"a", "an", "per", "every", "each", "one"})


def _one_unit(c: _Num, quotes: list[_Text]) -> bool:
    """Does a quote give one of a larger unit of time ("once a day", "per hour") that the
    claim's amount of a smaller unit equals ("every 24 hours", "60 minutes")?"""
    if c.value is None or c.cmp is not None or c.negative:
        return False
    for (cu, qu), k in _TIME_IN.items():
        if c.unit == qu and c.value == k:
            for t in quotes:
                for x in range(1, len(t.low)):
                    if t.low[x - 1] in _ONE_BEFORE and _UNITS.get(t.low[x]) == cu and t.kinds[x] == _WORD:
                        return True
    return False


_STRICT = frozenset({"more than", "greater than", "over", "above", "fewer than", "less than", "under", "below"})


def _strict_bound(c: _Num, qnums: list[_Num]) -> bool:
    """An integer bound the quote gives as the strict bound next to it: "two or more" / "more
    than one", "at most 4" / "fewer than 5" (same unit, or none)."""
    if c.value is None or c.cmp not in ("ge", "le") or c.value != c.value.to_integral_value():
        return False
    want = c.value - 1 if c.cmp == "ge" else c.value + 1
    return any(q.cmp == c.cmp and q.value == want and q.unit == c.unit and q.cmp_raw.lower() in _STRICT
               for q in qnums)


def _fold_word(c: _Num, quotes: list[_Text]) -> bool:
    """A count without a unit that a quote writes as a multiple in "-fold" ("3 parts" / "a
    threefold job")."""
    if c.value is None or c.unit is not None or c.cmp is not None or c.value != c.value.to_integral_value():
        return False
    words = _FOLD_SUFFIXED.get(int(c.value))
    return words is not None and any(not t.lowset.isdisjoint(words) for t in quotes)


_FOLD_SUFFIXED = {n: frozenset(w for w in ws if w.endswith("fold")) for n, ws in _FOLD_WORDS.items()}  # not "twice"


def _a_pair(c: _Num, quotes: list[_Text], qnums: list[_Num]) -> bool:
    """"two" where the quotes give no number at all and name two things joined by "and"
    ("two linked ports" / "port1 and port2 ... linked"): the quotes may count them so."""
    if c.key != "2" or c.unit is not None or c.cmp is not None or c.raw.lower() != "two":
        return False
    if any(q.value is not None and q.required for q in qnums):
        return False
    return any(w in t.lowset for t in quotes for w in ("and", "both"))
