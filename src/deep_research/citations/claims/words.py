"""The word lists of the claim rules (stop words, negators, antonym, order, quantifier and
modal groups, number words, units, comparators) and the light stemmer."""

from __future__ import annotations

from functools import lru_cache

# --- word lists ------------------------------------------------------------------------------
_STOP = frozenset(["a", "an", "the", "and", "or", "but", "nor", "so", "yet", "for", "of", "in", "on", "at", "to", "from", "by", "with", "about", "into", "onto", "upon", "over", "under", "between", "through", "during", "within", "without", "via", "per", "among", "across", "against", "toward", "towards", "than", "then", "as", "if", "whether", "because", "while", "although", "though", "since", "until", "unless", "when", "where", "why", "how", "what", "which", "who", "whom", "whose", "that", "this", "these", "those", "there", "here", "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "he", "him", "his", "she", "her", "hers", "we", "us", "our", "ours", "you", "your", "yours", "i", "me", "my", "mine", "one", "ones", "be", "is", "are", "was", "were", "been", "being", "am", "have", "has", "had", "having", "do", "does", "did", "done", "doing", "get", "gets", "got", "also", "too", "very", "just", "even", "still", "already", "again", "further", "furthermore", "moreover", "however", "thus", "therefore", "hence", "indeed", "instead", "rather", "quite", "fairly", "really", "actually", "simply", "basically", "merely", "only", "both", "either", "neither", "other", "another", "such", "own", "same", "e.g", "i.e", "etc", "eg", "ie", "vs", "cf", "up", "down", "out", "off", "well", "like", "unlike", "whereas", "s", "t", "let", "lets", "make", "makes", "made"])


# Words that strip as frames but are never claims of their own.
_DISCOURSE = ("notably|importantly|in short|in summary|in practice|in other words|for example|"
              "for instance|e\\.g\\.|also|additionally|moreover|furthermore|however|similarly|"
              "likewise|overall|finally|in addition|in particular|in fact|indeed|specifically|"
              "in general|put simply|simply put|that said|still|then|thus|therefore|hence|so|"
              "by contrast|in contrast|conversely|meanwhile|first|second|third|lastly")


_NEGATORS = frozenset(["not", "no", "never", "none", "nothing", "nobody", "nowhere", "neither", "nor", "without", "cannot"])


_IMPLICIT_NEG = frozenset(["only", "except", "unless", "instead", "rather", "fail", "fails", "failed", "failing", "refuse", "refuses", "refused", "prevent", "prevents", "prevented", "avoid", "avoids", "avoided", "forbid", "forbids", "forbidden", "prohibit", "prohibits", "prohibited", "disallow", "disallows", "disallowed", "lack", "lacks", "lacked", "lacking", "absent", "missing", "hardly", "barely", "seldom", "rarely", "impossible", "unable", "omit", "omits", "omitted", "deny", "denies", "denied", "exclude", "excludes", "excluded", "ignore", "ignores", "ignored", "suppress", "suppresses", "suppressed", "skip", "skips", "skipped", "stop", "stops", "stopped", "against", "other", "un", "non", "independently", "decline", "declines", "declined", "declining", "refusing", "insufficient", "inadequate", "neither", "nor", "never", "none", "nothing", "nobody", "nowhere", "without", "not", "no"])


# "no longer"; "fails to", "refused to", "declined to", "is yet to", "forgot to", "neglects to": the
# verb after them is negated ("you could forget to mask it" - it may be left unmasked)
_TO_NEGATORS = frozenset({"fail", "fails", "failed", "failing", "unable", "refuse", "refuses", "refused",
                          "refusing", "decline", "declines", "declined", "declining", "yet", "forget", "forgets",
                          "forgot", "forgotten", "forgetting", "neglect", "neglects", "neglected", "neglecting"})
_NEG_PHRASE_WORDS = _TO_NEGATORS | {"longer"}


# "not only X" / "not just X" / "not merely X" / "not simply X" add to X (X and more; "but also"
# or not), on either side: never a negation of X (``analysis._is_negator``; "not just anyone" is)
_NEG_SKIP_AFTER = frozenset(["only", "just", "merely", "simply"])


# After these, a negator starts a comparison, not a negation: "no more than 5".
_NO_COMPARATIVE = frozenset(["more", "less", "fewer", "later", "earlier", "greater", "longer"])


_QUANT_GROUPS = {
    "all": "all every each always any",
    "most": "most mostly usually generally typically normally largely mainly predominantly",
    "many": "many often frequently commonly numerous",
    "some": "some sometimes several occasionally",
    "few": "few rarely seldom",
    "none": "none never",
}


_MODAL_GROUPS = {"must": "must shall", "should": "should ought", "may": "may might can could",
                 "will": "will would"}


_ANTONYM_WORDS = """
increase decrease|increase reduce|increases decreases|increased decreased|increasing decreasing|
enable disable|enabled disabled|more less|more fewer|most least|higher lower|high low|
larger smaller|large small|bigger smaller|big small|greater smaller|greater lesser|faster slower|
fast slow|quicker slower|quick slow|true false|required optional|mandatory optional|allow forbid|
allow disallow|allow prevent|allowed forbidden|accept reject|include exclude|add remove|
open close|start stop|input output|read write|minimum maximum|min max|success failure|
succeed fail|valid invalid|possible impossible|safe unsafe|secure insecure|public private|
local global|local remote|synchronous asynchronous|sync async|mutable immutable|static dynamic|
explicit implicit|absolute relative|positive negative|upper lower|uppercase lowercase|
above below|inside outside|internal external|inner outer|same different|identical different|
new old|strong weak|hot cold|warm cold|heavy light|long short|longer shorter|wide narrow|
visible hidden|present absent|available unavailable|supported unsupported|ascending descending|
encode decode|encrypt decrypt|compress decompress|serialize deserialize|import export|
upload download|lock unlock|inclusive exclusive|keep discard|even odd|best worst|better worse|
cheap expensive|easy difficult|easy hard|easier harder|simple complex|rise fall|gain loss|
win lose|on off|client server|send receive|push pull|lowest highest|smallest largest|
slowest fastest|shortest longest|left right|top bottom|blocking nonblocking|
sensitive insensitive|success error|accepted rejected|included excluded|added removed|
allowed denied|grant deny|permit deny|maximum minimal|raise lower|overestimate underestimate|
empty full|shallow deep|prepend append|prefix suffix|head tail|enter exit|entry exit|forward backward|
horizontal vertical|major minor|strict lenient|strict loose|encoded decoded|before after
"""


_ORDER_WORDS = """
before after|earlier later|early late|first last|prior subsequent|previous next|
preceding following|precede follow|precedes follows|preceded followed|older newer|oldest newest|
earliest latest|past future|start end|begin end|beginning end|leading trailing|initial final|
formerly now|prior after|prior following|prior later
"""


_ANTONYM_PREFIXES = ("un", "non", "dis", "in", "im", "ir", "il")

# Words that say one direction of a change or a comparison (``_DIRECTIONS``, by stem): two
# words of one group may state the same thing ("lowers the hit rate" / "reducing hit rates",
# "increases traffic" / "causing more traffic"). The antonym rule asks it before it reads a
# claim word as the opposite of a quote word (``antonym._read_otherwise``).
_DIRECTION_GROUPS = {
    "up": "increase raise rise grow more higher greater larger bigger boost gain expand enlarge amplify heighten",
    "down": "decrease reduce lower less fewer drop fall shrink cut decline diminish lessen smaller",
}


_SMALL_NUMBERS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}


_TENS = {w: 10 * (i + 2) for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])}


_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


_NUMBER_WORDS = frozenset(_SMALL_NUMBERS) | frozenset(_TENS)


_ORDINALS = {w: i + 3 for i, w in enumerate(["third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"])}


# Quote words a claim may write as a number ("twice as fast" -> "2x faster").
_QUOTE_NUMBER_WORDS = {"twice": "2", "double": "2", "thrice": "3", "triple": "3", "dozen": "12", "half": "0.5"}


_NUMBER_START = _NUMBER_WORDS | {"hundred"} | frozenset(_SCALES) | frozenset(_ORDINALS) | frozenset(_QUOTE_NUMBER_WORDS)


_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
               "七": 7, "八": 8, "九": 9}


_CJK_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "亿": 10**8}


_CJK_NEG = frozenset("不没未无非勿别")


_CJK_NEG_WORDS = ("不过", "不断", "不仅", "不但", "无论", "不论", "不少", "不久", "非常", "无数", "别的",
                  "别人", "无疑", "不管")


_CJK_STOP = frozenset("的了是在和与及或也都就而之其这那有为以于对")


# Units: surface form (lower case) -> canonical unit. Binary prefixes count as decimal ones.
_UNITS: dict[str, str] = {}


for _canon, _forms in {
    "B": "byte bytes", "kB": "kb kbyte kbytes kilobyte kilobytes kib kibibyte kibibytes",
    "MB": "mb mbyte mbytes megabyte megabytes mib mebibyte mebibytes",
    "GB": "gb gbyte gbytes gigabyte gigabytes gib gibibyte gibibytes",
    "TB": "tb terabyte terabytes tib tebibyte tebibytes", "PB": "pb petabyte petabytes pib",
    "bit": "bit bits", "kbit": "kbit kbits kilobit kilobits kbps", "Mbit": "mbit mbits megabit megabits mbps",
    "Gbit": "gbit gbits gigabit gigabits gbps",
    "ns": "ns nanosecond nanoseconds", "us": "µs μs microsecond microseconds usec",
    "ms": "ms msec millisecond milliseconds", "s": "s sec secs second seconds",
    "min": "min mins minute minutes", "h": "h hr hrs hour hours", "day": "day days",
    "week": "week weeks", "month": "month months", "year": "year years yr yrs",
    "decade": "decade decades", "century": "century centuries",
    "%": "% percent pct percentage", "pp": "pp", "x": "x times fold",
    "degC": "celsius", "degF": "fahrenheit", "K": "kelvin",
    "mm": "mm millimetre millimetres millimeter millimeters", "cm": "cm centimetre centimetres centimeter centimeters",
    "metre": "metre metres meter meters", "km": "km kilometre kilometres kilometer kilometers",
    "mile": "mile miles", "ft": "ft foot feet", "inch": "inch inches",
    "mg": "mg milligram milligrams", "g": "g gram grams", "kg": "kg kilogram kilograms",
    "lb": "lb lbs", "t": "tonne tonnes ton tons",
    "Hz": "hz hertz", "kHz": "khz", "MHz": "mhz", "GHz": "ghz",
    "W": "w watt watts", "kW": "kw kilowatt kilowatts", "kWh": "kwh", "MW": "mw megawatt megawatts",
    "GW": "gw gigawatt gigawatts", "TW": "terawatt terawatts", "Wh": "wh", "MWh": "mwh", "GWh": "gwh",
    "TWh": "twh", "V": "volt volts", "px": "px pixel pixels", "dpi": "dpi",
    "rpm": "rpm", "fps": "fps", "char": "char chars character characters", "digit": "digit digits",
    "line": "line lines", "row": "row rows", "column": "column columns", "page": "page pages", "l": "l litre litres liter liters", "ml": "ml millilitre millilitres milliliter milliliters",
}.items():
    for _f in _forms.split():
        _UNITS[_f] = _canon


# A unit of power before "hour(s)" ("kilowatt-hours", "kilowatt hours"): the unit of energy
# its symbol names ("kWh"); the two are one unit.
_ENERGY_UNITS = {"W": "Wh", "kW": "kWh", "MW": "MWh", "GW": "GWh", "TW": "TWh"}


# A glued suffix ("128KB", "10ms", "5x") is a unit only when it is unambiguous.
_GLUED_UNITS = {k: v for k, v in _UNITS.items() if k not in {"s", "h", "g", "t", "l", "w", "x", "min"}}


_GLUED_UNITS.update({"x": "x", "s": "s", "h": "h"})


_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}


_COMPARATORS: list[tuple[tuple[str, ...], str]] = sorted(
    [(tuple(p.split()), kind) for kind, phrases in {
        "ge": ["at least", "more than", "greater than", "larger than", "bigger than", "higher than", "over", "above", "no less than", "not less than",
               "not fewer than", "not under", "not below",
               "no fewer than", "upwards of", "in excess of", "exceeding", ">", "≥", "over than"],
        "le": ["at most", "up to", "less than", "fewer than", "smaller than", "lower than", "under", "below", "no more than", "not more than",
               "not over", "not above", "not exceeding",
               "nearly", "almost", "just under", "<", "≤", "a maximum of", "maximum of"],
        "approx": ["about", "around", "approximately", "roughly", "some", "circa", "ca", "~", "≈",
                   "an estimated", "estimated", "approx", "close to", "or so", "on the order of"],
    }.items() for p in phrases], key=lambda x: -len(x[0]))


_CMP_LAST = frozenset(p[-1] for p, _ in _COMPARATORS)


_AFTER_COMPARATORS = {("or", "more"): "ge", ("or", "greater"): "ge", ("+",): "ge",
                      ("or", "less"): "le", ("or", "fewer"): "le", ("or", "so"): "approx"}


_IRREGULAR_BASE = {
    "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "being": "be", "am": "be",
    "has": "have", "had": "have", "having": "have", "does": "do", "did": "do", "done": "do",
    "doing": "do", "went": "go", "gone": "go", "goes": "go", "made": "make", "took": "take",
    "taken": "take", "gave": "give", "given": "give", "wrote": "write", "written": "write",
    "ran": "run", "found": "find", "got": "get", "gotten": "get", "began": "begin", "begun": "begin",
    "built": "build", "chose": "choose", "chosen": "choose", "kept": "keep", "held": "hold",
    "brought": "bring", "bought": "buy", "thought": "think", "sent": "send", "spent": "spend",
    "lost": "lose", "meant": "mean", "known": "know", "knew": "know", "shown": "show", "grew": "grow",
    "grown": "grow", "fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise",
    "drew": "draw", "drawn": "draw", "broke": "break", "broken": "break", "spoke": "speak",
    "spoken": "speak", "became": "become", "came": "come", "saw": "see", "seen": "see",
    "told": "tell", "said": "say", "overridden": "override", "hidden": "hide", "forbidden": "forbid",
    "driven": "drive", "ridden": "ride", "stolen": "steal", "frozen": "freeze", "forgotten": "forget", "paid": "pay", "led": "lead", "children": "child",
    "indices": "index", "analyses": "analysis", "criteria": "criterion", "men": "man",
    "women": "woman", "data": "data", "bytes": "byte", "uses": "use", "used": "use",
    "using": "use", "cannot": "can", "better": "better", "best": "best",
}


_ARTICLES = frozenset({"a", "an", "the"})


# protocol names whose final "s" is no plural: "HTTPS" is not "HTTP" ("requests over HTTPS
# are redirected to HTTP" read as the quote's "over HTTP ... to HTTPS")
_SECURE_PROTOCOLS = frozenset(["https", "ftps", "smtps", "imaps", "ldaps", "nntps", "shttps"])


@lru_cache(maxsize=131072)
def stem(word: str) -> str:
    """Light stemmer: the same word in another number, tense or voice gives the same stem."""
    w = word.lower()
    base = _IRREGULAR_BASE.get(w)
    if base is not None:
        w = base
    if len(w) <= 3 or not w.isalpha() or w in _SECURE_PROTOCOLS:
        return w
    # each suffix tested only under its last letter (most words end in none of s, d, g, e);
    # every cut below leaves at least two letters
    if w[-1] == "s":
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith(("sses", "xes", "ches", "shes", "zzes")):
            w = w[:-2]
        elif not w.endswith(("ss", "us", "is", "ous")):
            w = w[:-1]
    last = w[-1]
    if last == "d":
        if w.endswith("ied") and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith("ed") and len(w) > 4:
            w = w[:-2]
        last = w[-1]
    elif last == "g" and w.endswith("ing") and len(w) > 5:
        w = w[:-3]
        last = w[-1]
    if last == "e" and len(w) > 3:
        w = w[:-1]
        last = w[-1]
    if len(w) > 3 and last == w[-2] and last not in "aeiouy":
        w = w[:-1]
    return w


_VOWELS = frozenset("aeiouy")


def _doubles(base: str) -> bool:
    """Would this base double its last letter before "-ed"/"-ing" ("hop" -> "hopped")? One
    vowel group ending in a single consonant after a single vowel."""
    if len(base) < 3 or base[-1] in _VOWELS or base[-1] in "wxy" or base[-2] not in _VOWELS or base[-3] in _VOWELS:
        return False
    groups = sum(1 for k, ch in enumerate(base) if ch in _VOWELS and (k == 0 or base[k - 1] not in _VOWELS))
    return groups == 1


@lru_cache(maxsize=65536)
def _bases(word: str) -> frozenset[str]:
    """The words ``word`` may be an inflection of (plural, third person, past, "-ing"), its
    own form included: "hoped" -> hope (not "hop": that would be "hopped"), "filling" ->
    fill, "visited" -> visit or visite."""
    w = word.lower()
    w = _IRREGULAR_BASE.get(w, w)
    out = {w}
    forms = {w}
    if w.endswith("ies") and len(w) > 4:
        forms.add(w[:-3] + "y")
    elif w.endswith("es") and len(w) > 3:
        forms.add(w[:-1])
        if w[:-2].endswith(("s", "x", "z", "ch", "sh", "o")):
            forms.add(w[:-2])  # "boxes", "matches"; "planes" is no form of "plan"
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        forms.add(w[:-1])
    out |= forms
    for f in forms:
        for suffix in ("ied", "ed", "ing"):
            if not f.endswith(suffix) or len(f) - len(suffix) < 2:
                continue
            r = f[: -len(suffix)]
            if suffix == "ied":
                out.add(r + "y")
            elif len(r) > 2 and r[-1] == r[-2] and r[-1] not in _VOWELS:
                out.update((r, r[:-1]))  # "called" -> call; "hopped" -> hop
            else:
                out.add(r + "e")  # "hoped" -> hope
                if not _doubles(r):
                    out.add(r)  # "visited" -> visit; but "hoped" is never "hop"
            break
    return frozenset(out)


def same_word(a: str, b: str) -> bool:
    """Can two words of the same ``stem`` be forms of one word? The light stemmer also joins
    words that only look alike ("hale" / "hall", "filing" / "filling", "plane" / "plan",
    "hoped" / "hopped"); a proof may not rest on those."""
    a, b = a.lower(), b.lower()
    return a == b or not _bases(a).isdisjoint(_bases(b))


def _pairs(spec: str) -> frozenset[frozenset[str]]:
    out = set()
    for pair in spec.replace("\n", "").split("|"):
        words = pair.split()
        if len(words) == 2:
            a, b = stem(words[0]), stem(words[1])
            if a != b:
                out.add(frozenset((a, b)))
    return frozenset(out)


_ANTONYMS = _pairs(_ANTONYM_WORDS)


_ORDER = _pairs(_ORDER_WORDS)


_QUANT = {w: g for g, ws in _QUANT_GROUPS.items() for w in ws.split()}


_DIRECTIONS = {stem(w): g for g, ws in _DIRECTION_GROUPS.items() for w in ws.split()}


_MODAL = {w: g for g, ws in _MODAL_GROUPS.items() for w in ws.split()}


_CLOSED = frozenset(_QUANT) | frozenset(_MODAL) | _NEGATORS


# Explicit negators are read as negations (``neg``), not by stem: the stem of "not" is also
# the stem of "note", "notes", "noted", which negate nothing.
_IMPLICIT_NEG_STEMS = frozenset(stem(w) for w in _IMPLICIT_NEG if w not in _NEGATORS)


# "and"/"or" do not end a clause: a negation covers both of "cannot be located or loaded".
_CLAUSE_WORDS = frozenset(["but", "however", "while", "whereas", "although", "though", "unless", "because", "since", "if", "when", "where", "which", "who", "whom", "that", "so", "yet", "after", "before", "until", "whether"])

