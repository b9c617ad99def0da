"""The public check of one claim against its quotes: the rules in order, the first that
fires decides (see the package's docstring)."""

from __future__ import annotations

import re
from itertools import islice

from .analysis import _analyse_claim, _analyse_quote
from .antonym import _check_antonym
from .attribution import reported_only
from .framing import _strip_frames
from .contradiction import in_place
from .near_copy import _check_near_copy, _function_word_swapped, _preposition_dropped
from .negation import _check_negation
from .numbers import _check_numbers
from .proof import _prove, small_word_changed
from .types import _WORD, ClaimCheck, ClaimStatus, _Text, derived, union
from .words import _IRREGULAR_BASE, _STOP


def check_claim(claim: str, quotes: list[str]) -> ClaimCheck:
    """Compare a claim with the quote text(s) of its refs. Deterministic; no model."""
    nonblank = [q for q in quotes if q and q.strip()]  # computed once: the rules, in_place and the proof read it
    qs = [_analyse_quote(q) for q in nonblank]
    c = _analyse_claim(claim or "")
    if not any(c.content) and not any(c.neg) and not c.numbers:
        return ClaimCheck(ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own")
    if not qs:
        return ClaimCheck(ClaimStatus.UNCHECKED, None, "no quote to compare with")
    grey = None  # a difference a rule found but could not prove a contradiction (``contradiction``)
    for rule in (_check_numbers, _check_negation, _check_near_copy, _check_antonym):
        result = rule(c, qs)
        if result is None:
            continue
        if result.status is ClaimStatus.UNSUPPORTED:
            result = in_place(result, claim or "", nonblank)
            if result.status is ClaimStatus.UNSUPPORTED:
                return result
        grey = grey or result
    swap = _underscore_name_swapped(claim or "", nonblank)
    if swap:
        result = in_place(ClaimCheck(ClaimStatus.UNSUPPORTED, "near_copy:entity",
                                     f'the claim says "{swap[0]}" where the quote says "{swap[1]}"'), claim or "", nonblank)
        if result.status is ClaimStatus.UNSUPPORTED:
            return result
        grey = grey or result
    if grey is not None:
        return grey  # never shown supported: the difference is left to the judge
    result = _prove(c, nonblank, qs)  # the analyses above, not a second pass of the quote cache
    if result.status is ClaimStatus.SUPPORTED and result.rule in ("copy", "proof"):
        note = _not_as_written(claim or "", quotes, c, qs)
        if note:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, note)
        reported = reported_only(claim or "", c, nonblank, _prove)
        if reported is not None:
            return reported
    return result


# A name of code that starts with "_" ("__eq__", "_private"): the word analysis reads its letters
# only ("eq"), so the name rules do not see it as a name. Read here from the text, with the
# three words before it.
_UNDERSCORE_NAME = re.compile(r"(?<![\w.])_+[A-Za-z][A-Za-z0-9_]*")
_WORD_RUN = re.compile(r"\w+")


def _underscore_name_swapped(claim: str, quotes: list[str]) -> tuple[str, str] | None:
    """A name of code starting with "_" in the claim that no quote writes, where a quote writes
    another such name (of the same shape: "__x__" for "__y__", "_x" for "_y") after the same
    three words ("your tenth implementation of __eq__" / "your tenth implementation of
    __gt__"), and the claim does not write that other name: one name put for another in the
    same place. (The claim, name, quote name), or None."""
    if "_" not in claim:
        return None
    for m in _UNDERSCORE_NAME.finditer(claim):
        name = m.group()
        if any(name in q for q in quotes):
            continue
        before = [w.lower() for w in _WORD_RUN.findall(claim[:m.start()])[-3:]]
        if len(before) < 3:
            continue
        dunder = name.startswith("__") and name.endswith("__")
        for q in quotes:
            for n in _UNDERSCORE_NAME.finditer(q):
                other = n.group()
                if other in claim or (other.startswith("__") and other.endswith("__")) != dunder:
                    continue
                if [w.lower() for w in _WORD_RUN.findall(q[:n.start()])[-3:]] == before:
                    return name, other
    return None


def _not_as_written(claim: str, quotes: list[str], c: _Text, qs: list[_Text]) -> str | None:
    """Why a claim whose words the quotes show still does not say what they say (the word
    analysis compares stems in lower case, without "'s", "of" and most function words), or
    None."""
    bare = _bare_phrase(c)
    if bare:
        return f'the claim "{bare}" is a bare name or phrase: it states nothing a quote could show'
    frag = _fragment(claim, quotes)
    if frag:
        return frag
    lead = _lead_dropped(claim, quotes)
    if lead:
        return (f'the claim leaves out its quote\'s opening "{lead}", which ties the statement to a case the claim '
                'does not name')
    literal = literal_missing(claim, quotes)
    if literal:
        value, quoted = literal
        if not quoted:
            return (f'the claim\'s "{value}" is not written so in its quotes (code is compared as written, not by '
                    'its stem or case)')
        return (f'the claim\'s literal "{value}" is not written so in its quotes (a value in quote marks, backticks '
                'or a list is compared as written, not by its stem or case)')
    fw = _function_word_swapped(c, qs)
    if fw:
        return f'the claim says "{fw[0]}" where its quote says "{fw[1]}"'
    cased = recased_word(c, qs)
    if cased:
        why = "a name in code is case-sensitive" if cased[2] else "the case may change what it names"
        return f'the claim writes "{cased[0]}" where its quotes write "{cased[1]}" ({why})'
    sym = _symbol_missing(claim, quotes)
    if sym:
        return (f'the claim\'s "{sym}" is not written so in its quotes (the word analysis skips symbols, and a '
                'symbol in a command or option changes what it names)')
    swap = _possessive_turned(claim, quotes)
    if swap:
        return f'the claim\'s "{swap}" turns round an owner its quotes write with a possessive (roles swapped?)'
    cut = _pair_cut(claim, quotes)
    if cut:
        return f'the claim\'s "{cut}" stops before the second part its quotes give it (a copy cut short?)'
    cut = _condition_cut(claim, quotes)
    if cut:
        return (f'the claim\'s condition "{cut}" stops where its quote goes on with "and ..." (a condition cut '
                'short asks less than the quote\'s)')
    prep = _preposition_dropped(c, qs)
    if prep:
        return f'the claim\'s "{prep[1]}" stands without the preposition of its quote\'s "{prep[0]}"'
    me = _first_person(claim, quotes)
    if me:
        return f'the claim\'s "{me}" speaks of its writer, whom no quote names (the word analysis skips pronouns)'
    return small_word_changed(c, None, qs)


# A claim with no predicate - a bare name or phrase ("Cetshwayo", an answer cut from its
# question) - says nothing true or false: a quote that writes the name shows no fact. Grey
# when the claim is at most three words, none a form of "be" / "have" / "do", a modal, a
# negator, a past form ("refused") or, after the first word, a lower-case word in "-s" (perhaps a
# verb: "The server restarts"), and holds no number.
_BARE_MAX = 3
_VERBISH = frozenset("be is are was were been being am have has had having do does did done can could may might "
                     "must shall should will would ought".split())


def _bare_phrase(c: _Text) -> str | None:
    words = [c.raw[k] for k in range(len(c.raw)) if c.kinds[k] == _WORD]
    if not words or len(words) > _BARE_MAX or c.numbers or any(c.neg):
        return None
    if any(w.lower() in _VERBISH or (w.lower().endswith("ed") and len(w) > 4) or "'" in w for w in words):
        return None
    if any(w.islower() and w.endswith("s") and not w.endswith("ss") for w in words[1:]):
        return None  # "The server restarts", "Both servers restart": maybe a verb in the present
    return " ".join(words)


# A longer claim that is no sentence of its own states nothing a quote could show either,
# however many of the quote's words it repeats:
# * "and also the creator of reCAPTCHA", "but despite initially keeping it a secret": it opens
#   with "and" / "or" / "but" / "nor" and has no word that may be a verb;
# * "But that he worships his wife": it opens with a conjunction and "that" / "which" /
#   "who": a clause cut from the sentence that says who claims it, or what it is said of;
# * "The principal means of transportation in many parts of the world." copied from "They
#   are the principal means ...": it has no form of "be" / "have" / "do", modal, past form
#   or "n't", and wherever a quote writes its opening words they follow a form of "be": the
#   claim is the complement of the quote's verb, without the subject it is said of.
# A word "may be a verb" when it is one of those, or a lower-case word in "-s" that is no
# function word ("those") and does not end like a noun or adjective in "-ss", "-us", "-is".
_CONJ = frozenset({"and", "or", "but", "nor"})
_SUBORDINATE = frozenset({"that", "which", "who", "whom", "whose"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "am", "become", "becomes", "became",
                 "remain", "remains", "remained"})
_RAW_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_IRREGULAR_NOUNS = frozenset({"children", "indices", "analyses", "criteria", "men", "women", "data", "bytes",
                              "better", "best"})
_IRREGULAR_PAST = frozenset(w for w, b in _IRREGULAR_BASE.items() if b not in ("be", "have", "do")
                            and not w.endswith("ing") and w not in _IRREGULAR_NOUNS)
_NOT_VERB_S = frozenset({"always", "perhaps", "sometimes", "besides", "afterwards", "nowadays", "plus", "thus",
                         "whereas", "across", "towards", "upwards", "downwards", "series", "species", "news"})


_CONTRACTED = re.compile(r"(?:n['\u2019]t|['\u2019](?:re|ve|ll|d|m))$|^(?:it|he|she|that|there|what|who|here)['\u2019]s$")


def _strict_verb(low: list[str]) -> bool:
    return any(w in _VERBISH or w in _IRREGULAR_PAST or (w.endswith("ed") and len(w) > 3)
               or (("'" in w or "\u2019" in w) and _CONTRACTED.search(w)) for w in low)  # (each form has one)


def _may_be_verb(words: list[str]) -> bool:
    low = [w.lower() for w in words]
    if _strict_verb(low):
        return True
    return any(w.islower() and w.endswith("s") and len(w) > 2 and not w.endswith(("ss", "us", "is"))
               and w not in _STOP and w not in _NOT_VERB_S for w in words)


def _fragment(claim: str, quotes: list[str]) -> str | None:
    words = _RAW_WORD.findall(claim)
    if len(words) <= _BARE_MAX:
        return None  # _bare_phrase's
    low = [w.lower() for w in words]
    if low[0] in _CONJ and (low[1] in _SUBORDINATE or not _may_be_verb(words)):
        return (f'the claim "{" ".join(words[:4])} ..." is a fragment opening with "{words[0]}": it states no '
                'proposition of its own a quote could show')
    if _strict_verb(low):
        return None
    lows = [q.lower() for q in quotes]
    if not any(low[0] in q for q in lows):
        return None  # the pattern below holds the first word as written: no quote writes it
    head = r"\b" + r"\W+".join(re.escape(w) for w in low[:3]) + r"\b"
    before = [re.findall(r"[^\W\d_]+", q[:m.start()])[-1:] for q in lows for m in re.finditer(head, q)]
    if before and all(b and b[0] in _BE for b in before):
        return (f'the claim "{" ".join(words[:4])} ..." has no verb of its own and its quotes write it after '
                f'"{before[0][0]}": a complement without the subject it is said of')
    return None


# "debit the Intercorporate Investment account and credit Investment Revenue." copied from "To
# do this, debit ...": the quote's sentence opens with a short phrase that ties it to a case
# named before ("To do this,", "In that case,", "For such files,", "Otherwise,"), and the claim
# states it for every case. Grey when wherever a quote writes the claim's opening words they
# follow such a phrase: at most ``_LEAD_MAX`` words from the sentence start to a comma, with a
# case word, or an anaphor and a verb (``_ties_to_a_case``).
_LEAD_MAX = 5
_ANAPHORS = frozenset({"this", "that", "these", "those", "such"})
_CASE_WORDS = frozenset({"case", "otherwise", "then"})
_LEAD_WORDS = _ANAPHORS | _CASE_WORDS


def _ties_to_a_case(lw: list[str]) -> bool:
    """A case word ("In that case", "Otherwise"), or an anaphor with a verb ("To do this", "Having
    done that"; not "To this day", "Along with this")."""
    return not _CASE_WORDS.isdisjoint(lw) or (not _ANAPHORS.isdisjoint(lw) and any(
        w in _VERBISH or w.endswith(("ed", "ing")) for w in lw))


def _lead_dropped(claim: str, quotes: list[str]) -> str | None:
    words = [w.lower() for w in _RAW_WORD.findall(claim)]
    if len(words) < 3 or words[0] in _LEAD_WORDS:
        return None
    lows = [q.lower() for q in quotes]
    if not any(words[0] in low for low in lows):
        return None  # the pattern below holds the first word as written: no quote writes it
    head = re.compile(r"\b" + r"\W+".join(re.escape(w) for w in words[:3]) + r"\b")
    leads = []
    for low in lows:
        for m in head.finditer(low):
            before = low[:m.start()]
            start = max(before.rfind(". "), before.rfind("! "), before.rfind("? "), before.rfind("\n"))
            lead = before[start + 1:].strip()
            lw = re.findall(r"[^\W\d_]+", lead)
            if not (lead.endswith(",") and 0 < len(lw) <= _LEAD_MAX and _ties_to_a_case(lw)):
                return None
            leads.append(lead.rstrip(","))
    return leads[0] if leads else None


# "I have! The phrase is not commonly used ..." copied from "The phrase is not commonly used
# ...": the word analysis skips pronouns and "have", so the claim's own statement about its
# writer ("I have") went unread. A first-person pronoun no quote writes is grey ("us" only in
# lower case: "US" / "Us" may be the country).
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "our", "ours", "ourselves"})
_PERSON_WORD = re.compile(r"[^\W\d_]+")


def _first_person(claim: str, quotes: list[str]) -> str | None:
    mine = [w for w in _PERSON_WORD.findall(claim) if w.lower() in _FIRST_PERSON or w == "us"]
    if not mine:
        return None
    written = {w.lower() for q in quotes for w in _PERSON_WORD.findall(q)}
    return next((w for w in mine if w.lower() not in written), None)


# "We suffer a suspension of judgement when we hand over a card to purchase something." copied
# from "... when we hand over a card to purchase something and spend funds that we intended
# ...": every word is the quote's, in order, but the claim stops inside a condition the quote
# goes on with "and": the claim's condition asks less than the quote's, and the quote does not
# say the consequence follows from it alone. Grey when the claim's last clause opens with a
# condition word (no comma, ";" or ":" after it) and a quote writes the claim's last four
# words followed straight by "and".
_CONDITIONS = frozenset({"if", "when", "whenever", "unless", "once", "provided"})
_CONDITION_TEXTS = ("if", "when", "unless", "once", "provided")  # what each holds ("whenever": "when")
_CUT_TAIL = 4


def _condition_cut(claim: str, quotes: list[str]) -> str | None:
    low = claim.lower()
    if not any(w in low for w in _CONDITION_TEXTS):
        return None  # no condition word (a token of the claim) can be there
    toks = re.findall(r"[^\W_]+|[,;:()]", low)
    words = [t for t in toks if t[0].isalnum()]
    if len(words) < _CUT_TAIL + 1 or _CONDITIONS.isdisjoint(words):
        return None
    start = None
    for i, t in enumerate(toks):
        if t in _CONDITIONS:
            start = i
        elif not t[0].isalnum():
            start = None  # a comma or stop closes the condition: what follows is the main clause
    if start is None:
        return None
    tail = " ".join(words[-_CUT_TAIL:])
    lows = [q.lower() for q in quotes]
    if not any(words[-1] in low for low in lows):
        return None  # the pattern below holds the last word as written: no quote writes it
    go_on = re.compile(r"\b" + re.escape(tail).replace(r"\ ", r"\W+") + r"\s+and\s+[^\W\d_]")
    if not any(go_on.search(low) for low in lows):
        return None
    return " ".join(t for t in toks[start:] if t[0].isalnum())


# "possessing both a firearm." copied from "possessing both a firearm and an illegal drug":
# every word is the quote's, in order, but a pair the quote completes ("both A and B",
# "either A or B", "neither A nor B", "between A and B") is cut after its first part, and
# the claim no longer says what the quote says. Grey when the claim's pair word has no
# second word after it and a quote's same pair word has one within a few words.
_PAIRS = {"both": "and", "either": "or", "neither": "nor", "between": "and"}
_PAIR_SPAN = 12  # words from the pair word to its second part, in a quote


def _pair_cut(claim: str, quotes: list[str]) -> str | None:
    low = claim.lower()
    if "both" not in low and "either" not in low and "between" not in low:
        return None  # no pair word (a token of the claim) can be there ("neither" holds "either")
    words = re.findall(r"[^\W_]+", low)
    if _PAIRS.keys().isdisjoint(words):
        return None
    completed: set[str] = set()  # pair words a quote completes within _PAIR_SPAN words (one pass: linear)
    for q in quotes:
        qw = re.findall(r"[^\W_]+", q.lower())
        for j, x in enumerate(qw):
            if x in _PAIRS and x not in completed and _PAIRS[x] in qw[j + 2:j + 2 + _PAIR_SPAN]:
                completed.add(x)
    later: set[str] = set()  # the claim's words from position i + 2 on
    cut = None
    for i in range(len(words) - 1, -1, -1):
        if i + 2 < len(words):
            later.add(words[i + 2])
        w = words[i]
        if w in completed and _PAIRS[w] not in later:
            cut = " ".join(words[i:i + 4])  # the first such word of the claim wins
    return cut


# "the handler's logger" (the handler owns the logger) read back as "the handler of the
# logger" (the logger owns the handler): the word analysis drops "'s" and "of", so both come
# out as "handler logger" and the copy rule took one for the other. An "A of B" in the claim
# where a quote writes "A's B" (or the claim's "A's B" where a quote writes "A of B") is
# grey; "B of A" for "A's B" is the same fact and untouched.
_POSSESSIVE = re.compile(r"\b([^\W\d_]+)(?:['\u2019]s|s['\u2019])(?!\w)\s+([^\W\d_]+)")
_OF_PHRASE = re.compile(r"\b([^\W\d_]+)\s+of\s+(?:(?:the|a|an|this|that|its|their)\s+)?([^\W\d_]+)")


def _possessive_turned(claim: str, quotes: list[str]) -> str | None:
    if "'" not in claim and "\u2019" not in claim and " of " not in claim:
        return None
    text = " ".join(quotes)
    if "'" not in text and "\u2019" not in text and " of " not in text:
        return None
    low = claim.lower()
    # each side's pairs are read only when the claim has a phrase of the other kind (a
    # possessive needs a quote mark, in the claim and in the quotes)
    of_phrases = list(_OF_PHRASE.finditer(low))
    if of_phrases and ("'" in text or "\u2019" in text):
        quote_poss = {(a.lower(), b.lower()) for a, b in _POSSESSIVE.findall(text)}
        for m in of_phrases:
            if (m.group(1), m.group(2)) in quote_poss:
                return m.group(0)
    if "'" not in low and "\u2019" not in low:
        return None
    possessives = list(_POSSESSIVE.finditer(low))
    if possessives:
        quote_of = {(a.lower(), b.lower()) for a, b in _OF_PHRASE.findall(text.lower())}
        for m in possessives:
            if (m.group(1), m.group(2)) in quote_of:
                return m.group(0)
    return None


# A token of code in prose is a literal: a keyword argument ("chain=True"), an option
# ("--verbose", "-v"), a path ("/etc/hosts", "~/.bashrc", "src/app.py"), a qualified name
# ("std::vector"), an identifier with "_" or a file pattern with "*" ("STATIC_ROOT",
# "*_test.py"), a camelCase word ("getElementById", "KeyError"), a call ("len()",
# "open(path)"), a dotted name ("os.path", "setup.py", "Node.js"), an environment variable
# ("$HOME"). The word analysis reads it by stems in lower case, without its symbols:
# "chained=True" and "chain=True" share the stem, "*_test.py" and "test*.py" both read
# "test.py". Code shows such a claim only when each of its code tokens stands in a quote as
# written: the same characters and case, not inside a longer word (``literal_missing``).
# Prose is no code: "e.g.", "U.S.", "Ph.D." (an abbreviation: each part one letter or opening
# with a capital), "well-known", "and/or", "TCP/IP", "file(s)", "-5", " - ".
# markdown *a*, __b__; at most 300 characters inside, so that a text of many openers without
# closers costs linear time (longer emphasis keeps its markers: the claim goes grey)
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3}|_{1,3})(?=\S)(.{1,300}?)(?<=\S)\1(?![\w*])")
_CODE_MARK = re.compile(
    r"^[A-Za-z_][\w.\-]*=\S"  # a keyword argument
    r"|^--?[A-Za-z]"  # an option
    r"|^(?:~|\.\.?)?/[\w.]|\w/[\w\-]*\.[A-Za-z]"  # a path
    r"|\w::\w"  # a qualified name
    r"|[^\W_]_\w|(?<!\w)_\w|\w\*|\*[\w.]"  # "_" or "*" next to a word character
    r"|[a-z][A-Z]"  # camelCase
    r"|\w\((?!(?:e?s|ies)\))[^()\s]*\)"  # a call, not a plural's "file(s)"
    r"|^\$[A-Z_]"  # an environment variable (not "$" glued to a lower-case word)
)
_DOTTED = re.compile(r"(?<!\w)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")  # tried at word starts only: linear
_CODE_OPEN = "([{\"'`<"
_CODE_CLOSE = ")]}\"'`>.,;:!?"
MAX_CODE_TOKENS = 64


def _is_code(tok: str) -> bool:
    if tok.isalpha() and tok[1:].islower():
        return False  # letters, no capital after the first: every mark above needs a symbol or a capital there
    return bool(_CODE_MARK.search(tok)) or "." in tok and any(
        any(len(p) > 1 and not p[0].isupper() for p in m.group(0).split(".")) for m in _DOTTED.finditer(tok))


def _code_tokens(claim: str) -> list[str]:
    """The claim's code tokens (see above): its words split at spaces, without the brackets,
    quote marks, closing punctuation and "'s" around them (a call keeps its closing brackets)."""
    out: list[str] = []
    for word in _EMPHASIS.sub(r"\2", claim).split():
        if "://" in word or word.startswith("</"):
            continue  # an address or a link's target, a closing tag: no token of the statement
        core = word.lstrip(_CODE_OPEN)
        tok = core.rstrip(_CODE_CLOSE)
        if len(tok) > 2 and tok[-2] == "'" and tok[-1] in "sS":
            tok = tok[:-2].rstrip(_CODE_CLOSE)
        opened = tok.count("(") - tok.count(")")
        if opened > 0 and core[len(tok):len(tok) + opened] == ")" * opened:
            tok += ")" * opened
        if len(tok) > 1 and _is_code(tok):
            out.append(tok)
            if len(out) >= MAX_CODE_TOKENS:
                break
    return out


# A value written as a literal - in quote marks ("the default is 'locales'"), backticks or the
# brackets of a list ("['locales']") - is a value, not a word: "['locale']" is another value
# than "['locales']" though the word analysis gives both one stem, and "'Locales'" another
# than "'locales'". Each such value of the claim must stand in a quote as written: the same
# characters, the same case, not inside a longer word (quote marks and spaces aside: "'a b'"
# is held by "a  b"). A bracketed run is a list literal when it has two comma-separated members
# at least, each one token (a name, a number or a quoted value): "[a, b]", "['a', 'b']" (not a
# footnote's "[2]").
_LIT_BACKTICK = re.compile(r"(`+)([^`\n]{1,200}?)\1")
_LIT_QUOTED = re.compile(
    "(?<![\\w'\u2019])(?:'([^'\n]{1,200}?)'|\u2018([^\u2018\u2019\n]{1,200}?)\u2019"
    "|\"([^\"\n]{1,200}?)\"|\u201c([^\u201c\u201d\n]{1,200}?)\u201d)(?![\\w'\u2019])")
_LIT_LIST = re.compile(r"\[([^\[\]\n]{1,200})\](?!\()")
_LIT_MEMBER = re.compile(r"""\s*(?:'[^']*'|"[^"]*"|[\w.+-]+)\s*""")
_LIT_APOSTROPHE = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
MAX_LITERALS = 32


def _literal_values(claim: str) -> list[str]:
    """The values a claim writes as literals (see above), quote marks and outer spaces off."""
    out: list[str] = []
    for m in islice(_LIT_BACKTICK.finditer(claim), MAX_LITERALS):
        out.append(m.group(2))
    rest = _LIT_BACKTICK.sub(" ", claim)
    for m in islice(_LIT_QUOTED.finditer(rest), MAX_LITERALS):
        out.append(next(g for g in m.groups() if g is not None))
    for m in islice(_LIT_LIST.finditer(rest), MAX_LITERALS):
        members = m.group(1).split(",")
        if len(members) > 1 and all(_LIT_MEMBER.fullmatch(x) for x in members) \
                and not any(x.strip()[:1] in "'\"" for x in members):
            # quoted members are read above; numbers are the number rules' (and "[2]" a footnote)
            out.extend(x.strip() for x in members if not x.strip().replace(".", "").isdigit())
    vals = []
    for v in out:
        v = " ".join(v.translate(_LIT_APOSTROPHE).split()).strip(" .,;:")
        if v and any(ch.isalnum() for ch in v):
            vals.append(v)
    return vals


def literal_missing(claim: str, quotes: list[str]) -> tuple[str, bool] | None:
    """The claim's first literal no quote writes as written - a code token (False) before a
    value in quote marks, backticks or a list (True) - or None. As written: the same
    characters and case, not inside a longer word (quote marks and runs of spaces aside)."""
    # a reporting frame's source ("According to example.org, ...") is no fact a quote must show
    prose = _strip_frames(" ".join(claim.translate(_LIT_APOSTROPHE).split()))
    found = [(tok, False) for tok in _code_tokens(prose)]
    if any(ch in claim for ch in "'\"`[\u2018\u2019\u201c\u201d"):
        found += [(v, True) for v in _literal_values(claim)]
    if not found:
        return None
    texts = [" ".join(q.translate(_LIT_APOSTROPHE).split()) for q in quotes if q]
    for lit, quoted in found:
        if not any(_written(lit, t) for t in texts):
            return lit, quoted
    return None


def _word_char(ch: str) -> bool:
    """Does ``ch`` match the regex class ``\\w`` (str patterns: a letter, digit or number
    character - ``str.isalnum`` - or "_")?"""
    return ch.isalnum() or ch == "_"


def _written(lit: str, text: str) -> bool:
    """Does ``text`` write ``lit`` as written, not inside a longer word: the search of
    ``(?<!\\w)`` (``(?<![\\w-])`` before a "-") + the literal + ``(?!\\w)``, each look-around only
    on the side where the literal has a word character (or that "-"), with ``str.find``
    instead of a pattern compiled for each literal (about 50 us a compile)."""
    first, last = lit[0], lit[-1]
    head = first == "-" or _word_char(first)
    tail = _word_char(last)
    n = len(lit)
    pos = text.find(lit)
    while pos != -1:
        if not (head and pos > 0 and (_word_char(before := text[pos - 1]) or (first == "-" and before == "-"))) \
                and not (tail and pos + n < len(text) and _word_char(text[pos + n])):
            return True
        pos = text.find(lit, pos + 1)
    return False


# A word written in another case (the word analysis compares lower case): a name in code
# ("raise a keyerror" / "raise a KeyError") or a word whose capital names something
# (``recased_word``). A name in code: a quote's word with "_" or a capital inside it.
_CODE_NAME = re.compile(r"[A-Za-z]\w*(?:_\w+|[a-z][A-Z][a-z]\w*)")


def _forms_by_low(t: _Text) -> dict[str, set[tuple[str, bool]]]:
    """Each lower-case token of a text -> its forms as written, each with "opens a sentence"."""
    out: dict[str, set[tuple[str, bool]]] = {}
    for w, lw, start in zip(t.raw, t.low, t.sent_start):
        out.setdefault(lw, set()).add((w, start))
    return out


def recased_word(c: _Text, qs: list[_Text], names_only: bool = False) -> tuple[str, str, bool] | None:
    """A word of the claim its quotes hold only in another case: (claim word, quote word, the
    quote's word is a name in code), else None; with ``names_only``, only a name in code.
    A name in code counts first, any word of the claim, a sentence's opening capital too
    ("raise a keyerror" / "KeyError", "Set secure_ssl_redirect" / "SECURE_SSL_REDIRECT"); then
    any content word: "U" for "u" (two Vim commands), "US" for "us", "Path" for "path", where a
    capital that only opens a sentence, on either side ("The archive" / "the archive"), changes
    nothing."""
    raws = union(qs, "rawset")
    plain = None
    for k, w in enumerate(c.raw):
        if c.kinds[k] != _WORD or w in raws or not w[:1].isalpha():
            continue
        forms: set[tuple[str, bool]] = set()
        for t in qs:
            forms |= derived(t, _forms_by_low).get(c.low[k], set())
        if not forms:
            continue  # shown by a stem or an equivalence, not by the same letters
        code = [f for f, _ in forms if _CODE_NAME.fullmatch(f)]
        if code:
            return w, min(code), True
        if names_only or plain is not None or not c.content[k]:
            continue
        for f, f_start in forms:
            if len(w) > 1 and w[1:] == f[1:] and w[1:].islower() \
                    and (c.sent_start[k] and w[0].isupper() or f_start and f[0].isupper()):
                break  # a sentence's opening capital, on one side or the other
        else:
            plain = w, min(f for f, _ in forms), False
    return plain


# A symbol that carries meaning in a command, an option or a path - "a filename of |" for "a
# filename of -", "+antialias" for "-antialias", "<<-" for "<-" - is invisible to the word
# analysis, which skips symbols. A claim's run of such symbols must be written in its quotes:
# as an option prefix ("-" before a word, after a space) with the same word behind it, else as
# a run of its own. Not checked: a hyphen or slash inside a compound ("well-known", "and/or") or
# after a word ("pre- and post-"), a dash between spaces (" - ", " -- "), "*" next to a word
# (emphasis), a run before a digit or between digits (signs, ranges, "#1": the number rules').
# "%" and "$" are the number rules' too.
_SYMBOLS = "|-+<>=*/~@#&^\\"
_SYMBOL_RUN = re.compile(r"[|\-+<>=*/~@#&^\\]+")
_SOFT = frozenset("-/")  # a compound's or a prose dash's symbols
# markup ("</s>", "<br>"), a link's target ("[logged](https://...)") and a bare address: no
# symbol of the statement (an address's words are the word analysis')
_TAG = re.compile(r"</?[A-Za-z][\w-]*>|\]\([^)\s]*\)|\b[A-Za-z][\w+.-]*://\S+")


def _symbol_runs(text: str) -> list[tuple[str, str]]:
    """The meaningful symbol runs of a text, each as (run, word behind it when it is a prefix
    else "")."""
    out: list[tuple[str, str]] = []
    for m in _SYMBOL_RUN.finditer(text):
        run, a, b = m.group(0), m.start(), m.end()
        before = text[a - 1] if a else ""  # the text's ends are no spaces: "a filename of -" is checked
        after = text[b] if b < len(text) else ""
        word_before, word_after = before.isalnum() or before == "_", after.isalnum() or after == "_"
        if after.isdigit() or (before.isdigit() and text[b:].lstrip()[:1].isdigit()) \
                or (text[:a].rstrip()[-1:].isdigit() and text[b:].lstrip()[:1].isdigit()):
            continue  # a sign, a range, "#1", "2 + 2": the number rules'
        if set(run) <= _SOFT and (word_before or after.isspace() and not before.isalnum()):
            continue  # "well-known", "and/or", "pre- and", " - ", " -- ", "1945.- Most"
        if "*" in run and set(run) <= {"*"} and (word_before or word_after):
            continue  # emphasis
        if word_after and not word_before:
            w = re.match(r"\w+", text[b:])
            out.append((run, w.group(0).lower() if w else ""))
        else:
            out.append((run, ""))
    return out


def _symbol_missing(claim: str, quotes: list[str]) -> str | None:
    """The claim's first meaningful symbol (run) its quotes do not write so, or None."""
    if not any(ch in claim for ch in _SYMBOLS):
        return None
    claimed = _symbol_runs(_TAG.sub(" ", claim))
    if not claimed:
        return None
    held = {r for q in quotes if q for r in _symbol_runs(_TAG.sub(" ", q))}
    runs = {r for r, _ in held}
    for run, word in claimed:
        if (run, word) in held if word else run in runs:
            continue
        return run + word
    return None
