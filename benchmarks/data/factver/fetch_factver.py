"""Convert public fact-verification data sets into one JSONL format, split dev / holdout.

This is the recipe behind ``/work/shared/data/factver/`` (read it with
``benchmarks/_factver.py``). The data itself is third-party and is never committed to
this repository; this script only reads git snapshots of the public repositories that
publish it and writes the converted files outside the repository.

Usage::

    python benchmarks/data/factver/fetch_factver.py [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh2 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh3 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh5 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh6 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh7 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh9 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh11 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh12 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh13 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh14 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh15 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh16 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh17 [--mirrors DIR] [--out DIR]

    python benchmarks/data/factver/fetch_factver.py --fresh18 [--mirrors DIR] [--out DIR]

``--fresh`` builds instead the four holdout-only sets picked after the claim rules were
tuned (FEVER-Symmetric, Citation-Integrity, BEGIN, Factcheck-Bench; see ``FRESH``) into
``/work/shared/data/factver-fresh/<dataset>/holdout.jsonl`` (every pair holdout, at most
2,000 per set by a seeded per-class sample) and its README.md. ``--fresh2`` builds the
second fresh group the same way (SufficientFacts, Q², SummEdits-SciTLDR; see ``FRESH2``),
by default into ``/tmp/factver-fresh2``, and ``--fresh3`` the third (SummEdits-SAMSum,
SummEdits-ECTSum, QAGS; see ``FRESH3``), by default into ``/tmp/factver-fresh3``, at most
1,000 pairs per set. ``--fresh5`` builds the public half of the fifth fresh group
(SummEdits-News, SummEdits-QMSum, SummEdits-SalesCall; see ``FRESH5``) the same way, by
default into ``/tmp/factver-fresh5`` (the fourth group was hand-written only). ``--fresh6``
builds the public half of the sixth (SummEdits-Podcast, SummEdits-SalesEmail; see ``FRESH6``),
by default into ``/tmp/factver-fresh6``, ``--fresh7`` the public half of the seventh
(FaithBench, LIAR-PLUS; see ``FRESH7``), by default into ``/tmp/factver-fresh7``, and
``--fresh9`` the public half of the ninth (SICK, FaithDial's gold responses; see ``FRESH9``), by
default into ``/tmp/factver-fresh9`` (the eighth group was hand-written only). The ninth needs
two more snapshots: ``fetch github:brmson/dataset-sts`` (SICK) and
``fetch github:McGill-NLP/FaithDial``. ``--fresh11`` builds the public half of the eleventh
(NLI4CT, RTE, LFQA; see ``FRESH11``), by default into ``/tmp/factver-fresh11``, from
``fetch github:MathildeAguiar/SemEval-2024-Task-2`` (NLI4CT), ``fetch github:Ji-Yishan/MIEC-FYP``
(GLUE's RTE) and ``fetch github:timchen0618/LFQA-Verification``. ``--fresh12`` builds the public
half of the twelfth (CLIFF's annotations as AggreFact copies them, DialFact's test sample; see
``FRESH12``), by default into ``/tmp/factver-fresh12``, from ``fetch github:Liyan06/AggreFact`` and
``fetch github:salesforce/DialFact``. ``--fresh13`` builds the public half of the thirteenth
(FNC-1's labelled test stances, Emergent's claim/headline stances, BUMP; see ``FRESH13``), by default
into ``/tmp/factver-fresh13``, from ``fetch github:FakeNewsChallenge/fnc-1`` and
``fetch github:thanhan/fc-aaai18`` (a copy of Emergent) and BUMP's minimal summary pairs, from
``fetch github:dataminr-ai/BUMP``. ``--fresh14`` builds the public half of the fourteenth (FABLES'
annotated claims about novels with the passages quoted for them, Falke et al.'s summary-sentence
triples; see ``FRESH14``), by default into ``/tmp/factver-fresh14``, from ``fetch github:mungg/FABLES``
and ``fetch github:W4ngatang/qags`` (an older commit of it, the one QAGS comes from). ``--fresh15``
builds the public half of the fifteenth (ExpertQA's expert-judged answer claims with the passages
they cite, PolyTope's annotated news summaries, MuFaME's one-line WikiHow summaries; see
``FRESH15``), by default into ``/tmp/factver-fresh15``, from ``fetch github:chaitanyamalaviya/ExpertQA``,
``fetch github:hddbang/PolyTope`` and ``fetch github:meetdavidwan/faithful-multimodal-summ``.
``--fresh16`` builds the public half of the sixteenth (HAGRID, AttrScore's GenSearch set and the
Stanford generative-search judgements, as AttributionBench collects them; see ``FRESH16``), by
default into ``/tmp/factver-fresh16``, from ``fetch github:OSU-NLP-Group/AttributionBench``.
``--fresh17`` builds the public half of the seventeenth (SciTail's crowd-labelled science
sentence pairs, from the copy AI2's leaderboard repository holds, ConTRoL's exam statements about
passages, and Attributed-QA's rated answers, as AttributionBench collects them; see ``FRESH17``),
by default into ``/tmp/factver-fresh17``, from ``fetch github:allenai/aristo-leaderboard``,
``fetch github:csitfun/ConTRoL-dataset`` and the AttributionBench snapshot of the sixteenth.
``--fresh18`` builds the public half of the eighteenth (ANLI's test rounds, hypotheses written to fool
a model, and the SNLI pairs people rewrote to flip a label, counterfactually-augmented data, its
revised hypotheses and its revised premises; see ``FRESH18``), by default into
``/tmp/factver-fresh18``, from ``fetch github:eric11eca/curriculum-ling`` (a copy of ANLI's release)
and ``fetch github:acmi-lab/counterfactually-augmented-data``.

``--mirrors DIR`` (default ``/work/.mirror``) holds one git repository per source, as
``DIR/<owner>+<name>/repo`` (what the project's search tool ``fetch github:<owner>/<name>``
leaves there), ``DIR/<owner>+<name>`` or ``DIR/<name>`` (a plain ``git clone``). Every file
is read with ``git show <commit>:<path>`` at the commit pinned below, so the output is the
same byte for byte wherever the snapshot came from. ``--out DIR`` (default
``/work/shared/data/factver``) receives ``<dataset>/dev.jsonl``, ``<dataset>/holdout.jsonl``
and ``README.md``.

One JSON object per line::

    {"id": "<dataset>-<original id>", "dataset": "<name>", "quotes": ["<evidence>", ...],
     "claim": "...", "label": "supported" | "unsupported", "class": "<original label>",
     "split": "dev" | "holdout", "context": "<optional: passage the quotes come from>",
     "source": "<owner/repo>/<path>@<commit>"}

Label: the original supports / entailment class is ``supported``; refutes, contradiction,
not-enough-info, neutral, partially supported and half-true are ``unsupported`` (``class``
keeps the original). Quotes are the annotated evidence text as the data set gives it, with
only surrounding whitespace stripped.

Split: ``sha256("<dataset>:<group>")``, first 8 hex digits / 2**32 < 0.70 -> ``dev``, else
``holdout``. The group is the unit that must not straddle the two parts: the claim for
Climate-FEVER (its five evidence pairs stay together), the Wikipedia page for FM2 and WiCE,
the news item for Check-COVID and COVID-Fact (a claim and its altered counter-claims share
one), the topic question for HealthVer, the set of cited abstracts for SciFact, the
statement for PolitiHop (one row per evidence chain). Nothing here looks at a claim checker, and nothing is
filtered by how hard an example is.
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import html
import io
import json
import random
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

DEV_SHARE = 0.70
DEFAULT_MIRRORS = Path("/work/.mirror")
DEFAULT_OUT = Path("/work/shared/data/factver")

SUPPORTED = "supported"
UNSUPPORTED = "unsupported"


@dataclass(frozen=True)
class Repo:
    name: str  # owner/name on GitHub
    commit: str


CLIMATE_FEVER = Repo("tdiggelm/climate-fever-dataset", "03de61617b10a5c1935f8e08bb0e8ac1ee775356")
FM2 = Repo("google-research/fool-me-twice", "d9db753e5acf91c0d9bf543db327ab655661eb94")
WICE = Repo("ryokamoi/wice", "ddeb6c183665e2a20c5f03c5aa07f03888b9870f")
CHECK_COVID = Repo("posuer/Check-COVID", "3ae70f8cac4df13a3ce56878e20d8e76790e422d")
HEALTHVER = Repo("sarrouti/HealthVer", "b20ac99ceed62f5264a319fa25a854df1668d85b")
COVIDFACT = Repo("asaakyan/covidfact", "ceeb613cde5a6c19dea4f2c165654e510ff52b10")
POLITIHOP = Repo("copenlu/politihop", "bcb16fd6ff983337d5aae47494477be623a015d8")
SCIFACT_CLAIMS = Repo("jedick/MLE-capstone-project", "667a81990e0613998e8c3856603487269f21e91d")
# The fresh sets (``--fresh``): all holdout, first measured after the claim rules are final.
FEVER_SYMMETRIC = Repo("TalSchuster/FeverSymmetric", "fa25d17e73ea0694edc78133ec654b9f32f6db73")
CITINT = SCIFACT_CLAIMS  # the same snapshot also holds Citation-Integrity in MultiVerS format
BEGIN = Repo("google/BEGIN-dataset", "6e65f0d5a1ed1b9574643a7640ff1678d4e979b5")
FACTCHECK_GPT = Repo("yuxiaw/Factcheck-GPT", "a9e6a04a953ad880806529c504a679dd1ad06528")
# The second fresh group (``--fresh2``): all holdout, picked after the first fresh group was seen.
SUFFICIENT_FACTS = Repo("copenlu/sufficient_facts", "1fbc36364f5639d294299784958599fda0978472")
Q2 = Repo("orhonovich/q-squared", "cab6027dc9a50cf73d80caf0858da05c2323c433")
SUMMEDITS = Repo("salesforce/factualNLG", "0da1dfa62c783218d26208c1796d3a2605bec745")
# The third fresh group (``--fresh3``): all holdout, picked after the second fresh group was seen.
QAGS = Repo("W4ngatang/qags", "47798e9b63344e2d3fb4df2def6edc18e9402d30")
# The seventh fresh group (``--fresh7``): all holdout, picked after the sixth group was seen.
FAITHBENCH = Repo("vectara/FaithBench", "cf89797d82812c23b5d5e5c121f1d9b8983bbbce")
LIAR_PLUS = Repo("Tariq60/LIAR-PLUS", "992bfd97555631e48b6bddb1a87aa61c51ee1197")
# The ninth fresh group (``--fresh9``): all holdout, picked after the eighth group was seen.
SICK = Repo("brmson/dataset-sts", "e1d3375f5b3bc24f21aa4e46f96eb379e9fc1081")
FAITHDIAL = Repo("McGill-NLP/FaithDial", "25671c6e3aa7d667943b7744a2b91507e7187f83")
# The eleventh fresh group (``--fresh11``): all holdout, picked after the tenth group was seen.
NLI4CT = Repo("MathildeAguiar/SemEval-2024-Task-2", "a09dc7c30ee71be88747a57b1661615017fb8a17")
RTE = Repo("Ji-Yishan/MIEC-FYP", "250635701007f7f2dc00b63ce2cbc3dfe104b4e0")
LFQA = Repo("timchen0618/LFQA-Verification", "4e905be93fbe919082d62faa77ee32c68e90237c")
# The twelfth fresh group (``--fresh12``): all holdout, picked after the eleventh group was seen.
AGGREFACT = Repo("Liyan06/AggreFact", "f0654b245232cd724d5caa5db4950abfb12d795e")
DIALFACT = Repo("salesforce/DialFact", "d400b250147e45c106b18e52254b1060f7c1575d")
# The thirteenth fresh group (``--fresh13``): all holdout, picked after the twelfth group was seen.
FNC1 = Repo("FakeNewsChallenge/fnc-1", "29d473af2d15278f0464d5e41e4cbe7eb58231f2")
EMERGENT = Repo("thanhan/fc-aaai18", "9e67c94fc689923d81f8de0e48789fea5036cc63")
BUMP = Repo("dataminr-ai/BUMP", "86327f14b9e0c16a364a3793b8a622dc703d22fd")
# The fourteenth fresh group (``--fresh14``): all holdout, picked after the thirteenth group was seen.
FABLES = Repo("mungg/FABLES", "7b1270b0a2a0bbda12d9bda17a32a630a4712a94")
# Falke et al.'s summary-correctness data, in the QAGS repository's history only: the commit before
# "Remove extra data files" (QAGS itself is pinned at a later commit, above).
FALKE = Repo("W4ngatang/qags", "d526d92f1433eb555f207ad3293cc197d66d2fa9")
# The fifteenth fresh group (``--fresh15``): all holdout, picked after the fourteenth group was seen.
EXPERTQA = Repo("chaitanyamalaviya/ExpertQA", "1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87")
POLYTOPE = Repo("hddbang/PolyTope", "6bcbe2b27062b35cc002cb8d13e7c6ce5718984d")
MUFAME = Repo("meetdavidwan/faithful-multimodal-summ", "510189df4b6171ef921ce500bdc96775fe9c89e4")
# The sixteenth fresh group (``--fresh16``): all holdout, picked after the fifteenth group was seen.
ATTRIBUTIONBENCH = Repo("OSU-NLP-Group/AttributionBench", "b33329b29946b791649cf66d33e10b5a5bbdc44d")
# The seventeenth fresh group (``--fresh17``): all holdout, picked after the sixteenth group was seen.
# (Its Attributed-QA rows come from ATTRIBUTIONBENCH, above.)
SCITAIL = Repo("allenai/aristo-leaderboard", "60d5be31b5a7d36f29d13223ece29a8d2bfa8b5f")
CONTROL = Repo("csitfun/ConTRoL-dataset", "d7acc335bef6c716f2830e1413d0d90c133ad6e9")


class SourceMissing(Exception):
    pass


@dataclass
class Reader:
    mirrors: Path
    used: dict[str, set[str]] = field(default_factory=lambda: collections.defaultdict(set))

    def git_dir(self, repo: Repo) -> Path:
        owner, name = repo.name.split("/")
        for cand in (
            self.mirrors / f"{owner}+{name}" / "repo",
            self.mirrors / f"{owner}+{name}",
            self.mirrors / name,
        ):
            if cand.exists():
                return cand
        raise SourceMissing(
            f"no git snapshot of {repo.name} under {self.mirrors} (looked for {owner}+{name}/repo, "
            f"{owner}+{name} and {name}); get one with the search tool's fetch "
            f"github:{repo.name}, or git clone it there, then run this again"
        )

    def text(self, repo: Repo, path: str) -> str:
        return self.data(repo, path).decode("utf-8")

    def data(self, repo: Repo, path: str) -> bytes:
        """The file's bytes at the pinned commit (``text`` decodes them; a zip archive is read
        as bytes)."""
        gd = self.git_dir(repo)
        proc = subprocess.run(
            ["git", "-C", str(gd), "show", f"{repo.commit}:{path}"],
            check=False,
            capture_output=True,
            timeout=120,
        )
        if proc.returncode != 0:
            raise SourceMissing(
                f"{repo.name}: cannot read {path} at {repo.commit[:12]} from {gd}: "
                f"{proc.stderr.decode(errors='replace').strip()}"
            )
        data = proc.stdout
        if data.startswith(b"version https://git-lfs"):
            raise SourceMissing(f"{repo.name}/{path} is a Git LFS pointer, not the data")
        self.used[repo.name].add(path)
        return data

    def jsonl(self, repo: Repo, path: str) -> list[dict]:
        return [json.loads(line) for line in self.text(repo, path).splitlines() if line.strip()]


def source(repo: Repo, path: str) -> str:
    return f"{repo.name}/{path}@{repo.commit}"


def split_of(dataset: str, group: str) -> str:
    h = int(hashlib.sha256(f"{dataset}:{group}".encode()).hexdigest()[:8], 16)
    return "dev" if h / 2**32 < DEV_SHARE else "holdout"


_CHAR_REF = re.compile(r"&(?:amp|quot|apos|lt|gt|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


@dataclass
class Tally:
    dropped: collections.Counter = field(default_factory=collections.Counter)
    fixed: collections.Counter = field(default_factory=collections.Counter)

    def repeated(self, seen: set, key: object, why: str) -> bool:
        """Whether ``key`` was met before (it is in ``seen``): then it is counted as dropped for
        ``why``; met the first time, it is added to ``seen``."""
        if key in seen:
            self.dropped[why] += 1
            return True
        seen.add(key)
        return False


def clean(s: str, tally: Tally) -> str:
    """Strip surrounding whitespace; undo HTML character references that leaked into
    the text (``&amp;``, ``&gt;``, ``&#8805;``: only these explicit, semicolon-terminated
    forms), counted in ``tally.fixed``."""
    out = _CHAR_REF.sub(lambda m: html.unescape(m.group(0)), s.strip())
    if out != s.strip():
        tally.fixed["HTML character reference decoded"] += 1
    return out


def unquote_twice(s: str, tally: Tally) -> str:
    # Undo one level of CSV quoting left in a field (PolitiHop statements, a few
    # RTE-scifact claims): a doubled quote is the sign. The enclosing quotes go (the
    # opening one is sometimes already lost) and doubled quotes become single:
    #   " Says ... ""a word."""  ->  Says ... "a word."
    #   Says ""10% ..."""        ->  Says "10% ..."
    if '""' not in s:
        return s
    t = s.removeprefix('"').removesuffix('"')
    tally.fixed["field CSV-quoted twice, one quoting undone"] += 1
    return t.replace('""', '"').strip()


@dataclass
class Example:
    id: str
    group: str
    quotes: list[str]
    claim: str
    label: str
    cls: str
    source: str
    context: str | None = None


@dataclass
class Dataset:
    name: str
    kind: str
    convert: Callable[[Reader, Tally], Iterator[Example]]
    notes: str


# --- Climate-FEVER -------------------------------------------------------------------


def climate_fever(rd: Reader, tally: Tally) -> Iterator[Example]:
    path = "dataset/climate-fever.jsonl"
    label = {"SUPPORTS": SUPPORTED, "REFUTES": UNSUPPORTED, "NOT_ENOUGH_INFO": UNSUPPORTED}
    for c in rd.jsonl(CLIMATE_FEVER, path):
        for e in c["evidences"]:
            quote = clean(e["evidence"], tally)
            if not quote:
                tally.dropped["empty evidence sentence"] += 1
                continue
            yield Example(
                id=f"climate-fever-{c['claim_id']}-{e['evidence_id']}",
                group=str(c["claim_id"]),
                quotes=[quote],
                claim=clean(c["claim"], tally),
                label=label[e["evidence_label"]],
                cls=e["evidence_label"],
                source=source(CLIMATE_FEVER, path),
            )


# --- FM2 (Fool Me Twice) -----------------------------------------------------------------


def fm2(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {"SUPPORTS": SUPPORTED, "REFUTES": UNSUPPORTED}
    for part in ("dev", "test"):
        path = f"dataset/{part}.jsonl"
        for c in rd.jsonl(FM2, path):
            quotes = [q for q in (clean(g["text"], tally) for g in c["gold_evidence"]) if q]
            if not quotes:
                tally.dropped["no gold evidence text"] += 1
                continue
            yield Example(
                id=f"fm2-{c['id']}",
                group=c["wikipedia_page"],
                quotes=quotes,
                claim=clean(c["text"], tally),
                label=label[c["label"]],
                cls=c["label"],
                source=source(FM2, path),
            )


# --- WiCE ------------------------------------------------------------------------------

META_PREFIX = "(meta data)"


def wice(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {
        "supported": SUPPORTED,
        "partially_supported": UNSUPPORTED,
        "not_supported": UNSUPPORTED,
    }
    for part in ("dev", "test"):
        path = f"data/entailment_retrieval/claim/{part}.jsonl"
        for c in rd.jsonl(WICE, path):
            ev = [clean(s, tally) for s in c["evidence"]]
            sets = [sorted(set(s)) for s in c["supporting_sentences"] if s]
            if not sets:
                tally.dropped[f"no annotated supporting sentence ({c['label']})"] += 1
                continue
            # Every listed set is a complete, valid evidence set. Take the smallest set made
            # only of page sentences (no "(meta data) ..." line the data set adds for the
            # page's title and date); if every set needs such a line, the smallest set.
            plain = [s for s in sets if not any(ev[i].startswith(META_PREFIX) for i in s)]
            chosen = min(plain or sets, key=len)
            quotes = [ev[i] for i in chosen]
            if not all(quotes):
                tally.dropped["empty evidence sentence"] += 1
                continue
            yield Example(
                id=f"wice-{c['meta']['id']}",
                group=c["meta"]["claim_title"],
                quotes=quotes,
                claim=clean(c["claim"], tally),
                label=label[c["label"]],
                cls=c["label"],
                source=source(WICE, path),
                context="\n".join(ev),
            )


# --- Check-COVID -------------------------------------------------------------------------


def check_covid(rd: Reader, tally: Tally) -> Iterator[Example]:
    path = "Check-COVID/Check-COVID_all.json"
    corpus = {
        d["cord_id"]: [clean(s, tally) for s in d["abstract"]]
        for d in rd.jsonl(CHECK_COVID, "Check-COVID/corpus.json")
    }
    label = {"SUPPORT": SUPPORTED, "REFUTE": UNSUPPORTED, "NOTENOUGHINFO": UNSUPPORTED}
    for c in rd.jsonl(CHECK_COVID, path):
        abstract = corpus.get(c["cord_id"])
        if abstract is None:
            tally.dropped["abstract missing from corpus.json"] += 1
            continue
        idx = sorted({e["sent_index"] for e in c["evidence_set"]})
        if not idx or idx[-1] >= len(abstract):
            tally.dropped["evidence index missing or outside the abstract"] += 1
            continue
        yield Example(
            id=f"check-covid-{c['id']}",
            group=c["id"].rsplit("_", 1)[0],
            quotes=[abstract[i] for i in idx],
            claim=clean(c["claim"], tally),
            label=label[c["label"]],
            cls=c["label"],
            source=source(CHECK_COVID, path),
            context=" ".join(abstract),
        )


# --- HealthVer ---------------------------------------------------------------------------


def healthver(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {"Supports": SUPPORTED, "Refutes": UNSUPPORTED, "Neutral": UNSUPPORTED}
    for part in ("dev", "test"):
        path = f"data/healthver_{part}.csv"
        for row in csv.DictReader(io.StringIO(rd.text(HEALTHVER, path))):
            quote, claim = clean(row["evidence"], tally), clean(row["claim"], tally)
            if not quote or not claim:
                tally.dropped["empty evidence or claim"] += 1
                continue
            yield Example(
                id=f"healthver-{row['id']}",
                group=row["topic_ip"],
                quotes=[quote],
                claim=claim,
                label=label[row["label"]],
                cls=row["label"],
                source=source(HEALTHVER, path),
            )


# --- COVID-Fact --------------------------------------------------------------------------


def covidfact(rd: Reader, tally: Tally) -> Iterator[Example]:
    path = "COVIDFACT_dataset.jsonl"
    label = {"SUPPORTED": SUPPORTED, "REFUTED": UNSUPPORTED}
    seen: set[str] = set()
    for n, line in enumerate(rd.text(COVIDFACT, path).splitlines(), start=1):
        if not line.strip():
            continue
        if tally.repeated(seen, line, "exact duplicate line"):
            continue
        c = json.loads(line)
        quotes = [q for q in (clean(q, tally) for q in c["evidence"]) if q]
        if not quotes:
            tally.dropped["no evidence sentence"] += 1
            continue
        yield Example(
            id=f"covidfact-{n}",
            group=c["gold_source"],
            quotes=quotes,
            claim=clean(c["claim"], tally),
            label=label[c["label"]],
            cls=c["label"],
            source=source(COVIDFACT, path),
        )


# --- PolitiHop ---------------------------------------------------------------------------


def politihop(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {"true": SUPPORTED, "false": UNSUPPORTED, "half-true": UNSUPPORTED}
    csv.field_size_limit(1 << 30)
    for part in ("train", "valid", "test"):
        path = f"data/politihop_{part}.tsv"
        for row in csv.DictReader(io.StringIO(rd.text(POLITIHOP, path)), delimiter="\t"):
            ruling = [clean(s, tally) for s in json.loads(row["ruling"])]
            chains = json.loads(row["annotated_evidence"])
            # Each chain lists 0-based ruling sentence ids; an entry may hold several ids
            # joined by a comma ("13,14").
            idx = sorted(
                {
                    int(i)
                    for chain in chains.values()
                    for entry in chain
                    for i in str(entry).split(",")
                    if i.strip()
                }
            )
            if not idx:
                tally.dropped["no annotated evidence chain"] += 1
                continue
            if idx[-1] >= len(ruling):
                tally.dropped["evidence id outside the ruling"] += 1
                continue
            quotes = [ruling[i] for i in idx]
            if not all(quotes):
                tally.dropped["empty evidence sentence"] += 1
                continue
            claim = unquote_twice(clean(row["statement"], tally), tally)
            # A claim with several evidence chains has one row per chain (article ids
            # 178691, 178692, ...): the rows of one statement share a split.
            yield Example(
                id=f"politihop-{row['article_id']}",
                group=claim,
                quotes=quotes,
                claim=claim,
                label=label[row["annotated_label"]],
                cls=row["annotated_label"],
                source=source(POLITIHOP, path),
                context=" ".join(ruling),
            )


# --- SciFact (rationales as joined by COVID-Fact's RTE-scifact files) ------------------------


def scifact(rd: Reader, tally: Tally) -> Iterator[Example]:
    csv.field_size_limit(1 << 30)
    by_text: dict[str, list[dict]] = collections.defaultdict(list)
    for part in ("train", "dev"):
        for c in rd.jsonl(SCIFACT_CLAIMS, f"data/scifact/claims_{part}.jsonl"):
            by_text[c["claim"].strip()].append(c)
    rte_label = {"entailment": "SUPPORT", "not_entailment": "CONTRADICT"}
    occurrence: collections.Counter = collections.Counter()
    for part in ("train", "dev"):
        path = f"RTE-scifact/{part}.tsv"
        rows = csv.reader(
            io.StringIO(rd.text(COVIDFACT, path)), delimiter="\t", quoting=csv.QUOTE_NONE
        )
        next(rows)  # header: index, sentence1 (rationale), sentence2 (claim), label
        for row in rows:
            _, rationale, claim, rte = row
            claim = unquote_twice(claim.strip(), tally)
            rationale = unquote_twice(clean(rationale, tally), tally)
            matches = [c for c in by_text.get(claim.strip(), []) if c.get("evidence")]
            if not matches:
                tally.dropped["claim not found among SciFact's labelled claims"] += 1
                continue
            c = min(matches, key=lambda c: c["id"])
            labels = {ev["label"] for sets in c["evidence"].values() for ev in sets}
            labels = {"SUPPORT" if x == "SUPPORT" else "CONTRADICT" for x in labels}
            if labels != {rte_label[rte]}:
                tally.dropped["RTE label disagrees with SciFact's label"] += 1
                continue
            quote = rationale
            if not quote:
                tally.dropped["empty rationale"] += 1
                continue
            occurrence[c["id"]] += 1
            cls = rte_label[rte]
            yield Example(
                id=f"scifact-{c['id']}-{occurrence[c['id']]}",
                group=",".join(str(d) for d in sorted(c["cited_doc_ids"])),
                quotes=[quote],
                claim=claim,
                label=SUPPORTED if cls == "SUPPORT" else UNSUPPORTED,
                cls=cls,
                source=source(COVIDFACT, path),
            )


DATASETS = [
    Dataset(
        "climate-fever",
        "climate; Wikipedia sentences",
        climate_fever,
        f"""\
Origin: {CLIMATE_FEVER.name}, `dataset/climate-fever.jsonl` @ {CLIMATE_FEVER.commit}.
Licence: none stated in the repository (the evidence is Wikipedia text, CC BY-SA).
Real-world climate claims collected online, each with five Wikipedia sentences that
annotators labelled SUPPORTS / REFUTES / NOT_ENOUGH_INFO one by one. One example per
claim-sentence pair, labelled with that sentence's (majority) label, not the claim's
overall label. The five pairs of a claim share a split. Some sentences
keep Wikipedia leftovers as the set gives them (a leading quotation mark, a reference
title), untouched. No `context`.""",
    ),
    Dataset(
        "fm2",
        "encyclopedic; Wikipedia sentences",
        fm2,
        f"""\
Origin: {FM2.name} (FoolMeTwice), `dataset/dev.jsonl` and `dataset/test.jsonl` @ {FM2.commit}.
Licence: Apache-2.0 (repository LICENSE; the evidence is Wikipedia text, CC BY-SA).
Claims written by players of a game to be hard to judge, each with the gold Wikipedia
sentence(s) the writer chose as evidence (`gold_evidence`), SUPPORTS / REFUTES.
`train.jsonl` (10,419 claims) is 4 MiB or more and did not arrive in the snapshot: only
dev and test are used. Claims of one Wikipedia page share a split. Nothing dropped.
No `context`.""",
    ),
    Dataset(
        "wice",
        "Wikipedia claims vs the web pages they cite",
        wice,
        f"""\
Origin: {WICE.name}, `data/entailment_retrieval/claim/{{dev,test}}.jsonl` @ {WICE.commit}.
Licence: annotations ODC-BY 1.0; Wikipedia text CC BY-SA; cited pages under Common
Crawl's terms (repository LICENSE.md).
A Wikipedia sentence (claim) against the article it cites (news and other web pages).
Labels supported / partially_supported / not_supported (partially_supported ->
unsupported: part of the claim is not in the cited page). Annotators list one or more
complete alternative sets of supporting sentences; `quotes` is the smallest set that
has no "(meta data) ..." line (WiCE adds the page's title and date as such lines), else
the smallest set (then a quote may read "(meta data) PUBLISHED DATETIME: ..."). Examples
with no supporting sentence at all (most not_supported claims) are dropped: there is
nothing to quote. `context` is the whole cited page, its sentences joined by newlines.
The train file is 4 MiB or more and did not arrive: dev and test only. Claims from one
Wikipedia page share a split.""",
    ),
    Dataset(
        "check-covid",
        "news claims vs scientific abstracts",
        check_covid,
        f"""\
Origin: {CHECK_COVID.name}, `Check-COVID/Check-COVID_all.json` (all 1,504 claims; the
union of the repository's train/dev/test files) and `Check-COVID/corpus.json` @
{CHECK_COVID.commit}. Licence: MIT (repository LICENSE); abstracts from CORD-19.
COVID-19 claims from news articles (journalist-written, `is_auth`) and claims written by
annotators, checked against sentences of a CORD-19 abstract: SUPPORT / REFUTE /
NOTENOUGHINFO, each with its annotated evidence sentences (PRIMARY and SUPPLEMENTARY,
both kept, in abstract order; a NOTENOUGHINFO claim has the sentences that come closest).
`context` is the abstract (its sentences joined by a space; the first may start with
CORD-19's "Abstract " prefix). The claims made from one news item share a split.""",
    ),
    Dataset(
        "healthver",
        "health claims vs scientific abstracts",
        healthver,
        f"""\
Origin: {HEALTHVER.name}, `data/healthver_dev.csv` and `data/healthver_test.csv` @
{HEALTHVER.commit}. Licence: none stated in the repository.
Real-world COVID-19 health claims (from search-engine snippets) against an evidence
statement from a scientific abstract, Supports / Refutes / Neutral by annotators. The
evidence is given as one passage of one to several sentences: it is one quote here.
`healthver_train.csv` is 4 MiB or more and did not arrive: dev and test only. Pairs of
one topic question (`topic_ip`) share a split. No `context`.""",
    ),
    Dataset(
        "covidfact",
        "COVID-19 claims vs web sentences",
        covidfact,
        f"""\
Origin: {COVIDFACT.name}, `COVIDFACT_dataset.jsonl` @ {COVIDFACT.commit}. Licence: none
stated in the repository.
Claims from posts of the r/COVID19 forum (SUPPORTED) and counter-claims (REFUTED). Per
the repository's README the evidence sentences were picked by SBERT similarity from the
top-5 Google results for the claim, and counter-claims were made by replacing a salient
word of a true claim with a language model's choice (so REFUTED claims are machine-made
one-word alterations, e.g. "sars-cov-2" -> "chs-cov-2"). A claim and its counter-claims
share the evidence and a split (grouped by `gold_source`). Ids are line numbers; 5 exact
duplicate lines dropped. No `context`.""",
    ),
    Dataset(
        "politihop",
        "political claims vs fact-check articles",
        politihop,
        f"""\
Origin: {POLITIHOP.name}, `data/politihop_{{train,valid,test}}.tsv` @ {POLITIHOP.commit}.
Licence: none stated for the data.
Claims checked by PolitiFact, with the sentences of PolitiFact's ruling article that
annotators linked into evidence chains; label by the PolitiHop annotators: true / false /
half-true (half-true -> unsupported), for the claim as a whole. A claim with several
chains has one row per chain (ids 178691, 178692, ...); `quotes` is the row's chain
sentences (all of them if a row holds several chains), in article order. The ruling is
written by the fact-checker and often restates the claim. Rows of one statement share a
split. Sentences keep the set's artefacts (a space before a comma or full stop where a
link was removed, splits inside quoted speech); statements that the file quotes twice
for CSV are unquoted once (see "Text repaired"). `context` is the ruling, its sentences
joined by a space.""",
    ),
    Dataset(
        "scifact",
        "scientific claims vs abstract rationales",
        scifact,
        f"""\
Origin: SciFact (allenai/scifact; claims CC BY 4.0, abstracts ODC-By 1.0). Its
`corpus.jsonl` (the abstracts) is larger than 4 MiB or kept in Git LFS in every copy
found, so the rationale text comes from {COVIDFACT.name} `RTE-scifact/{{train,dev}}.tsv`
@ {COVIDFACT.commit}: one row per (claim, cited abstract) with that abstract's rationale
sentences joined into one string (so one quote per example, several sentences long).
Claim ids and labels come from SciFact's own claim files as copied in
{SCIFACT_CLAIMS.name} `data/scifact/claims_{{train,dev}}.jsonl` @ {SCIFACT_CLAIMS.commit};
a row is kept only when its claim is found there and SciFact's label agrees with the RTE
label (entailment = SUPPORT, not_entailment = CONTRADICT). NOT ENOUGH INFO claims have
no rationale and are absent. Claims citing the same abstracts share a split (SciFact
writes a claim and its negation over the same abstract). No `context`.""",
    ),
]


# === Fresh sets (``--fresh``) ==================================================================
# Four more public sets, chosen after the claim rules were tuned on the ones above and never
# looked at while changing them. Every pair of a fresh set is ``holdout``: they exist to
# measure the final rules once. A set with more than FRESH_CAP pairs is cut to FRESH_CAP by a
# seeded sample drawn per original class in proportion to its size, so the class balance is
# the source's.

FRESH_CAP = 2000
FRESH_SEED = 25
DEFAULT_FRESH_OUT = Path("/work/shared/data/factver-fresh")

# FEVER's tokenisation, undone the same way in claim and evidence: bracket tokens, quote
# tokens and the space the tokeniser put before punctuation and after an opening bracket.
_FEVER_TOKENS = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}
_FEVER_TOKEN = re.compile("|".join(re.escape(t) for t in _FEVER_TOKENS))
_SPACE_BEFORE = re.compile(r" (?=[,.;:!?)\]}%]|'s\b|n't\b|'re\b|'ve\b|'ll\b|'d\b|'m\b)")
_SPACE_AFTER = re.compile(r"(?<=[(\[{$]) ")


def fever_detok(s: str, tally: Tally) -> str:
    out = _FEVER_TOKEN.sub(lambda m: _FEVER_TOKENS[m.group(0)], s)
    out = _SPACE_AFTER.sub("", _SPACE_BEFORE.sub("", out)).strip()
    if out != s:
        tally.fixed["FEVER tokenisation undone (-LRB- etc., space before punctuation)"] += 1
    return out


def fever_symmetric(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {"SUPPORTS": SUPPORTED, "REFUTES": UNSUPPORTED}
    for part in ("dev", "test"):
        path = f"symmetric_v0.2/fever_symmetric_{part}.jsonl"
        for n, c in enumerate(rd.jsonl(FEVER_SYMMETRIC, path), start=1):
            quote = fever_detok(clean(c["evidence"], tally), tally)
            claim = fever_detok(clean(c["claim"], tally), tally)
            if not quote or not claim:
                tally.dropped["empty evidence or claim"] += 1
                continue
            yield Example(
                id=f"fever-symmetric-{part}-{n}",
                group=str(c["id"]),
                quotes=[quote],
                claim=claim,
                label=label[c["gold_label"]],
                cls=c["gold_label"],
                source=source(FEVER_SYMMETRIC, path),
            )


# Citation-Integrity marks the citation being judged (and others) inside the citing sentence:
# "[<|multi_cit|>]", "[<|cit|>,<|other_cit|>]", "(<|other_cit|>)". The markers and the brackets
# left empty by removing them go; a bracket that also holds a reference number keeps it.
_CIT_MARK = re.compile(r"<\|[a-z_]+\|>")
_EMPTY_BRACKETS = re.compile(r"\s*[\[(][\s,;]*[\])]")


def _strip_citation_markers(s: str, tally: Tally) -> str:
    if "<|" not in s:
        return s
    out = _EMPTY_BRACKETS.sub("", _CIT_MARK.sub("", s))
    out = re.sub(r"([\[(])[\s,;\u2013-]+", r"\1", out)
    out = re.sub(r"[\s,;\u2013-]+([\])])", r"\1", out)
    out = re.sub(r"\s+([.,;:])", r"\1", out).strip()
    tally.fixed["citation markers (<|cit|> etc.) removed from the citing sentence"] += 1
    return out


def citint(rd: Reader, tally: Tally) -> Iterator[Example]:
    corpus = {
        d["doc_id"]: [clean(s, tally) for s in d["abstract"]]
        for d in rd.jsonl(CITINT, "data/citint/corpus.jsonl")
    }
    for part in ("train", "dev", "test"):
        path = f"data/citint/claims_{part}.jsonl"
        for c in rd.jsonl(CITINT, path):
            if not c.get("evidence"):
                tally.dropped["no evidence (IRRELEVANT citation: nothing to quote)"] += 1
                continue
            ((doc, sets),) = c["evidence"].items()
            segments = corpus.get(int(doc))
            if segments is None:
                tally.dropped["cited document missing from corpus.jsonl"] += 1
                continue
            idx = sorted({i for ev in sets for i in ev["sentences"]})
            labels = {ev["label"] for ev in sets}
            if not idx or idx[-1] >= len(segments) or len(labels) != 1:
                tally.dropped["evidence index outside the document or mixed labels"] += 1
                continue
            (cls,) = labels
            yield Example(
                id=f"citint-{part}-{c['id']}",
                group=str(doc),
                quotes=[segments[i] for i in idx],
                claim=_strip_citation_markers(clean(c["claim"], tally), tally),
                label=SUPPORTED if cls == "SUPPORT" else UNSUPPORTED,
                cls=cls,
                source=source(CITINT, path),
                context=" ".join(segments),
            )


def begin(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {"Fully attributable": SUPPORTED, "Not fully attributable": UNSUPPORTED}
    for part in ("dev", "test"):
        path = f"wow/begin_{part}_wow.tsv"
        rows = csv.DictReader(
            io.StringIO(rd.text(BEGIN, path)), delimiter="\t", quoting=csv.QUOTE_NONE
        )
        for n, row in enumerate(rows, start=1):
            if row["begin_label"] not in label:
                tally.dropped[f"label {row['begin_label']!r} (no claim to check)"] += 1
                continue
            quote, claim = clean(row["knowledge"], tally), clean(row["response"], tally)
            if not quote or not claim:
                tally.dropped["empty knowledge or response"] += 1
                continue
            yield Example(
                id=f"begin-wow-{part}-{n}",
                group=quote,
                quotes=[quote],
                claim=claim,
                label=label[row["begin_label"]],
                cls=f"{row['begin_label']} ({row['model_name']})",
                source=source(BEGIN, path),
            )


FACTCHECK_GPT_MAX_CHARS = 1000


def factcheck_gpt(rd: Reader, tally: Tally) -> Iterator[Example]:
    label = {
        "completely-support": SUPPORTED,
        "partially-support": UNSUPPORTED,
        "refute": UNSUPPORTED,
        "irrelevant": UNSUPPORTED,
    }
    path = "subtasks/subtask3_claim_evidence_stance.jsonl"
    for n, c in enumerate(rd.jsonl(FACTCHECK_GPT, path), start=1):
        quote, claim = clean(c["evidence"], tally), clean(c["claim"], tally)
        if not quote or not claim:
            tally.dropped["empty evidence or claim"] += 1
            continue
        if len(quote) > FACTCHECK_GPT_MAX_CHARS:
            tally.dropped[f"evidence passage over {FACTCHECK_GPT_MAX_CHARS} characters"] += 1
            continue
        yield Example(
            id=f"factcheck-gpt-{n}",
            group=claim,
            quotes=[quote],
            claim=claim,
            label=label[c["stance"]],
            cls=c["stance"],
            source=source(FACTCHECK_GPT, path),
        )


FRESH = [
    Dataset(
        "fever-symmetric",
        "encyclopedic; Wikipedia sentences, contrastive pairs",
        fever_symmetric,
        f"""\
Origin: {FEVER_SYMMETRIC.name}, `symmetric_v0.2/fever_symmetric_{{dev,test}}.jsonl` @
{FEVER_SYMMETRIC.commit}. Licence: data CC BY-SA 3.0 (repository DATA_LICENSE; Wikipedia
text), code MIT. FEVER claim / evidence-sentence pairs (SUPPORTS / REFUTES) plus, for each,
counterparts the authors wrote by hand so that the claim alone does not give the label away:
the same claim against an edited evidence sentence, an edited claim against the same
sentence. One quote (the sentence). FEVER's tokenisation (-LRB-, ``, a space before
punctuation) is undone in claim and quote alike (see "Text repaired"). Both files (dev 708,
test 712) are used; the set is smaller than the cap and kept whole.""",
    ),
    Dataset(
        "citint",
        "scientific citing sentences vs cited-paper text",
        citint,
        f"""\
Origin: Citation-Integrity (Sarol et al. 2024, ScienceNLP-Lab/Citation-Integrity) in the
MultiVerS format as copied in {CITINT.name} `data/citint/claims_{{train,dev,test}}.jsonl`
and `data/citint/corpus.jsonl` @ {CITINT.commit} (that copy renames ACCURATE -> SUPPORT and
NOT_ACCURATE -> REFUTE and reorders claims by id). Licence: none stated for the data in
either repository. A sentence of a biomedical paper that cites another paper (the claim)
against the cited paper's text; experts judged whether the citation is accurate. Each
cited document holds five text segments; `quotes` is the segment the annotation names as
evidence (always the first), `context` all five. IRRELEVANT citations have no evidence
and are dropped. The citation markers the format puts in the claim (`[<|multi_cit|>]`,
`[<|cit|>,<|other_cit|>]`) are removed (see "Text repaired"). SUPPORT -> supported, REFUTE
(not accurate) -> unsupported.""",
    ),
    Dataset(
        "begin",
        "dialogue responses vs the Wikipedia snippet they rest on",
        begin,
        f"""\
Origin: {BEGIN.name} (BEGIN benchmark), `wow/begin_{{dev,test}}_wow.tsv` @ {BEGIN.commit}.
Licence: CC BY 4.0 (wow/LICENSE; the snippets come from Wizard of Wikipedia, CC BY 4.0).
Responses generated by four dialogue models (GPT-2, T5, CTRL, DoHA; named in `class`) for
a knowledge snippet of Wizard of Wikipedia (one or two sentences), annotated by people as
fully attributable to the snippet or not: "Fully attributable" -> supported, "Not fully
attributable" -> unsupported, "Generic" (no claim) dropped. The claims are model output
(not written by people, nor by this project). Only the Wizard-of-Wikipedia part is used:
the CMU-DoG and Topical-Chat snippets are whole passages (median 1,000+ characters) and
their test files did not arrive in the snapshot.""",
    ),
    Dataset(
        "factcheck-gpt",
        "claims from chatbot answers vs web passages",
        factcheck_gpt,
        f"""\
Origin: {FACTCHECK_GPT.name} (Factcheck-Bench), `subtasks/subtask3_claim_evidence_stance.jsonl`
@ {FACTCHECK_GPT.commit}. Licence: Apache-2.0 (repository LICENSE); the passages are web
search results. Atomic claims decomposed from ChatGPT answers, each against retrieved web
passages that annotators labelled completely-support / partially-support / refute /
irrelevant. completely-support -> supported; the rest -> unsupported (partially supported,
like WiCE's, and irrelevant, like NOT ENOUGH INFO elsewhere). A passage is a few sentences
as the search engine cut it; passages over {FACTCHECK_GPT_MAX_CHARS} characters are
dropped as too long to be a quote.""",
    ),
]


def fresh_sample(recs: list[dict], cap: int = FRESH_CAP, seed: int = FRESH_SEED) -> list[dict]:
    """At most ``cap`` records, drawn per ``class`` in proportion to its share (largest
    remainders get the leftover places), with a fixed seed; kept in source order."""
    if len(recs) <= cap:
        return list(recs)
    by_cls: dict[str, list[int]] = collections.defaultdict(list)
    for i, r in enumerate(recs):
        by_cls[r["class"]].append(i)
    quota = {k: cap * len(v) // len(recs) for k, v in by_cls.items()}
    rest = sorted(by_cls, key=lambda k: (-(cap * len(by_cls[k]) % len(recs)), k))
    for k in rest[: cap - sum(quota.values())]:
        quota[k] += 1
    rng = random.Random(seed)
    keep: set[int] = set()
    for k in sorted(by_cls):
        keep.update(rng.sample(by_cls[k], quota[k]))
    return [r for i, r in enumerate(recs) if i in keep]


FRESH_README_HEAD = """\
# Fresh public fact-verification data: holdout only

Third-party sets of (claim, human-annotated evidence text, gold label), converted by
`benchmarks/data/factver/fetch_factver.py --fresh` in the deep-research repository, in the
format of `../factver/` (see its README). They were picked after the claim rules had been
tuned on the other sets, and nobody working on the rules has seen them.

**Every pair here is holdout: run the benchmark on them once, with the final rules**
(`benchmarks/bench_claims.py --fresh`). Do not read, print or tune on them.

A set with more than {cap} pairs is cut to {cap} by a sample drawn with seed {seed} per
original class in proportion to its size (so the balance is the source's). Made from the
git snapshots named below; run the script again to rebuild this folder byte for byte.

Looked at and not used: HealthFC (jvladika/HealthFC: claims are questions, the English
evidence is a machine translation of German text; CC BY-NC-ND); HoVer (evidence given as
Wikipedia titles and sentence numbers, the test release has no labels); SciFact-Open and
DialFact (their repositories hold scripts, not the data); SummaC / AggreFact (a summary
sentence against a whole article, no annotated sentence); BEGIN's CMU-DoG and Topical-Chat
parts (passages of 1,000+ characters; test files absent); Citation-Integrity's own
`Data/*.jsonl` (citation-sentence detection, not accuracy: the MultiVerS copy is used);
X-Fact (evidence is search snippets nobody annotated); VitaminC (no data in the repository).
"""


# === Second fresh group (``--fresh2``) ===========================================================
# Three more public sets, picked after the first fresh group had been measured (and so seen).
# Same rules as ``--fresh``: every pair holdout, at most FRESH_CAP per set by a seeded sample per
# original class.

DEFAULT_FRESH2_OUT = Path("/tmp/factver-fresh2")


def sufficient_facts(rd: Reader, tally: Tally) -> Iterator[Example]:
    for part in ("fever", "hover", "vitaminc"):
        path = f"data/sufficient_facts/{part}_sufficient_facts.jsonl"
        for n, c in enumerate(rd.jsonl(SUFFICIENT_FACTS, path), start=1):
            quotes = [fever_detok(clean(sent, tally), tally) for _title, sent in c["evidence"]]
            quotes = [q for q in quotes if q]
            claim = fever_detok(clean(c["claim"], tally), tally)
            if not quotes or not claim:
                tally.dropped["empty evidence or claim"] += 1
                continue
            before, after = c["label_before"], c["label_after"]
            supports = before in ("SUPPORTS", "SUPPORTED")
            if not supports and before != "REFUTES":
                tally.dropped[f"label_before {before!r}"] += 1
                continue
            yield Example(
                id=f"sufficient-facts-{part}-{n}",
                group=claim,
                quotes=quotes,
                claim=claim,
                # supported only when the claim was supported AND annotators found what is
                # left of the evidence still enough ("ENOUGH -- IRRELEVANT" / "-- REPEATED")
                label=SUPPORTED if supports and after.startswith("ENOUGH") else UNSUPPORTED,
                cls=f"{part} {before} / {after}",
                source=source(SUFFICIENT_FACTS, path),
            )


def q2(rd: Reader, tally: Tally) -> Iterator[Example]:
    for model in ("dodeca", "memnet"):
        for kind in ("consistent", "inconsistent"):
            path = f"third_party/data/{model}_{kind}.csv"
            for row in csv.DictReader(io.StringIO(rd.text(Q2, path))):
                quote = clean(row["knowledge"], tally)
                claim = fever_detok(clean(row["response"], tally), tally)
                if not quote or not claim:
                    tally.dropped["empty knowledge or response"] += 1
                    continue
                yield Example(
                    id=f"q2-{model}-{kind}-{row['']}",
                    group=quote,
                    quotes=[quote],
                    claim=claim,
                    label=SUPPORTED if kind == "consistent" else UNSUPPORTED,
                    cls=f"{kind} ({model})",
                    source=source(Q2, path),
                )


def _summedits(
    domain: str, name: str | None = None
) -> Callable[[Reader, Tally], Iterator[Example]]:
    """A converter for one SummEdits domain: each summary against its whole document, label 1 ->
    supported, 0 -> unsupported, ``class`` naming the edit types of an inconsistent one. Ids are
    ``summedits-<name>-<id>`` (``name`` defaults to the domain's file name)."""

    def convert(rd: Reader, tally: Tally) -> Iterator[Example]:
        path = f"data/summedits/summedits_{domain}.json"
        for c in json.loads(rd.text(SUMMEDITS, path)):
            doc, summary = clean(c["doc"], tally), clean(c["summary"], tally)
            if c["label"] not in (0, 1) or not doc or not summary:
                tally.dropped["label other than 0/1, or empty document or summary"] += 1
                continue
            edits = "+".join(sorted(c["edit_types"]))
            yield Example(
                id=f"summedits-{name or domain}-{c['id']}",
                group=doc,
                quotes=[doc],
                claim=summary,
                label=SUPPORTED if c["label"] == 1 else UNSUPPORTED,
                cls="consistent" if c["label"] == 1 else f"inconsistent ({edits or 'untyped'})",
                source=source(SUMMEDITS, path),
            )

    return convert


summedits_scitldr = _summedits("scitldr")


FRESH2 = [
    Dataset(
        "sufficient-facts",
        "encyclopedic; Wikipedia evidence with a part removed",
        sufficient_facts,
        f"""\
Origin: {SUFFICIENT_FACTS.name} (SufficientFacts, Atanasova et al., TACL 2022),
`data/sufficient_facts/{{fever,hover,vitaminc}}_sufficient_facts.jsonl` @ {SUFFICIENT_FACTS.commit}.
Licence: none stated in the repository (the Hugging Face copy says CC BY-SA 4.0; the texts are
Wikipedia's, CC BY-SA). Claims of FEVER, HoVer (multi-hop) and VitaminC with their gold evidence
sentences from which one constituent or sentence was removed; three crowd workers judged whether
what is left is still enough to verify the claim. `quotes` are the evidence sentences as left
(the page titles the file gives with them are not part of the quote). Label: the claim was
SUPPORTS / SUPPORTED and the remaining evidence was judged ENOUGH (the removed part irrelevant or
repeated) -> supported; judged NOT ENOUGH, or a REFUTES claim -> unsupported. `class` is
"<part> <label before> / <label after>". FEVER's tokenisation (a space before punctuation, which
the FEVER and VitaminC parts carry) is undone in claims and quotes (see "Text repaired").""",
    ),
    Dataset(
        "q2",
        "dialogue responses vs the Wikipedia sentence they rest on",
        q2,
        f"""\
Origin: {Q2.name} (the human-annotated responses of the Q² paper, Honovich et al. 2021),
`third_party/data/{{dodeca,memnet}}_{{consistent,inconsistent}}.csv` @ {Q2.commit}. Licence: MIT
(third_party/data/LICENSE.txt; the knowledge sentences come from Wizard of Wikipedia). Responses
of two dialogue models (Dodeca, MemNet) to a Wizard-of-Wikipedia turn, each annotated by people as
factually consistent or inconsistent with the knowledge sentence the model was given: the file a
response sits in gives its label (consistent -> supported, inconsistent -> unsupported). The
responses are model output, lower-cased and tokenised; only FEVER-style spacing before punctuation
is undone (see "Text repaired"), the rest (e.g. "i ' m") is left as given.""",
    ),
    Dataset(
        "summedits-scitldr",
        "one-sentence summaries of scientific abstracts, edited",
        summedits_scitldr,
        f"""\
Origin: {SUMMEDITS.name} (SummEdits, Laban et al. 2023), `data/summedits/summedits_scitldr.json`
@ {SUMMEDITS.commit}. Licence: Apache-2.0 (repository LICENSE.txt). A seed summary of a paper
abstract (SciTLDR) and edits of it written by a model, each labelled by annotators as consistent
(1 -> supported) or inconsistent (0 -> unsupported) with the abstract. The quote is the whole
abstract (17 abstracts, about 1,000 characters each); `class` names the edit types the data set
gives for an inconsistent summary. Only the SciTLDR domain is used: the other domains' documents
are dialogues, transcripts, e-mails or news articles of several thousand characters.""",
    ),
]


FRESH2_README_HEAD = """\
# Second fresh public fact-verification group: holdout only

Third-party sets of (claim, human-annotated evidence text, gold label), converted by
`benchmarks/data/factver/fetch_factver.py --fresh2` in the deep-research repository, in the
format of `../factver/` (see its README). They were picked after the first fresh group
(`--fresh`) had been measured, and nobody working on the claim rules has seen them.

**Every pair here is holdout: run the benchmark on them once, with the final rules**
(`benchmarks/bench_claims.py --fresh2`). Do not read, print or tune on them.

A set with more than {cap} pairs is cut to {cap} by a sample drawn with seed {seed} per
original class in proportion to its size (so the balance is the source's). Made from the
git snapshots named below; run the script again to rebuild this folder byte for byte.

Looked at and not used: VitaminC itself (TalSchuster/VitaminC holds scripts, no data: its
claims come in here through SufficientFacts); AVeriTeC (evidence is question-answer pairs);
HealthFC (claims are questions, English evidence machine-translated; CC BY-NC-ND); ExpertQA
(its claim files are absent from the snapshot); PUBHEALTH (neemakot/Health-Fact-Checking holds
no data); FaithDial's data audit (responses of the same models on the same Wizard-of-Wikipedia
turns as BEGIN, already measured); Q²'s cross_annotation.csv (the same responses again);
SummEdits' other domains (documents of several thousand characters).
"""


# === Third fresh group (``--fresh3``) ============================================================
# Three more public sets, picked after the second fresh group had been measured (and so seen).
# Same rules, but at most FRESH3_CAP pairs per set.

DEFAULT_FRESH3_OUT = Path("/tmp/factver-fresh3")
FRESH3_CAP = 1000


def qags(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per summary sentence: the sentence against its whole article, labelled by the
    majority of its three annotators (``yes`` -> supported)."""
    for corpus in ("cnndm", "xsum"):
        path = f"data/mturk_{corpus}.jsonl"
        for a, row in enumerate(rd.jsonl(QAGS, path)):
            article = clean(row["article"], tally)
            for k, sent in enumerate(row["summary_sentences"]):
                claim = clean(sent["sentence"], tally)
                votes = [r["response"] for r in sent["responses"]]
                if not article or not claim:
                    tally.dropped["empty article or summary sentence"] += 1
                    continue
                if len(votes) != 3 or set(votes) - {"yes", "no"}:
                    tally.dropped["not three yes/no annotations"] += 1
                    continue
                yes = votes.count("yes")
                yield Example(
                    id=f"qags-{corpus}-{a}-{k}",
                    group=article,
                    quotes=[article],
                    claim=claim,
                    label=SUPPORTED if yes >= 2 else UNSUPPORTED,
                    cls=f"{corpus} yes {yes}/3",
                    source=source(QAGS, path),
                )


FRESH3 = [
    Dataset(
        "summedits-samsum",
        "one-sentence summaries of short chat dialogues, edited",
        _summedits("samsum"),
        f"""\
Origin: {SUMMEDITS.name} (SummEdits, Laban et al. 2023), `data/summedits/summedits_samsum.json`
@ {SUMMEDITS.commit}. Licence: Apache-2.0 (repository LICENSE.txt); the dialogues come from
SAMSum (CC BY-NC-ND 4.0), so the data stays out of the project repository. A seed summary of a
messenger-style dialogue and edits of it written by a model, each labelled by annotators as
consistent (1 -> supported) or inconsistent (0 -> unsupported) with the dialogue. The quote is
the whole dialogue (22 dialogues, median about 540 characters, lines "Name: text"); `class` names
the edit types the data set gives for an inconsistent summary.""",
    ),
    Dataset(
        "summedits-ectsum",
        "one-sentence summaries of earnings-call excerpts, edited",
        _summedits("ectsum"),
        f"""\
Origin: {SUMMEDITS.name} (SummEdits), `data/summedits/summedits_ectsum.json` @ {SUMMEDITS.commit}.
Licence: Apache-2.0 (repository LICENSE.txt); the excerpts come from ECTSum (earnings-call
transcripts). Same reading as summedits-samsum: the quote is the excerpt (22 excerpts, median
about 900 characters, many figures), 1 -> supported, 0 -> unsupported.""",
    ),
    Dataset(
        "qags",
        "sentences of model-written news summaries vs the article",
        qags,
        f"""\
Origin: {QAGS.name} (the crowd annotations of the QAGS paper, Wang et al. 2020),
`data/mturk_{{cnndm,xsum}}.jsonl` @ {QAGS.commit}. Licence: none stated in the repository (the
articles are CNN / Daily Mail and BBC news text). Each sentence of a summary written by a model
(Bottom-Up for CNN/DM, BART for XSum) was judged by three crowd workers as factually supported
by the article or not; the majority gives the label (2 or 3 "yes" -> supported, else
unsupported), and `class` keeps the corpus and the number of "yes" votes so the unanimous part
can be read apart. The quote is the whole article (as given, partly lower-cased; median about 1,800
characters for CNN/DM and 2,000 for XSum): the annotations name no sentence.""",
    ),
]


FRESH3_README_HEAD = """\
# Third fresh public fact-verification group: holdout only

Third-party sets of (claim, human-annotated evidence text, gold label), converted by
`benchmarks/data/factver/fetch_factver.py --fresh3` in the deep-research repository, in the
format of `../factver/` (see its README). They were picked after the second fresh group
(`--fresh2`) had been measured, by a helper that did not read or run the claim check, and nobody
working on the claim rules has seen them.

**Every pair here is holdout: run the benchmark on them once, with the final rules**
(`benchmarks/bench_claims.py --fresh3`). Do not read, print or tune on them.

A set with more than {cap} pairs is cut to {cap} by a sample drawn with seed {seed} per
original class in proportion to its size (so the balance is the source's). Made from the
git snapshots named below; run the script again to rebuild this folder byte for byte.

Looked at and not used: FRANK (artidoro/frank: the texts, `benchmark_data.json`, are absent from
the snapshot; `human_annotations.json` holds only scores); XSumFaith
(google-research-datasets/xsum_hallucination_annotations: summaries and labels, no article
text); FactCC explanation annotations in salesforce/factualNLG (labels are on model
explanations, not on the summary); RAGTruth (ParticleMedia/RAGTruth: `response.jsonl` absent
from the snapshot); SummEdits' news, podcast, QMSum and sales domains (documents of 2,000 to
8,000 characters).
"""


def _group_head(nth: str, flag: str, after: str, snapshots: str) -> str:
    """The head of a later group's README (``--fresh5`` on): ``nth`` group, picked after the
    ``after`` one was measured, made from the git ``snapshots`` named below."""
    return f"""\
# {nth} fresh public fact-verification group: holdout only

Third-party sets of (claim, human-annotated evidence text, gold label), converted by
`benchmarks/data/factver/fetch_factver.py {flag}` in the deep-research repository, in the
format of `../factver/` (see its README). They were picked after the {after} group had been
measured, by a helper that did not read or run the claim check, and nobody working on the claim
rules has seen them. The hand-written half of this group is `benchmarks/data/claims-{flag[2:]}`.

**Every pair here is holdout: run the benchmark on them once, with the final rules**
(`benchmarks/bench_claims.py {flag}`). Do not read, print or tune on them.

A set with more than {{cap}} pairs is cut to {{cap}} by a sample drawn with seed {{seed}} per
original class in proportion to its size (so the balance is the source's). Made from the
git {snapshots} named below; run the script again to rebuild this folder byte for byte.

"""


# === Fifth fresh group, public half (``--fresh5``) ==============================================
# Picked after the fourth group (hand-written only) had been measured, by a helper that did not
# read or run the claim check. The hand-written half is benchmarks/data/claims-fresh5.

DEFAULT_FRESH5_OUT = Path("/tmp/factver-fresh5")


def _summedits_notes(domain: str, what: str) -> str:
    return f"""\
Origin: {SUMMEDITS.name} (SummEdits, Laban et al. 2023), `data/summedits/summedits_{domain}.json`
@ {SUMMEDITS.commit}. Licence: Apache-2.0 (repository LICENSE.txt). {what} A seed summary and
edits of it written by a model, each labelled by annotators as consistent (1 -> supported) or
inconsistent (0 -> unsupported) with the document; the quote is the whole document and `class`
names the edit types the data set gives for an inconsistent summary."""


FRESH5 = [
    Dataset(
        "summedits-news",
        "one-sentence summaries of news articles, edited",
        _summedits("news"),
        _summedits_notes(
            "news",
            "The documents are news articles (25 articles, median about 2,800 characters).",
        ),
    ),
    Dataset(
        "summedits-qmsum",
        "summaries of meeting-transcript excerpts, edited",
        _summedits("qmsumm", "qmsum"),
        _summedits_notes(
            "qmsumm",
            "The documents are excerpts of meeting transcripts from QMSum (16 excerpts, median "
            'about 2,200 characters, lines "Speaker: text").',
        ),
    ),
    Dataset(
        "summedits-salescall",
        "summaries of sales-call transcripts, edited",
        _summedits("sales_call", "salescall"),
        _summedits_notes(
            "sales_call",
            "The documents are sales-call transcripts written for the data set (18 calls, median "
            "about 2,200 characters).",
        ),
    ),
]


FRESH5_README_HEAD = _group_head("Fifth", "--fresh5", "fourth", "snapshot") + """\
Looked at and not used: AggreFact-Unified (Liyan06/AggreFact: its spreadsheets hold only
inconsistent summaries, and the CNN/DM sheets no article; `aggre_fact_final.csv` is absent from
the snapshot); ExpertQA (chaitanyamalaviya/ExpertQA: the annotated claim files are absent from
the snapshot); HaluEval (RUCAIBox/HaluEval: its hallucinated answers and summaries are labelled by
how they were generated, not by people, and the QA, dialogue and summarisation files are absent
from the snapshot); SummEdits' podcast domain (transcripts of about 7,600 characters) and sales
e-mails (kept for a later group); SummEdits' BillSum and Shakespeare domains (absent from the
snapshot).
"""


# === Sixth fresh group, public half (``--fresh6``) ==============================================
# Picked after the fifth group had been measured, by a helper that did not read or run the claim
# check: the two SummEdits domains the fifth group left unused. The hand-written half is
# benchmarks/data/claims-fresh6.

DEFAULT_FRESH6_OUT = Path("/tmp/factver-fresh6")

FRESH6 = [
    Dataset(
        "summedits-podcast",
        "summaries of podcast transcripts, edited",
        _summedits("podcast"),
        _summedits_notes(
            "podcast",
            "The documents are podcast transcripts (21 transcripts, median about 7,600 "
            "characters).",
        ),
    ),
    Dataset(
        "summedits-salesemail",
        "summaries of sales e-mails, edited",
        _summedits("sales_email", "salesemail"),
        _summedits_notes(
            "sales_email",
            "The documents are sales e-mails written for the data set (21 e-mails, median about "
            "2,400 characters).",
        ),
    ),
]


FRESH6_README_HEAD = _group_head("Sixth", "--fresh6", "fifth", "snapshot") + """\
These are the last two SummEdits domains in the pinned snapshot that no earlier group used
(podcast and sales e-mails); BillSum and Shakespeare are listed in the snapshot but their
files are absent.
"""


# === Seventh fresh group, public half (``--fresh7``) ============================================
# Picked after the sixth group had been measured, by a helper that did not read or run the claim
# check. The hand-written half is benchmarks/data/claims-fresh7.

DEFAULT_FRESH7_OUT = Path("/tmp/factver-fresh7")

# FaithBench's annotation labels, from least to most severe; a summary is judged by the most
# severe label any annotator gave it (the "worst" aggregation of the data set's own scripts).
_FAITHBENCH_SEVERITY = {"Benign": 1, "Questionable": 2, "Unwanted": 3}


def faithbench(rd: Reader, tally: Tally) -> Iterator[Example]:
    # Batches 1 to 16; the data set has no batch 13.
    for batch in (b for b in range(1, 17) if b != 13):
        path = f"data_for_release/batch_{batch}.json"
        for c in json.loads(rd.text(FAITHBENCH, path))["samples"]:
            doc, summary = clean(c["source"], tally), clean(c["summary"], tally)
            if not doc or not summary:
                tally.dropped["empty source or summary"] += 1
                continue
            labels = {lab for a in c["annotations"] for lab in a["label"]}
            worst = max((_FAITHBENCH_SEVERITY[lab.split(".")[0]] for lab in labels), default=0)
            if worst in (1, 2):
                # Benign (true but not in the source) or Questionable (annotators unsure) as the
                # worst label: no clear gold label either way.
                tally.dropped["worst annotation Benign or Questionable (no clear label)"] += 1
                continue
            kinds = sorted({lab.split(".")[1].lower() for lab in labels if "." in lab})
            yield Example(
                id=f"faithbench-{batch}-{c['sample_id']}",
                group=doc,
                quotes=[doc],
                claim=summary,
                label=SUPPORTED if worst == 0 else UNSUPPORTED,
                cls="consistent" if worst == 0 else f"unwanted ({'+'.join(kinds) or 'untyped'})",
                source=source(FAITHBENCH, path),
            )


def _statement_key(s: str) -> str:
    return " ".join(s.lower().split())


def liar_plus(rd: Reader, tally: Tally) -> Iterator[Example]:
    # PolitiHop (in the first sets) annotated evidence for PolitiFact statements that LIAR-PLUS
    # also holds: a statement PolitiHop has is left out, so no claim is measured twice.
    csv.field_size_limit(1 << 30)
    seen = {
        _statement_key(unquote_twice(clean(row["statement"], Tally()), Tally()))
        for part in ("train", "valid", "test")
        for row in csv.DictReader(
            io.StringIO(rd.text(POLITIHOP, f"data/politihop_{part}.tsv")), delimiter="\t"
        )
    }
    # "mostly-true" (accurate but needing clarification) has no clear label either way.
    label = {"true": SUPPORTED, "half-true": UNSUPPORTED, "barely-true": UNSUPPORTED,
             "false": UNSUPPORTED, "pants-fire": UNSUPPORTED}
    for part in ("val2", "test2"):
        path = f"dataset/jsonl/{part}.jsonl"
        for c in rd.jsonl(LIAR_PLUS, path):
            claim = unquote_twice(clean(c["claim"] or "", tally), tally)
            quote = unquote_twice(clean(c["justification"] or "", tally), tally)
            if c["label"] not in label:
                tally.dropped[f"label {c['label']} (no clear label)"] += 1
                continue
            if not claim or not quote:
                tally.dropped["empty statement or justification"] += 1
                continue
            if _statement_key(claim) in seen:
                tally.dropped["statement also in PolitiHop"] += 1
                continue
            yield Example(
                id=f"liar-plus-{c['json_file_id'].removesuffix('.json')}",
                group=c["json_file_id"],
                quotes=[quote],
                claim=claim,
                label=label[c["label"]],
                cls=c["label"],
                source=source(LIAR_PLUS, path),
            )


FRESH7 = [
    Dataset(
        "faithbench",
        "summaries of short passages by recent LLMs, annotated span by span",
        faithbench,
        f"""\
Origin: {FAITHBENCH.name} (FaithBench, Bao et al., NAACL 2025), `data_for_release/batch_*.json`
@ {FAITHBENCH.commit}. Licence: CC BY-NC-SA 4.0 (repository LICENSE; used here for evaluation
only, never redistributed). Summaries written by ten recent LLMs of short passages (median
about 890 characters, 107 to 5,008), picked where hallucination detectors disagree, and
annotated by people span by span. The quote is the whole passage. A summary with
no annotation is `supported` (`class` consistent); one whose most severe annotation is Unwanted
is `unsupported` (`class` names its intrinsic/extrinsic subtypes); one whose most severe
annotation is Benign (true, but not in the passage) or Questionable is dropped.""",
    ),
    Dataset(
        "liar-plus",
        "PolitiFact statements against the sentences of the verdict that justify it",
        liar_plus,
        f"""\
Origin: {LIAR_PLUS.name} (LIAR-PLUS, Alhindi et al., FEVER 2018), `dataset/jsonl/{{val2,test2}}.jsonl`
@ {LIAR_PLUS.commit} (the train file is absent from the snapshot). Licence: CC0 1.0 (repository
LICENSE; the statements and verdicts are PolitiFact's). The claim is the statement PolitiFact
checked; the quote is the "justification" (median about 400 characters): the sentences of the
verdict's ruling section with every sentence naming the verdict removed by the data set's
authors. Label by PolitiFact's journalists: true -> supported; half-true, barely-true, false and pants-fire -> unsupported;
mostly-true is dropped (no clear label either way); `class` keeps the original. A statement that
PolitiHop ({POLITIHOP.name}, in the first sets) also holds would be dropped; none is (PolitiHop's
articles are later ones).""",
    ),
]


FRESH7_README_HEAD = _group_head("Seventh", "--fresh7", "sixth", "snapshots") + """\
Looked at and not used: TofuEval (amazon-science/tofueval: sentence labels, but the MediaSum and
MeetingBank documents are not in the repository); FRANK (artidoro/frank: `benchmark_data.json`
absent from the snapshot); XSumFaith (google-research-datasets/xsum_hallucination_annotations:
no article text); RAGTruth (ParticleMedia/RAGTruth: `response.jsonl` and `source_info.jsonl`
absent from the snapshot); DeFacto (salesforce/DeFacto: no snapshot to be had); HaluEval and
ExpertQA (rejected before: labels by generation, files absent).
"""


# === Ninth fresh group, public half (``--fresh9``) ==============================================
# Picked after the eighth group (hand-written only) had been measured, by a helper that did not
# read or run the claim check. The hand-written half is benchmarks/data/claims-fresh9.

DEFAULT_FRESH9_OUT = Path("/tmp/factver-fresh9")

_SICK_PATH = "data/sts/sick2014/SICK_test_annotated.txt"


def sick(rd: Reader, tally: Tally) -> Iterator[Example]:
    rows = csv.DictReader(
        io.StringIO(rd.text(SICK, _SICK_PATH)), delimiter="\t", quoting=csv.QUOTE_NONE
    )
    for row in rows:
        quote, claim = clean(row["sentence_A"], tally), clean(row["sentence_B"], tally)
        judgment = row["entailment_judgment"]
        if judgment not in ("ENTAILMENT", "CONTRADICTION", "NEUTRAL"):
            tally.dropped[f"entailment judgment {judgment!r}"] += 1
            continue
        if not quote or not claim:
            tally.dropped["empty sentence"] += 1
            continue
        yield Example(
            id=f"sick-{row['pair_ID']}",
            group=quote,
            quotes=[quote],
            claim=claim,
            # NEUTRAL: sentence A does not show sentence B, so B is unsupported by it.
            label=SUPPORTED if judgment == "ENTAILMENT" else UNSUPPORTED,
            cls=judgment.lower(),
            source=source(SICK, _SICK_PATH),
        )


# FaithDial's BEGIN labels (lower-cased: one row of the data says "generic"). Generic and
# Uncooperative responses state nothing about the knowledge and are dropped, as in BEGIN.
_FAITHDIAL_LABEL = {
    "entailment": SUPPORTED,
    "hallucination": UNSUPPORTED,
    "partial hallucination": UNSUPPORTED,
}


def faithdial_gold(rd: Reader, tally: Tally) -> Iterator[Example]:
    for bench in ("wow", "cmu", "topical"):
        path = f"data-audit/gold/{bench}.csv"
        for n, row in enumerate(csv.DictReader(io.StringIO(rd.text(FAITHDIAL, path))), start=1):
            quote, claim = clean(row["evidence"], tally), clean(row["response"], tally)
            begin_label = row["BEGIN"].strip().lower()
            if not quote and not claim and not begin_label:
                tally.dropped["empty row"] += 1
                continue
            if begin_label not in _FAITHDIAL_LABEL:
                tally.dropped[f"BEGIN label {begin_label or '(none)'!r}"] += 1
                continue
            if not quote or not claim:
                tally.dropped["empty evidence or response"] += 1
                continue
            yield Example(
                id=f"faithdial-gold-{bench}-{n}",
                group=quote,
                quotes=[quote],
                claim=claim,
                label=_FAITHDIAL_LABEL[begin_label],
                cls=f"{begin_label} ({bench})",
                source=source(FAITHDIAL, path),
            )


FRESH9 = [
    Dataset(
        "sick",
        "image and video captions, rewritten; one sentence against another",
        sick,
        f"""\
Origin: SICK (Sentences Involving Compositional Knowledge, Marelli et al., SemEval 2014 task 1)
as copied in {SICK.name} `{_SICK_PATH}` @ {SICK.commit} (the SemEval test set with its gold
labels, 4,927 pairs). Licence: CC BY-NC-SA 3.0 (the data set's readme.txt; used here for
evaluation only, never redistributed). Sentence pairs built from Flickr-8K and SemEval-2012 video
captions, many rewritten by the authors (negated, made passive, words swapped for near-synonyms
or opposites), and judged by crowd workers for whether sentence A entails sentence B. The quote
is sentence A, the claim sentence B. Label: ENTAILMENT -> supported; CONTRADICTION and NEUTRAL
(A does not show B) -> unsupported; `class` keeps the judgment. Only the test file is used.""",
    ),
    Dataset(
        "faithdial-gold",
        "dialogue replies written by people vs the knowledge snippet shown to them",
        faithdial_gold,
        f"""\
Origin: {FAITHDIAL.name} (FaithDial, Dziri et al., TACL 2022), the data audit of the gold
responses, `data-audit/gold/{{wow,cmu,topical}}.csv` @ {FAITHDIAL.commit}. Licence: MIT
(repository LICENSE). Replies written by people in three knowledge-grounded dialogue benchmarks
(Wizard of Wikipedia, CMU-DoG, Topical-Chat; 200 sampled per benchmark), each against the
knowledge shown to its writer (a Wikipedia sentence or two for Wizard of Wikipedia, a passage
of about 1,000 characters for the other two), annotated by people with the BEGIN labels. The
quote is the knowledge, the claim the reply. Label: Entailment -> supported; Hallucination and
Partial Hallucination -> unsupported; Generic and Uncooperative (no claim about the knowledge)
dropped, as in BEGIN. `class` is "<label> (<benchmark>)". BEGIN (in the first fresh group)
annotated model responses; these are the people's own replies, not measured before.""",
    ),
]


FRESH9_README_HEAD = _group_head("Ninth", "--fresh9", "eighth", "snapshots") + """\
Looked at and not used: HANS (tommccoy1/hans: `heuristics_evaluation_set.*` absent from the
snapshot; the labels also come from templates, not from people); SciTail (the only copy found,
ju-resplande/PLUE, is a Portuguese translation); RTE-1 to RTE-3 (no English copy found in a
snapshot, only German and Italian translations in GitOffice/RTEFormatWork); ExpertQA
(chaitanyamalaviya/ExpertQA: the annotated claim files are absent from the snapshot); HaluEval
(RUCAIBox/HaluEval: only `general_data.json` arrived, and it has no evidence text); FaithDial's
model-response audits (the same Wizard-of-Wikipedia turns as BEGIN); PUBHEALTH
(neemakot/Health-Fact-Checking holds no data).
"""


# === Eleventh fresh group, public half (``--fresh11``) ===========================================
# Picked after the tenth group (hand-written only) had been measured, by a helper that did not
# read or run the claim check. The hand-written half is benchmarks/data/claims-fresh11.

DEFAULT_FRESH11_OUT = Path("/tmp/factver-fresh11")

_NLI4CT_LABEL = {"Entailment": SUPPORTED, "Contradiction": UNSUPPORTED}


def nli4ct(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per statement: the statement against the lines of the trial report section that
    its annotators marked as evidence (``Primary_evidence_index``, then for a comparison of two
    trials ``Secondary_evidence_index``), each line a quote."""
    trials: dict[str, dict] = {}

    def lines(nct: str, section: str) -> list[str]:
        if nct not in trials:
            trials[nct] = json.loads(rd.text(NLI4CT, f"training_data/CT_json/{nct}.json"))
        return trials[nct][section]

    for part in ("train", "dev"):
        path = f"training_data/{part}.json"
        for uid, row in json.loads(rd.text(NLI4CT, path)).items():
            if row["Label"] not in _NLI4CT_LABEL:
                tally.dropped[f"label {row['Label']!r}"] += 1
                continue
            claim = clean(row["Statement"], tally)
            quotes: list[str] = []
            in_range = True
            for trial in ("Primary", "Secondary"):
                if f"{trial}_id" not in row:
                    continue
                section = lines(row[f"{trial}_id"], row["Section_id"])
                for i in row[f"{trial}_evidence_index"]:
                    if not 0 <= i < len(section):
                        in_range = False
                        continue
                    quote = clean(section[i], tally)
                    if quote:
                        quotes.append(quote)
            if not in_range:
                tally.dropped["evidence line number outside the section"] += 1
                continue
            if not claim or not quotes:
                tally.dropped["empty statement or evidence"] += 1
                continue
            yield Example(
                id=f"nli4ct-{uid}",
                group=row["Primary_id"],
                quotes=quotes,
                claim=claim,
                label=_NLI4CT_LABEL[row["Label"]],
                cls=f"{row['Label'].lower()} ({row['Type'].lower()}, {row['Section_id'].lower()})",
                source=source(NLI4CT, path),
            )


# GLUE's RTE as the Hugging Face ``glue/rte`` export writes it: label 0 is entailment, 1
# not_entailment (checked against a second copy that spells the labels out; see the README).
_RTE_LABEL = {"0": (SUPPORTED, "entailment"), "1": (UNSUPPORTED, "not_entailment")}


def rte(rd: Reader, tally: Tally) -> Iterator[Example]:
    for part in ("train", "dev"):
        path = f"RTE/{part}.tsv"
        for row in csv.DictReader(io.StringIO(rd.text(RTE, path)), delimiter="\t"):
            if row["label"] not in _RTE_LABEL:
                tally.dropped[f"label {row['label']!r}"] += 1
                continue
            quote, claim = clean(row["sentence1"], tally), clean(row["sentence2"], tally)
            if not quote or not claim:
                tally.dropped["empty text or hypothesis"] += 1
                continue
            label, cls = _RTE_LABEL[row["label"]]
            yield Example(
                id=f"rte-{part}-{row['idx']}",
                group=quote,
                quotes=[quote],
                claim=claim,
                label=label,
                cls=cls,
                source=source(RTE, path),
            )


# LFQA-Verification's annotation files (one per answering setting) and the evidence documents each
# was judged against. The repository's own example config (src/Automatic/input_file.json) pairs
# every file with the WebGPT documents; the GPT-3 answers written from the human-demonstration
# documents (gpt3_whudoc) are paired with those instead, as the words of their sentences annotated
# "supported" show (see the README).
_LFQA_DOCS = {
    "webgpt": "webgpt",
    "gpt3_wdoc": "webgpt",
    "alpaca_wdoc": "webgpt",
    "gpt3_whudoc": "human",
    "gpt3": "webgpt",
    "alpaca": "webgpt",
}


def lfqa(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per answer sentence: the sentence against the evidence documents of its question
    (one quote per document), ``supported`` when at least two of its three annotators say so."""
    docs = {}
    for name in sorted(set(_LFQA_DOCS.values())):
        for q in json.loads(rd.text(LFQA, f"data/docs/docs-{name}.json")):
            docs[name, q["question_id"]] = [clean(d["text"], tally) for d in q["docs"]]
    for setting, doc_set in _LFQA_DOCS.items():
        path = f"data/annotations/annotations-{setting}.json"
        for q in json.loads(rd.text(LFQA, path)):
            quotes = [d for d in docs.get((doc_set, q["question_id"]), []) if d]
            for k, ann in enumerate(q["annotations"]):
                claim = clean(ann["answer"], tally)
                votes = ann["labels"]
                if len(votes) != 3 or set(votes) - {"supported", "partially", "not_supported"}:
                    tally.dropped["not three annotations"] += 1
                    continue
                if not claim or not quotes:
                    tally.dropped["empty sentence or no documents"] += 1
                    continue
                yes = votes.count("supported")
                yield Example(
                    id=f"lfqa-{setting}-{q['question_id']}-{k}",
                    group=f"{doc_set}-{q['question_id']}",
                    quotes=quotes,
                    claim=claim,
                    label=SUPPORTED if yes >= 2 else UNSUPPORTED,
                    cls=f"{setting} supported {yes}/3",
                    source=source(LFQA, path),
                )


FRESH11 = [
    Dataset(
        "nli4ct",
        "statements by clinical experts against the lines of clinical trial reports they marked",
        nli4ct,
        f"""\
Origin: NLI4CT (Jullien et al., SemEval 2023 task 7, reused as the training data of SemEval 2024
task 2) as copied in {NLI4CT.name} `training_data/{{train,dev}}.json` and
`training_data/CT_json/<trial>.json` @ {NLI4CT.commit} (1,700 + 200 labelled statements). Licence:
none stated for the data (the copy's MIT licence covers its code; the trial reports are
ClinicalTrials.gov records); used here for evaluation only, never redistributed. Statements
about breast cancer trial reports written by clinical domain experts, who labelled each as
entailed or contradicted by one section of the report (eligibility criteria, intervention,
results or adverse events) and marked the lines of that section that decide it. A `single`
statement is about one trial; a `comparison` about two, named "the primary trial" and "the
secondary trial". The quotes are the marked lines, one quote per line (the primary trial's
first), surrounding whitespace stripped: short lines of a semi-structured record, many of them
headings ("Results 1:") or table cells; in the kept sample a statement has a median of 10 quotes
(about 520 characters in all), at most 101. Label: Entailment -> supported; Contradiction ->
unsupported. `class` is "<label> (<type>, <section>)". The practice-test file (2,142
statements, 200 of them labelled) is not used.""",
    ),
    Dataset(
        "rte",
        "hypotheses written by annotators against short news and Wikipedia passages",
        rte,
        f"""\
Origin: the Recognizing Textual Entailment challenges RTE-1, RTE-2, RTE-3 and RTE-5 (Dagan et al.
2005 on) as merged in GLUE (Wang et al. 2019) and exported by Hugging Face `glue/rte`, copied in
{RTE.name} `RTE/{{train,dev}}.tsv` @ {RTE.commit} (2,490 + 277 labelled pairs; the test file
has no labels). Licence: none stated in the copy (the RTE data sets were released for research
use); used here for evaluation only, never redistributed. A text of one to a few sentences,
mostly from news and Wikipedia, and a hypothesis written by the challenges' annotators, judged by
them as entailed by the text or not (entailed: a person reading the text would infer that the
hypothesis is most likely true). The quote is the text, the claim the hypothesis. Label: entailment (0) ->
supported; not_entailment (1: contradicted or not shown, which GLUE merges) -> unsupported;
`class` keeps the name. The copy's text matches, pair for pair and label for label, the GLUE
files in footprinthere/AttAttr-Cutoff `glue_data/RTE/*.tsv` @
2ac92f2fdee447af8e66689945003deff461b106 (re-split there, so not used as the source).""",
    ),
    Dataset(
        "lfqa",
        "sentences of long answers by GPT-3, Alpaca and WebGPT vs the web documents given",
        lfqa,
        f"""\
Origin: {LFQA.name} (the attribution annotations of Chen et al. 2023, "Understanding Retrieval
Augmentation for Long-Form Question Answering", called SALAD there),
`data/annotations/annotations-<setting>.json` and `data/docs/docs-{{webgpt,human}}.json` @
{LFQA.commit}. Licence: none stated in the repository (the documents are web pages' text as
WebGPT's and its human demonstrators' searches found them); used here for evaluation only, never
redistributed. ELI5-style questions answered in a paragraph by WebGPT, GPT-3 and Alpaca, with or
without evidence documents in the prompt; each answer sentence was judged by three annotators as
supported, partially supported or not supported by the question's evidence documents (three or
four passages of a few hundred characters, about 2,000 characters in all). The quotes are those
documents, one quote per document; the claim is the sentence (model output, not written by
people; earlier sentences of the answer are not given). Label: at least two of three
"supported" -> supported, else unsupported (partially supported counts as unsupported, as in
WiCE); `class` is "<setting> supported <n>/3", so the unanimous part can be read apart. Documents:
the WebGPT documents for every setting but `gpt3_whudoc` (GPT-3 given the human demonstrators'
documents), which is paired with those. The repository's example config
(`src/Automatic/input_file.json`) pairs all six files with the WebGPT documents; for
`gpt3_whudoc` that was taken to be a slip, because its sentences annotated supported by all three
share on average 82 % of their words (of four letters or more) with the human documents and 46 %
with the WebGPT ones, while for every other setting the WebGPT documents share the most (53 to
95 %). This inference is the converter's, not the data set's.""",
    ),
]


FRESH11_README_HEAD = _group_head("Eleventh", "--fresh11", "tenth", "snapshots") + """\
Looked at and not used: AVeriTeC (MichSchli/AVeriTeC: evidence is annotators' question-answer
pairs and the verdict reasons over several of them; turned down by the first sets too);
ClaimDecomp (jifan-chen/subquestions-for-fact-checking: code and a download script, no data; its
claims are PolitiFact statements like LIAR-PLUS's); FELM (hkust-nlp/felm: the data files are
absent from the snapshot, and its evidence is reference links, not text); ALCE's human evaluation
(princeton-nlp/ALCE: only the utility ratings are in the repository, not the citation
judgments); ContractNLI (stanfordnlp/contract-nli: the project page only, the data is a
download); FactCC (salesforce/factCC: code only, the annotated test set is a download);
WikiFactCheck-English (wikifactcheck-english/wikifactcheck-english: the JSONL files are absent
from the snapshot and the TSV gives the cited source as a URL, not its text); MultiNLI (no full
copy found: zbokaee/NLU-with-BERT holds part of dev_matched mixed with parser output,
cedar33/bert_offline a placeholder, ThomasSYT/share other data under that name); WANLI
(alisawuffles/wanli: samples only; its texts are written by GPT-3); Emergent
(willferreira/mscproject: code, no data); SNLI / e-SNLI (image captions, the genre SICK covered in
the ninth group); ANLI and CommitmentBank (no copy found at their usual paths).
"""


# === Twelfth fresh group, public half (``--fresh12``) ============================================
# Picked after the eleventh group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH12_OUT = Path("/tmp/factver-fresh12")

_CLIFF_PATH = "data/error_type_mapping/CLIFF_error_types.csv"


def cliff(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per model summary: the whole summary against its whole article; ``correct`` (no
    error annotated) -> supported, any annotated error type -> unsupported."""
    for row in csv.DictReader(io.StringIO(rd.text(AGGREFACT, _CLIFF_PATH))):
        article, claim = clean(row["doc"], tally), clean(row["summ"], tally)
        err = row["error_type"].strip()
        if not article or not claim:
            tally.dropped["empty article or summary"] += 1
            continue
        if not err:
            tally.dropped["no annotation"] += 1
            continue
        if err == "correct":
            label, cls = SUPPORTED, f"{row['origin']} correct"
        else:
            label, cls = UNSUPPORTED, f"{row['origin']} error"
        yield Example(
            id=f"cliff-{row['origin']}-{row['id']}-{row['model_name'].lower()}",
            group=f"{row['origin']}-{row['id']}",
            quotes=[article],
            claim=claim,
            label=label,
            cls=cls,
            source=source(AGGREFACT, _CLIFF_PATH),
        )


_DIALFACT_PATH = "scripts/testsmall.jsonl"
_DIALFACT_LABEL = {
    "SUPPORTS": SUPPORTED,
    "REFUTES": UNSUPPORTED,
    "NOT ENOUGH INFO": UNSUPPORTED,
}


def dialfact(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per dialogue response: the response against the Wikipedia sentences its annotators
    gave as evidence, one quote per sentence. Responses typed ``personal`` (about the speaker, not
    the world) are dropped."""
    for row in rd.jsonl(DIALFACT, _DIALFACT_PATH):
        label = row["response_label"]
        if label not in _DIALFACT_LABEL:
            tally.dropped[f"label {label!r}"] += 1
            continue
        if row["type_label"] != "factual":
            tally.dropped[f"response typed {row['type_label']!r}"] += 1
            continue
        claim = clean(row["response"], tally)
        quotes = [q for q in (clean(ev[2], tally) for ev in row["evidence_list"]) if q]
        if not claim or not quotes:
            tally.dropped["empty response or evidence"] += 1
            continue
        yield Example(
            id=f"dialfact-{row['id']}",
            group=row["context_id"],
            quotes=quotes,
            claim=claim,
            label=_DIALFACT_LABEL[label],
            cls=f"{label.lower()} ({row['data_type']})",
            source=source(DIALFACT, _DIALFACT_PATH),
        )


FRESH12 = [
    Dataset(
        "cliff",
        "whole news summaries by BART and PEGASUS vs the article",
        cliff,
        f"""\
Origin: the error annotations of CLIFF (Cao and Wang 2021, "CLIFF: Contrastive Learning for
Improving Faithfulness and Factuality in Abstractive Summarization") as AggreFact (Tang et al.
2023) copies them, {AGGREFACT.name} `{_CLIFF_PATH}` @ {AGGREFACT.commit} (600 summaries: 150
CNN/DM and 150 XSum articles, each summarised by BART and by PEGASUS). Licence: none stated in
the repository (the articles are CNN / Daily Mail and BBC news text); used here for evaluation
only, never redistributed. Annotators marked every error of a summary against its article
(intrinsic or extrinsic, on a noun phrase, a predicate or the whole sentence) or judged it
correct. The claim is the whole summary (one sentence for XSum, three or four for CNN/DM), the
quote the whole article (tokenised, partly lower-cased; median about 2,200 characters, at most
about 10,600): the file names error types and spans, not evidence sentences. Label: `correct` ->
supported; any error type -> unsupported. `class` is "<corpus> correct|error". AggreFact's own
unified spreadsheets (inconsistent summaries only, turned down for the fifth group) are not used,
nor its `aggre_fact_final.csv` (absent from the snapshot).""",
    ),
    Dataset(
        "dialfact",
        "dialogue responses (written by people or generated) vs the Wikipedia sentences given",
        dialfact,
        f"""\
Origin: DialFact (Gupta et al., ACL 2022), the test-split sample the repository ships for its
metric script, {DIALFACT.name} `{_DIALFACT_PATH}` @ {DIALFACT.commit} (300 responses from 97
Wizard-of-Wikipedia dialogues; the full `data/*_split.jsonl` are absent from the snapshot).
Licence: BSD-3-Clause (repository LICENSE.txt); used here for evaluation only, never
redistributed. A dialogue response, written by annotators or generated by a model, that
annotators labelled SUPPORTS, REFUTES or NOT ENOUGH INFO against Wikipedia evidence sentences
they selected (`evidence_list`, one to five sentences). The claim is the response (it may lean on
the dialogue before it, which is not given: pronouns like "his" stay unresolved), the quotes the
evidence sentences, one quote per sentence. Label: SUPPORTS -> supported; REFUTES and NOT ENOUGH
INFO -> unsupported. Responses typed `personal` (about the speaker, all NOT ENOUGH INFO) are
dropped; `class` is "<label> (<written|generated>)". The file's model scores (`fever_score`)
are ignored.""",
    ),
]


FRESH12_README_HEAD = _group_head("Twelfth", "--fresh12", "eleventh", "snapshots") + """\
Looked at and not used: tagoyal/factuality-datasets (code only, the data is a download);
WANLI (alisawuffles/wanli: samples only, turned down for the eleventh group); VitaminC
(TalSchuster/VitaminC: scripts, no data); FacTool (GAIR-NLP/factool: its knowledge-QA and
scientific sets label claims without the evidence text, and Halu-J's files are absent from the
snapshot); AggreFact's Goyal'21 error-type file (150 summaries, 38 without an error: kept for a
later group).
"""


# === Thirteenth fresh group, public half (``--fresh13``) =========================================
# Picked after the twelfth group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH13_OUT = Path("/tmp/factver-fresh13")

_FNC1_STANCES = "competition_test_stances.csv"
_FNC1_BODIES = "competition_test_bodies.csv"
_FNC1_LABEL = {"agree": SUPPORTED, "disagree": UNSUPPORTED, "discuss": UNSUPPORTED}


def fnc1(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per labelled (headline, body) row of FNC-1's competition test set: the headline
    against the whole article body. ``agree`` -> supported; ``disagree`` and ``discuss`` (the body
    reports the story without taking a side) -> unsupported; ``unrelated`` rows (the body is about
    another story) are dropped, as is a row repeating an earlier headline and body."""
    bodies = {
        row["Body ID"]: row["articleBody"]
        for row in csv.DictReader(io.StringIO(rd.text(FNC1, _FNC1_BODIES)))
    }
    seen: set[tuple[str, str]] = set()
    for n, row in enumerate(csv.DictReader(io.StringIO(rd.text(FNC1, _FNC1_STANCES)))):
        stance = row["Stance"].strip()
        if stance not in _FNC1_LABEL:
            tally.dropped[f"stance {stance!r}"] += 1
            continue
        body_id = row["Body ID"]
        if body_id not in bodies:
            tally.dropped["body id not in the bodies file"] += 1
            continue
        claim, body = clean(row["Headline"], tally), clean(bodies[body_id], tally)
        if not claim or not body:
            tally.dropped["empty headline or body"] += 1
            continue
        if tally.repeated(seen, (claim, body_id), "repeated headline and body"):
            continue
        yield Example(
            id=f"fnc1-{n}-body{body_id}",
            group=f"body{body_id}",
            quotes=[body],
            claim=claim,
            label=_FNC1_LABEL[stance],
            cls=stance,
            source=source(FNC1, _FNC1_STANCES),
        )


_EMERGENT_PATH = "emergent/url-versions-2015-06-14-clean.csv"
_EMERGENT_LABEL = {"for": SUPPORTED, "against": UNSUPPORTED, "observing": UNSUPPORTED}


def emergent(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per news article: the rumour (Emergent's claim) against the article's headline.
    ``for`` -> supported; ``against`` and ``observing`` (the headline reports the rumour without
    vouching for it) -> unsupported. A repeated claim and headline (two articles, one headline) is
    dropped after the first."""
    seen: set[tuple[str, str]] = set()
    for row in csv.DictReader(io.StringIO(rd.text(EMERGENT, _EMERGENT_PATH))):
        stance = row["articleHeadlineStance"].strip()
        if stance not in _EMERGENT_LABEL:
            tally.dropped[f"stance {stance!r}"] += 1
            continue
        claim, headline = clean(row["claimHeadline"], tally), clean(row["articleHeadline"], tally)
        if not claim or not headline:
            tally.dropped["empty claim or headline"] += 1
            continue
        if tally.repeated(seen, (claim, headline), "repeated claim and headline"):
            continue
        yield Example(
            id=f"emergent-{row['articleId']}",
            group=row["claimId"],
            quotes=[headline],
            claim=claim,
            label=_EMERGENT_LABEL[stance],
            cls=stance,
            source=source(EMERGENT, _EMERGENT_PATH),
        )


_BUMP_TASKS = ("task1", "task2")


def bump(rd: Reader, tally: Tally) -> Iterator[Example]:
    """BUMP's minimal pairs, each summary against its whole article: every distinct reference
    summary once (supported) and every edited summary (unsupported, one error written in by an
    annotator; ``class`` its error type, Task 1's corrected type where it has one)."""
    refs_seen: set[tuple[str, str]] = set()
    edits_seen: set[tuple[str, str]] = set()
    for task in _BUMP_TASKS:
        path = f"data/{task}_dataset.json"
        for row in json.loads(rd.text(BUMP, path)):
            article = clean(row["article"], tally)
            ref, edited = clean(row["reference_summary"], tally), clean(row["edited_summary"], tally)
            if not article or not ref or not edited:
                tally.dropped["empty article or summary"] += 1
                continue
            if ref == edited:
                tally.dropped["edited summary equal to the reference"] += 1
                continue
            if (article, ref) not in refs_seen:
                refs_seen.add((article, ref))
                yield Example(
                    id=f"bump-{task}-{row['id']}-reference",
                    group=f"article{row['article_id']}",
                    quotes=[article],
                    claim=ref,
                    label=SUPPORTED,
                    cls="reference",
                    source=source(BUMP, path),
                )
            if tally.repeated(edits_seen, (article, edited), "repeated edited summary"):
                continue
            err = (row.get("corrected_error_type") or row["error_type"]).strip()
            yield Example(
                id=f"bump-{task}-{row['id']}-edited",
                group=f"article{row['article_id']}",
                quotes=[article],
                claim=edited,
                label=UNSUPPORTED,
                cls=err.lower().removesuffix(" error"),
                source=source(BUMP, path),
            )


FRESH13 = [
    Dataset(
        "fnc1",
        "news headlines vs a whole news article body (stance)",
        fnc1,
        f"""\
Origin: the Fake News Challenge stage 1 (FNC-1, 2017) competition test set with its labels,
{FNC1.name} `{_FNC1_STANCES}` and `{_FNC1_BODIES}` @ {FNC1.commit} (25,413 headline/body rows
over 904 article bodies; the training stances are absent from the snapshot). Licence: none
stated in the repository (the articles are 2014-2015 news collected for the Emergent project);
used here for evaluation only, never redistributed. Annotators labelled the stance of an article
body towards a headline: agree, disagree, discuss (the body reports the same story without taking
a position) or unrelated (the pair was made by matching the headline with another story's body).
The claim is the headline, the quote the whole body (paragraph breaks kept; median about 1,700
characters, at most about 19,800). Label: agree -> supported; disagree and discuss ->
unsupported (discuss counts as "not enough info", as elsewhere). The 18,349 unrelated rows are
dropped (the body is about another story, nothing to check). `class` is the stance. The headlines
and bodies come from the stories Emergent followed, like the `emergent` set of this group, but
here the pair is a headline and a body and the labels are FNC-1's own.""",
    ),
    Dataset(
        "emergent",
        "rumours vs the headline of a news article reporting them (stance)",
        emergent,
        f"""\
Origin: Emergent (Ferreira and Vlachos, NAACL 2016: "Emergent: a novel data-set for stance
classification") as {EMERGENT.name} copies it, `{_EMERGENT_PATH}` @ {EMERGENT.commit}
(2,595 articles about 300 rumours of 2014-2015; the copy is of the whole cleaned set, not only
its test split). Licence: the copying repository's LICENSE is MIT; the copy states no separate
terms for Emergent's data; used here for evaluation only, never redistributed. Journalists labelled the
stance of each article's headline towards the rumour: for, against or observing (reports it
without assessing it). The claim is the rumour as Emergent states it, the quote the article's
headline (one line; median 66 characters). Label: for -> supported; against and observing ->
unsupported (observing counts as "not enough info", as elsewhere). `class` is the stance. The
copy's crowd-sourced stance labels (`mturk/`) and its veracity features are not used.""",
    ),
    Dataset(
        "bump",
        "news summaries, as written and with one error edited in, vs the whole article",
        bump,
        f"""\
Origin: BUMP (Ma et al., ACL 2023: "BUMP: A Benchmark of Unfaithful Minimal Pairs for
Meta-Evaluation of Faithfulness Metrics"), {BUMP.name} `data/task1_dataset.json` and
`data/task2_dataset.json` @ {BUMP.commit} (889 pairs over 198 CNN/Daily Mail test articles).
Licence: MIT (repository LICENSE); the articles are CNN / Daily Mail news text; used here for
evaluation only, never redistributed. Annotators took an article's reference summary (its
highlights, two to four sentences) and wrote one unfaithful edit of it: in Task 1 of a given type
(predicate, entity or circumstance error, each intrinsic or extrinsic, or a coreference error),
in Task 2 freely, then typed it. The claim is a summary, the quote the whole article (median
about 3,600 characters, at most about 9,600). Label: each edited summary -> unsupported (`class`
its error type, lower-cased; Task 1's `corrected_error_type`, the authors' correction, where it
is given); each distinct reference summary, once per article -> supported (`class` reference).
The supported label is BUMP's design, not a judgment recorded in the files: the reference is the
faithful side of each minimal pair. A repeated edited summary of the same article is dropped; the
metric scores in the files are ignored.""",
    ),
]


FRESH13_README_HEAD = _group_head("Thirteenth", "--fresh13", "twelfth", "snapshots") + """\
Looked at and not used: AggreFact's Goyal'21 error-type file (Liyan06/AggreFact: the 38 summaries
with an empty error type are not reliably free of errors; some add names and places the article
lacks, so the empty field reads as "not annotated", not "correct"); HANS (tommccoy1/hans:
`heuristics_evaluation_set.*` still absent from the snapshot; `mnli_contradicting_examples` is
one class only); ARC stances (UKPLab/coling2018_fake-news-challenge: user comments against
debate positions, opinion not fact); AmbiFC (maxglockner/AmbiFC: no snapshot to be had); the
Snopes corpus (UKPLab/conll2019-snopes-crawling: crawling code, the corpus is a download);
SciTail (allenai/scitail: a download script; the only copy is PLUE's Portuguese one, turned down
for the ninth group). Turned down before and not looked at again: FRANK, XSumFaith, ClaimDecomp,
HoVer, AVeriTeC, FactCC's annotated set (no text or no data in their repositories).
"""


# === Fourteenth fresh group, public half (``--fresh14``) =========================================
# Picked after the thirteenth group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH14_OUT = Path("/tmp/factver-fresh14")

_FABLES_PATH = "data/FABLES.json.zip"
_FABLES_MEMBER = "FABLES.json"
_FABLES_LABEL = {"Yes": SUPPORTED, "No": UNSUPPORTED, "PartialSupport": UNSUPPORTED}
# What annotators typed in the evidence list when they had no passage to quote.
_NO_QUOTE = {"", "n/a", "na", "none", "-", "no evidence", "no evidence to verify this"}


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def fables(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per annotated claim of FABLES: the claim (from a model's summary of a whole novel)
    against the passages of the novel its annotator quoted for the label. ``Yes`` -> supported;
    ``No`` and ``PartialSupport`` -> unsupported; ``Inapplicable`` claims and claims without a
    quoted passage are dropped."""
    with zipfile.ZipFile(io.BytesIO(rd.data(FABLES, _FABLES_PATH))) as zf:
        books = json.loads(zf.read(_FABLES_MEMBER).decode("utf-8"))["FABLES"]
    for book, models in books.items():
        for model, summary in models.items():
            seen: set[str] = set()
            for k, c in summary["claims"].items():
                label = c["label"].strip()
                if label not in _FABLES_LABEL:
                    tally.dropped[f"label {label!r}"] += 1
                    continue
                claim = clean(c["claim"], tally)
                quotes = [q for q in (clean(e, tally) for e in c.get("evidence") or [])
                          if q.lower().rstrip(".") not in _NO_QUOTE]
                if not claim or not quotes:
                    tally.dropped["no claim or no quoted passage"] += 1
                    continue
                if tally.repeated(seen, claim, "claim repeated in the same summary"):
                    continue
                yield Example(
                    id=f"fables-{_slug(book)}-{_slug(model)}-{k}",
                    group=book,
                    quotes=quotes,
                    claim=claim,
                    label=_FABLES_LABEL[label],
                    cls=label,
                    source=source(FABLES, _FABLES_PATH),
                )


_FALKE_PATH = "data/falke-correctness/val_sentence_pairs.json"


def cogensumm(rd: Reader, tally: Tally) -> Iterator[Example]:
    """Falke et al.'s sentence triples: each generated summary sentence against the one article
    sentence both of the triple's summary sentences were made from. The sentence labelled correct
    -> supported, the one labelled incorrect -> unsupported; a (sentence, article sentence) pair
    is kept once, and dropped when it is labelled both ways."""
    triples = json.loads(rd.text(FALKE, _FALKE_PATH))
    labels: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for t in triples:
        labels[(t["article_sent"], t["correct_sent"])].add("correct")
        labels[(t["article_sent"], t["incorrect_sent"])].add("incorrect")
    seen: set[tuple[str, str]] = set()
    for n, t in enumerate(triples):
        for cls, label in (("correct", SUPPORTED), ("incorrect", UNSUPPORTED)):
            key = (t["article_sent"], t[f"{cls}_sent"])
            if tally.repeated(seen, key, "repeated sentence and article sentence"):
                continue
            if len(labels[key]) > 1:
                tally.dropped["sentence labelled both correct and incorrect"] += 1
                continue
            quote, claim = clean(key[0], tally), clean(key[1], tally)
            if not quote or not claim:
                tally.dropped["empty sentence"] += 1
                continue
            yield Example(
                id=f"cogensumm-{n}-{cls}",
                group=t["article_id"],
                quotes=[quote],
                claim=claim,
                label=label,
                cls=cls,
                source=source(FALKE, _FALKE_PATH),
            )


FRESH14 = [
    Dataset(
        "fables",
        "claims from model summaries of whole novels vs the passages annotators quoted",
        fables,
        f"""\
Origin: FABLES (Kim et al., COLM 2024: "FABLES: Evaluating faithfulness and content selection
in book-length summarization"), {FABLES.name} `{_FABLES_PATH}` (`{_FABLES_MEMBER}`) @ {FABLES.commit}
(3,158 claims from 130 summaries of 26 novels published in 2023-2024, five summarising models).
Licence: MIT (repository LICENSE); the quoted passages are from copyrighted novels; used here for
evaluation only, never redistributed. GPT-4 split each summary into decontextualised claims;
annotators who had read the whole book labelled each claim Yes (faithful), No, PartialSupport or
Inapplicable, and for most claims quoted the passages of the book behind their label (the books
themselves are not released). The claim is the claim, the quotes the passages its annotator
quoted (several per claim at times; median about 500 characters in all, at most about 10,500).
Label: Yes -> supported; No and PartialSupport -> unsupported (partly supported counts as not
supported, as elsewhere). Inapplicable claims are dropped, as are claims whose evidence is only a
placeholder ("N/A", "None", empty). `class` is the label. The annotators' free-text reasons are
not used (they are not text of the source). The quotes back a reader's judgement of the whole
book, so a supported claim may rest on more than the quoted lines say.""",
    ),
    Dataset(
        "cogensumm",
        "generated summary sentences vs the news article sentence they were made from",
        cogensumm,
        f"""\
Origin: the summary-correctness data of Falke et al. (ACL 2019: "Ranking Generated Summaries by
Correctness: An Interesting but Challenging Application for Natural Language Inference", often
called CoGenSumm), as {FALKE.name} held it before removing it, `{_FALKE_PATH}` @ {FALKE.commit}
(373 triples over 145 CNN/Daily Mail articles; the QAGS set of the third group comes from a later
commit of the same repository and other data). Licence: CC BY-SA 4.0 (the folder's README.txt).
Crowd workers labelled the sentences of generated summaries correct or incorrect against the
article; the authors then made triples of one article sentence and two summary sentences made
from it, one labelled correct and one incorrect. The claim is a summary sentence, the quote that
article sentence (one sentence; median about 140 characters), both lower-case as in the
source. Label: correct -> supported, incorrect -> unsupported; `class` is that label. A
(summary sentence, article sentence) pair met again is kept once; the 3 sentences labelled both
ways (two summaries, one text) are dropped. The article sentence was picked by the authors, not
by the workers, who judged the whole article. The files with whole-summary labels
(`test_*_org.json`, `val_reranking.json`) hold article ids, not article text, and are not used.""",
    ),
]


FRESH14_README_HEAD = _group_head("Fourteenth", "--fresh14", "thirteenth", "snapshots") + """\
Looked at and not used: RAGTruth, HaluEval and ExpertQA again (ParticleMedia/RAGTruth,
RUCAIBox/HaluEval, chaitanyamalaviya/ExpertQA: newest snapshots, the response, QA/dialogue/summary
and annotated-claim files are still absent); RefChecker's human annotations
(amazon-science/RefChecker: claim triplets labelled by people, but the reference texts are a
download from Dolly, MS MARCO and Natural Questions); AttrScore, Attributed-QA and HAGRID
(OSU-NLP-Group/AttrScore, google-research-datasets/Attributed-QA, project-miracl/hagrid: prompts
or a README only, `ratings.zip` absent); SelfCheckGPT's WikiBio annotations
(potsawee/selfcheckgpt: no data in the repository); RAWFC and LIAR-RAW (Nicozwy/CofCED: data
absent from the snapshot); generative-search verifiability judgments
(nelson-liu/evaluating-verifiability-in-generative-search-engines: the annotation files are
absent); the LLM news-summarisation ratings (Tiiiger/benchmark_llm_summarization:
`likert_evaluation_results.json` absent); LongEval (martiansideofthemoon/longeval-summarization:
the judgments are a download; the SQuALITY alignments in the repository are support links only,
one class); FEQA's faithfulness annotations (esdurmus/feqa: not in the snapshot); Fin-Fact
(IIT-DHAR/Fin-Fact: no snapshot to be had); PUBHEALTH through Zarharan/NLE-for-fact-checking (its
`dev.tsv` and test prompt files are absent; the 345 test claims scattered over its experiment
CSVs pair fact-checkers' labels with their own explanations, the genre of LIAR-PLUS); PolyTope
(hddbang/PolyTope: kept for a later group; its Excel macro workbooks, one per summariser, hold the
CNN/Daily Mail articles and per-summary error rows, accuracy errors such as addition and
inaccuracy mixed with omission and fluency, and need a careful reader of the sheet layout).
"""


# === Fifteenth fresh group, public half (``--fresh15``) ==========================================
# Picked after the fourteenth group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH15_OUT = Path("/tmp/factver-fresh15")

# ExpertQA's annotated answers, split two ways (by domain, at random) over the same examples; the
# train files of both splits are absent from the snapshot, so the four test and validation files
# are read and an answer met in two of them is kept once.
_EXPERTQA_PATHS = tuple(
    f"data/lfqa/{split}_{part}.jsonl" for split in ("domain", "rand") for part in ("test", "val")
)
# Experts' attribution judgement of a claim against the evidence cited for it. "Incomplete" is the
# spelling of "Partial" in some of the files (the paper names three grades: complete, partial,
# missing). "Missing" claims cite nothing and "N/A" ones could not be judged: both are dropped.
_EXPERTQA_LABEL = {"Complete": SUPPORTED, "Partial": UNSUPPORTED, "Incomplete": UNSUPPORTED}
# An evidence string opens with its citation number and URL, then a blank line and the passage.
_EXPERTQA_HEAD = re.compile(r"\[\d+\][ \t]*\S*[ \t]*\n")
# The answer's citation markers in a claim ("... the team [1].", "... compromised[1] [3].").
_CITE_MARK = re.compile(r"\s*\[\d+\](?:\s*\[\d+\])*")


def expertqa(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per claim of an ExpertQA answer that an expert judged against the passages the
    answer cites for it: the claim (its citation markers removed) against those passages.
    ``Complete`` -> supported; ``Partial`` / ``Incomplete`` -> unsupported; ``Missing`` and ``N/A``
    claims, and claims whose evidence is only a URL, are dropped."""
    seen: dict[tuple[str, str, str], str] = {}
    kept: list[tuple[tuple[str, str, str], Example]] = []
    for path in _EXPERTQA_PATHS:
        for r in rd.jsonl(EXPERTQA, path):
            for system, ans in sorted(r["answers"].items()):
                for k, c in enumerate(ans.get("claims") or []):
                    support = (c.get("support") or "").strip()
                    if support not in _EXPERTQA_LABEL:
                        tally.dropped[f"support {support or 'empty'!r}"] += 1
                        continue
                    raw = c["claim_string"].strip()
                    key = (r["question"], system, raw)
                    if key in seen:
                        if seen[key] != support:
                            tally.dropped["claim judged differently in two files"] += 1
                            kept = [(kk, e) for kk, e in kept if kk != key]
                            seen[key] = ""
                        else:
                            tally.dropped["claim met again in the other split's files"] += 1
                        continue
                    seen[key] = support
                    claim = _CITE_MARK.sub("", raw).strip()
                    if claim != raw:
                        tally.fixed["citation marker [n] removed from the claim"] += 1
                    claim = clean(claim, tally)
                    quotes = []
                    for e in c.get("evidence") or []:
                        body = _EXPERTQA_HEAD.sub("", e.strip(), count=1) if e.startswith("[") else e
                        body = clean(body, tally)
                        if body and not re.fullmatch(r"\[\d+\]\s*\S*", body) and body not in quotes:
                            quotes.append(body)
                    if not claim or not quotes:
                        tally.dropped["no claim or only URLs as evidence"] += 1
                        continue
                    qid = hashlib.sha256(r["question"].encode()).hexdigest()[:10]
                    kept.append((key, Example(
                        id=f"expertqa-{qid}-{_slug(system)}-{k}",
                        group=qid,
                        quotes=quotes,
                        claim=claim,
                        label=_EXPERTQA_LABEL[support],
                        cls=support,
                        source=source(EXPERTQA, path),
                    )))
    for _, ex in kept:
        yield ex


# PolyTope's annotation workbooks (Excel with macros; read here as the zip of XML sheets they are),
# one per summariser. Only the abstractive summarisers are used: the extractive ones (TextRank,
# Summa, BertExt) copy article sentences, and no accuracy error of the kinds below was recorded
# for them.
_POLYTOPE_SYSTEMS = ("BART", "Bert_Ext_Abs", "BottomUp", "PG", "PG_Coverage", "seq2seq")
_POLYTOPE_DIR = "outputs_with_human_annotation"
# Error subtypes that make a summary say something its article does not: a source fact distorted
# (internal), a fact from outside the article (external), a polarity turned round. Omission,
# Addition (an unimportant but faithful snippet of the source), Duplication and Word_Form are not
# faithfulness errors.
_POLYTOPE_UNFAITHFUL = ("Inaccuracy_internal", "Inaccuracy_external", "Positive_Negative_Aspect")
_XL = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_XL_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def xlsx_sheets(data: bytes) -> dict[str, list[dict[str, str]]]:
    """Every sheet of an Excel (.xlsx / .xlsm) workbook as rows of {column letter: text}; the
    standard library only (a workbook is a zip of XML parts)."""
    import xml.etree.ElementTree as ET

    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        strings = []
        if "xl/sharedStrings.xml" in names:
            for si in ET.fromstring(zf.read("xl/sharedStrings.xml")).iter(f"{_XL}si"):
                strings.append("".join(t.text or "" for t in si.iter(f"{_XL}t")))
        rels = {
            r.get("Id"): r.get("Target", "")
            for r in ET.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
        }
        out: dict[str, list[dict[str, str]]] = {}
        for sh in ET.fromstring(zf.read("xl/workbook.xml")).iter(f"{_XL}sheet"):
            target = rels[sh.get(_XL_REL)].removeprefix("/xl/").removeprefix("/")
            part = target if target.startswith("xl/") else f"xl/{target}"
            rows = []
            for row in ET.fromstring(zf.read(part)).iter(f"{_XL}row"):
                cells: dict[str, str] = {}
                for c in row.iter(f"{_XL}c"):
                    col = "".join(ch for ch in c.get("r", "") if ch.isalpha())  # "B7" -> "B"
                    v, t = c.find(f"{_XL}v"), c.get("t")
                    if t == "s" and v is not None and v.text is not None:
                        cells[col] = strings[int(v.text)]
                    elif t == "inlineStr":
                        cells[col] = "".join(x.text or "" for x in c.iter(f"{_XL}t"))
                    elif v is not None and v.text is not None:
                        cells[col] = v.text
                rows.append(cells)
            out[sh.get("name", "")] = rows
    return out


def polytope(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per summary of PolyTope's abstractive summarisers: the whole summary against the
    whole article. A summary with an annotated inaccuracy (internal or external) or polarity error
    -> unsupported; one whose only annotated errors are omissions, additions of source snippets or
    fluency errors, or none -> supported. Summaries with the UNK token are dropped."""
    for system in _POLYTOPE_SYSTEMS:
        path = f"{_POLYTOPE_DIR}/Human_Annotation_Summarization_{system}.xlsm"
        sheets = xlsx_sheets(rd.data(POLYTOPE, path))
        errors: dict[str, set[str]] = collections.defaultdict(set)
        for row in sheets["Error Log"][1:]:
            if row.get("A"):
                errors[row["A"].strip()].add((row.get("F") or "").strip())
        for row in sheets["Scores per segment"][1:]:
            sid = (row.get("A") or "").strip()
            if not sid:
                continue
            article, summary = clean(row.get("B") or "", tally), clean(row.get("C") or "", tally)
            if not article or not summary:
                tally.dropped["empty article or summary"] += 1
                continue
            if sid not in errors:
                tally.dropped["summary without rows in the error log"] += 1
                continue
            if re.search(r"\bUNK\b", summary):
                tally.dropped["summary with the UNK token"] += 1
                continue
            bad = sorted(errors[sid] & set(_POLYTOPE_UNFAITHFUL))
            yield Example(
                id=f"polytope-{_slug(system)}-{_slug(sid)}",
                group=sid.split("-")[0],
                quotes=[article],
                claim=summary,
                label=UNSUPPORTED if bad else SUPPORTED,
                cls=bad[0].lower() if bad else "no inaccuracy",
                source=source(POLYTOPE, path),
            )


_MUFAME_PATHS = ("data/MuFaME/MuFaME_test.csv", "data/MuFaME/MuFaME_validation.csv")


def mufame(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per (WikiHow step, summary): the one-line summary against the step's paragraph,
    labelled by the majority of its three workers' ``doc_factuality`` votes (two or three 1s ->
    supported, else unsupported; ``class`` the count, "2/3 factual"). A summary text met again for
    the same paragraph (two systems wrote the same line) is kept once, and dropped when the
    majorities differ."""
    votes: dict[tuple[str, str, str], list[int]] = collections.defaultdict(list)
    where: dict[tuple[str, str, str], str] = {}
    for path in _MUFAME_PATHS:
        for row in csv.DictReader(io.StringIO(rd.text(MUFAME, path))):
            key = (row["doc_id"], row["model"], path)
            votes[key].append(int(row["doc_factuality"]))
            where[key] = row["document"] + "\x00" + row["summary"]
    majority: dict[str, set[bool]] = collections.defaultdict(set)
    for key, vs in votes.items():
        majority[where[key]].add(2 * sum(vs) > len(vs))
    seen: set[str] = set()
    for (doc_id, model, path), vs in votes.items():
        text = where[(doc_id, model, path)]
        if len(vs) % 2 == 0:
            tally.dropped["even number of votes"] += 1
            continue
        if tally.repeated(seen, text, "summary repeated for the same paragraph"):
            continue
        if len(majority[text]) > 1:
            tally.dropped["repeated summary with another majority"] += 1
            continue
        document, summary = (clean(s, tally) for s in text.split("\x00"))
        if not document or not summary:
            tally.dropped["empty paragraph or summary"] += 1
            continue
        yes = sum(vs)
        yield Example(
            id=f"mufame-{_slug(doc_id)}-{_slug(model)}",
            group=doc_id.split("_")[0],
            quotes=[document],
            claim=summary,
            label=SUPPORTED if 2 * yes > len(vs) else UNSUPPORTED,
            cls=f"{yes}/{len(vs)} factual",
            source=source(MUFAME, path),
        )


FRESH15 = [
    Dataset(
        "expertqa",
        "claims of model answers to experts' questions vs the web passages cited for them",
        expertqa,
        f"""\
Origin: ExpertQA (Malaviya et al., NAACL 2024: "ExpertQA: Expert-Curated Questions and Attributed
Answers"), {EXPERTQA.name} `data/lfqa/{{domain,rand}}_{{test,val}}.jsonl` @ {EXPERTQA.commit}
(the two splits' test and validation files, which hold the same annotated answers cut two ways;
the train files and the compiled `r2_*` files are absent from the snapshot or Git LFS pointers).
Licence: MIT (repository LICENSE); the passages are text of web pages; used here for evaluation
only, never redistributed. Experts in 32 fields wrote questions; six systems (GPT-4 alone, with
retrieval from Sphere or Google search, with post-hoc retrieval, Bing Chat) answered them; each
answer was cut into claims, and the expert who asked judged whether the passages cited for a
claim support it: Complete, Partial (spelt Incomplete in some rows) or Missing (nothing cited).
The claim is the claim as judged, with its citation markers ("[1]", "[1] [3]") removed; the
quotes are the cited passages, each without its "[n] URL" first line (one to four per claim;
median about 1,000 characters in all). Label: Complete -> supported; Partial / Incomplete ->
unsupported (partly supported counts as not supported, as elsewhere). Missing and N/A claims are
dropped, and so are claims whose cited evidence is only a URL (Bing Chat's and GPT-4's own
citations: the expert read the page, the file holds no text of it). A claim met in both splits'
files is kept once. `class` is the judgement. The experts' revised
claims, correctness and reliability ratings are not used.""",
    ),
    Dataset(
        "polytope",
        "news summaries by six abstractive summarisers vs the whole article",
        polytope,
        f"""\
Origin: PolyTope (Huang et al., EMNLP 2020: "What Have We Achieved on Text Summarization?"),
{POLYTOPE.name} `{_POLYTOPE_DIR}/Human_Annotation_Summarization_<system>.xlsm` @ {POLYTOPE.commit}
for the six abstractive systems ({", ".join(_POLYTOPE_SYSTEMS)}; 150 CNN/Daily Mail test
articles each, 68 for BART). Licence: none stated in the repository; the articles are CNN / Daily
Mail news text; used here for evaluation only, never redistributed. Annotators logged every error
of a summary against its article by type: accuracy (omission, addition of unimportant source
text, internal inaccuracy, external inaccuracy, positive/negative aspect) or fluency
(duplication, word form...). The claim is the whole summary, the quote the whole article, both
lower-case and tokenised as in the workbooks (sheet "Scores per segment"; median article about
2,400 characters, at most about 9,400). Label: a summary with an internal or external inaccuracy
or a polarity error in the "Error Log" sheet -> unsupported (`class` the first of those,
lower-case); any other summary -> supported (`class` "no inaccuracy": it may still omit things,
repeat itself or add an unneeded but faithful snippet). Summaries containing the UNK token
(seq2seq's placeholder for an unknown word) are dropped. The extractive systems' workbooks
(TextRank, Summa, BertExt) are not used: their summaries are article sentences. The supported
label is the absence of a logged error, not a separate judgement.""",
    ),
    Dataset(
        "mufame",
        "one-line summaries of WikiHow steps vs the step's paragraph",
        mufame,
        f"""\
Origin: MuFaME (Wan and Bansal, EMNLP 2022: "Evaluating and Improving Factuality in Multimodal
Abstractive Summarization"), {MUFAME.name} `{_MUFAME_PATHS[0]}` and `{_MUFAME_PATHS[1]}` @
{MUFAME.commit} (1,225 summaries of 245 WikiHow steps, three crowd workers each). Licence: MIT
(repository LICENSE); the paragraphs and reference lines are WikiHow text; used here for
evaluation only, never redistributed. Each WikiHow step has a paragraph, a picture and a
one-line heading; four systems (PEGASUS, T5, VL-BART and the multimodal `mof`) summarised the
paragraph in one line, and the heading itself was added as a fifth. Workers judged each line
factual or not with respect to the paragraph and, separately, to the picture. The claim is the
line (mostly an instruction, "Create a business plan."), the quote the paragraph (median about
420 characters, at most about 2,000). Label: the majority of the three paragraph votes
(`doc_factuality`): two or three -> supported, none or one -> unsupported; `class` is the count
("2/3 factual"). The picture votes and the combined score are not used. A line met again for the
same step (two systems wrote the same words) is kept once, and dropped if its majorities differ.""",
    ),
]


FRESH15_README_HEAD = _group_head("Fifteenth", "--fresh15", "fourteenth", "snapshots") + """\
Looked at and not used: RAGTruth and HaluEval (ParticleMedia/RAGTruth, RUCAIBox/HaluEval: newest
snapshots, `response.jsonl`, `source_info.jsonl` and the QA/dialogue/summary files are still
absent; HaluEval's `general_data.json` labels ChatGPT answers without any evidence text);
RefChecker's human annotations (amazon-science/RefChecker: labels on knowledge triplets, not
claims, and the reference texts are a download); AttrScore, Attributed-QA, HAGRID, SelfCheckGPT,
FEQA, tagoyal/factuality-datasets (prompts, code or a README only); WANLI (samples only);
LongEval (support links only, one class); generative-search verifiability judgments (files
absent). ExpertQA's claims, turned down for the fourteenth group for want of the `r2_*` files,
are in its `data/lfqa/` files, used here.
"""


# === Sixteenth fresh group, public half (``--fresh16``) ==========================================
# Picked after the fifteenth group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH16_OUT = Path("/tmp/factver-fresh16")

# AttributionBench's files (one row per claim, the source set named in ``src_dataset``); the full
# train and test files are Git LFS pointers in the snapshot, so the three that are text are read.
# A row is met once per file; an id met in two files is kept once.
_ATTRBENCH_PATHS = (
    "data/test_ood_all_subset_balanced.jsonl",
    "data/test_all_subset_balanced_sampled500.jsonl",
    "data/dev_all_subset_balanced.jsonl",
)
_ATTRBENCH_LABEL = {"attributable": SUPPORTED, "not attributable": UNSUPPORTED}
# A reference's leading citation number ("[1] The Marquis was ...", HAGRID's quotes).
_REF_NUMBER = re.compile(r"\[\d+\]\s*")
# A "claim" that is a line of a reference list (HAGRID's answers sometimes end with one:
# '"Lagos," Wikipedia. [Online]. Available: https://... [Accessed: ...].'), not a statement.
_BIBLIO_LINE = re.compile(r"\[(?:Online|Accessed)\b|Available: https?://")
# Citation markers in a claim, single or listed ("... Sydney [1].", "... League. [1, 2]", "[1][2]").
_CITE_LIST = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\](?:\s*\[\d+(?:\s*,\s*\d+)*\])*")


def _attributionbench(src: str, name: str) -> Callable[[Reader, Tally], Iterator[Example]]:
    def convert(rd: Reader, tally: Tally) -> Iterator[Example]:
        """One pair per AttributionBench row of the source set ``src``: the claim (its citation
        markers removed) against the reference passages given for it. ``attributable`` ->
        supported, ``not attributable`` -> unsupported; rows with no reference text are dropped."""
        seen: set[str] = set()
        for path in _ATTRBENCH_PATHS:
            for r in rd.jsonl(ATTRIBUTIONBENCH, path):
                if r.get("src_dataset") != src:
                    continue
                if r["id"] in seen:
                    tally.dropped["row met again in another file"] += 1
                    continue
                seen.add(r["id"])
                lab = (r.get("attribution_label") or "").strip()
                if lab not in _ATTRBENCH_LABEL:
                    tally.dropped[f"label {lab or 'empty'!r}"] += 1
                    continue
                raw = r["claim"].strip()
                claim = _CITE_LIST.sub("", raw).strip()
                if claim != raw:
                    tally.fixed["citation marker [n] / [n, m] removed from the claim"] += 1
                claim = clean(claim, tally)
                if _BIBLIO_LINE.search(claim):
                    tally.dropped["claim is a reference-list line"] += 1
                    continue
                quotes: list[str] = []
                for ref in r.get("references") or []:
                    body = _REF_NUMBER.sub("", ref.strip(), count=1) if ref.strip().startswith("[") else ref
                    body = clean(body, tally)
                    if body and body not in quotes:
                        quotes.append(body)
                if not claim or not quotes:
                    tally.dropped["no claim or no reference text"] += 1
                    continue
                rid = r["id"].split("_", 1)[-1]
                yield Example(
                    id=f"{name}-{_slug(rid)}",
                    group=hashlib.sha256((r.get("question") or rid).encode()).hexdigest()[:10],
                    quotes=quotes,
                    claim=claim,
                    label=_ATTRBENCH_LABEL[lab],
                    cls=lab,
                    source=source(ATTRIBUTIONBENCH, path),
                )

    return convert


_ATTRBENCH_ORIGIN = (
    f"{ATTRIBUTIONBENCH.name} `{{{','.join(p.removeprefix('data/') for p in _ATTRBENCH_PATHS)}}}` "
    f"under `data/` @ {ATTRIBUTIONBENCH.commit} (AttributionBench, Li et al., ACL Findings 2024,"
    " which gathers seven attribution sets into one format and balances each set's two labels;"
    " its full train and test files are Git LFS pointers in the snapshot)"
)
_ATTRBENCH_LABEL_NOTE = """Label: AttributionBench's `attribution_label`, "attributable" -> supported, "not attributable" ->
unsupported (AttributionBench maps the source set's own grades onto these two; partly supported
or uncertain grades are "not attributable", so partly supported counts as not supported, as
elsewhere; the mapping is AttributionBench's, as its paper describes it). `class` is that label.
The claim has its citation markers ("[1]", "[1][2]", "[1, 2]") removed;
each quote is one reference passage without a leading "[n]". Rows with no reference text, and
rows whose claim is a line of a reference list ("... [Online]. Available: https://..."), are
dropped; a row met in two of the files is kept once. The split group is the question."""

FRESH16 = [
    Dataset(
        "hagrid",
        "sentences of LLM answers to MIRACL questions vs the Wikipedia passages they cite",
        _attributionbench("HAGRID", "hagrid"),
        f"""\
Origin: HAGRID (Kamalloo et al., 2023: "HAGRID: A Human-LLM Collaborative Dataset for Generative
Information-Seeking with Attribution"; project-miracl/hagrid holds only a README), as
{_ATTRBENCH_ORIGIN}. Licence: Apache-2.0 (HAGRID; AttributionBench's repository states none); the
passages are Wikipedia text (CC BY-SA); used here for evaluation only, never redistributed. GPT-3.5
answered MIRACL English questions citing the MIRACL passages given to it; annotators judged each
answer sentence attributable to its cited passages or not. The claim is one answer sentence, the
quotes the passages it cites (usually one).
{_ATTRBENCH_LABEL_NOTE}""",
    ),
    Dataset(
        "attrscore-gensearch",
        "answers of generative search engines vs the web passage they cite",
        _attributionbench("AttrScore-GenSearch", "attrscore-gensearch"),
        f"""\
Origin: AttrEval-GenSearch (Yue et al., Findings of EMNLP 2023: "Automatic Evaluation of
Attribution by Large Language Models"; OSU-NLP-Group/AttrScore holds prompts and code only), as
{_ATTRBENCH_ORIGIN}. Licence: MIT (AttrScore; AttributionBench's repository states none); the passages are web
text; used here for evaluation only, never redistributed. Annotators wrote questions on recent
events, took answers from a generative search engine (New Bing) with a cited web passage, and
judged each answer attributable, extrapolatory or contradictory. The claim is the answer (one to
a few sentences), the quote the cited passage.
{_ATTRBENCH_LABEL_NOTE} (Here: extrapolatory and contradictory are both "not attributable".)""",
    ),
    Dataset(
        "stanford-gensearch",
        "sentences of generative search engines' answers vs the web passage they cite",
        _attributionbench("Stanford-GenSearch", "stanford-gensearch"),
        f"""\
Origin: the verifiability judgements of generative search engines (Liu, Zhang and Liang, Findings
of EMNLP 2023: "Evaluating Verifiability in Generative Search Engines"), as {_ATTRBENCH_ORIGIN}.
Licence: none stated in AttributionBench's repository; the passages are web text; for evaluation only,
never redistributed. Four engines (Bing Chat, NeevaAI, perplexity.ai, YouChat) answered questions
with cited web pages; annotators judged whether each cited passage fully supports, partly
supports or does not support the answer sentence. The claim is the sentence (as given, including
a leading list number such as "4."), the quote the cited passage.
{_ATTRBENCH_LABEL_NOTE} (Here: only full support is "attributable".)""",
    ),
]


FRESH16_README_HEAD = _group_head("Sixteenth", "--fresh16", "fifteenth", "snapshot") + """\
All three sets are read from AttributionBench's copies: the original repositories hold no usable
data in their snapshots. Looked at and not used: AttrScore itself (OSU-NLP-Group/AttrScore: prompts
and code only; its GenSearch set is used, through AttributionBench); HAGRID's own repository
(README only); Attributed-QA (google-research-datasets/Attributed-QA: `ratings.zip` absent from
the snapshot; AttributionBench's 146 AttributedQA rows are kept for a later group); WANLI
(alisawuffles/wanli: 100-row samples only, NLI on generated sentences); HANS (tommccoy1/hans: its
data files absent; `mnli_contradicting_examples` is one class); SciTail (allenai/scitail: a test
fixture only); AttributionBench's ExpertQA, LFQA and BEGIN rows (those sets were used in earlier
groups).
"""


# === Seventeenth fresh group, public half (``--fresh17``) ========================================
# Picked after the sixteenth group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH17_OUT = Path("/tmp/factver-fresh17")

# SciTail's labelled dev and test pairs, as AI2's leaderboard repository keeps them to score
# submissions (allenai/scitail itself holds a download script only); the training pairs are not in it.
_SCITAIL_PATHS = ("scitail/data/test/answers.jsonl", "scitail/data/dev/answers.jsonl")
_SCITAIL_LABEL = {"E": SUPPORTED, "N": UNSUPPORTED}


def _premise_rows(rd: Reader, tally: Tally, repo: Repo, paths: tuple[str, ...], labels: dict[str, str],
                  keys: tuple[str, str, str], empty: str) -> Iterator[tuple[str, dict, str, str, str]]:
    """The rows of an entailment set's JSON-lines files (``keys``: its label, premise and
    hypothesis fields) whose label is one of ``labels`` and whose premise and hypothesis are
    not empty once cleaned, as (path, row, label, premise, hypothesis); the others are counted
    as dropped (``empty`` names an empty pair)."""
    label_key, premise_key, hyp_key = keys
    for path in paths:
        for r in rd.jsonl(repo, path):
            lab = (r.get(label_key) or "").strip()
            if lab not in labels:
                tally.dropped[f"label {lab or 'empty'!r}"] += 1
                continue
            premise = clean(r.get(premise_key) or "", tally)
            hyp = clean(r.get(hyp_key) or "", tally)
            if not premise or not hyp:
                tally.dropped[empty] += 1
                continue
            yield path, r, lab, premise, hyp


def _one_label_pairs(rows: Iterable[tuple[str, dict, str, str, str]], tally: Tally,
                     again: str) -> Iterator[tuple[str, dict, str, str, str]]:
    """The (path, row, label, premise, hypothesis) ``rows`` with each premise/hypothesis pair once: a
    pair met again with the same label is kept the first time, one met with two labels is dropped,
    every copy (counted in ``tally`` as ``again``, and ``again`` "with another label")."""
    rows = list(rows)
    labels: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for _, _, lab, premise, hyp in rows:
        labels[(premise, hyp)].add(lab)
    seen: set[tuple[str, str]] = set()
    for row in rows:
        _, _, _, premise, hyp = row
        if len(labels[(premise, hyp)]) > 1:
            tally.dropped[f"{again} with another label"] += 1
            continue
        if tally.repeated(seen, (premise, hyp), again):
            continue
        yield row


def scitail(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per labelled SciTail row: the hypothesis (a science exam question and its answer as
    one statement) against the premise (a sentence found on the web). ``E`` (entails) ->
    supported, ``N`` (neutral) -> unsupported; a premise/hypothesis pair met again is kept once."""
    seen: set[tuple[str, str]] = set()
    for path, r, lab, premise, hyp in _premise_rows(rd, tally, SCITAIL, _SCITAIL_PATHS, _SCITAIL_LABEL,
                                                    ("gold_label", "sentence1", "sentence2"),
                                                    "empty premise or hypothesis"):
        if tally.repeated(seen, (premise, hyp), "premise/hypothesis pair met again"):
            continue
        yield Example(
            id=f"scitail-{_slug(r['id'])}",
            group=hashlib.sha256(hyp.encode()).hexdigest()[:10],
            quotes=[premise],
            claim=hyp,
            label=_SCITAIL_LABEL[lab],
            cls=lab,
            source=source(SCITAIL, path),
        )


# ConTRoL's dev and test files (`train.jsonl` is absent from the snapshot); `uid` restarts at
# ``id_0`` in each file, so an id names the file too.
_CONTROL_PATHS = ("data/test.jsonl", "data/dev.jsonl")
_CONTROL_LABEL = {"e": SUPPORTED, "c": UNSUPPORTED, "n": UNSUPPORTED}


def control(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per ConTRoL row: the exam statement (hypothesis) against the passage it is about.
    ``e`` (entailed, "true") -> supported; ``c`` (contradicted, "false") and ``n`` (neutral,
    "cannot say") -> unsupported. A passage/statement pair met again with the same label is kept
    once; one met with another label is dropped, every copy of it."""
    rows = _premise_rows(rd, tally, CONTROL, _CONTROL_PATHS, _CONTROL_LABEL, ("label", "premise", "hypothesis"),
                         "empty passage or statement")
    for path, r, lab, premise, hyp in _one_label_pairs(rows, tally, "statement met again for the passage"):
        part = Path(path).stem
        yield Example(
            id=f"control-{part}-{_slug(r['uid'])}",
            group=hashlib.sha256(premise.encode()).hexdigest()[:10],
            quotes=[premise],
            claim=hyp,
            label=_CONTROL_LABEL[lab],
            cls=lab,
            source=source(CONTROL, path),
        )


FRESH17 = [
    Dataset(
        "scitail",
        "science exam answers stated as sentences vs a web sentence retrieved for them",
        scitail,
        f"""\
Origin: SciTail (Khot, Sabharwal and Clark, AAAI 2018: "SciTail: A Textual Entailment Dataset from
Science Question Answering"), the labelled dev and test pairs as {SCITAIL.name}
`{{{','.join(p.removeprefix('scitail/data/') for p in _SCITAIL_PATHS)}}}` under `scitail/data/` @
{SCITAIL.commit} (2,126 test and 1,304 dev pairs, kept there to score leaderboard submissions;
allenai/scitail holds a download script only). Licence: Apache-2.0 (the leaderboard repository's
LICENSE); used here for evaluation only, never redistributed. The authors turned each
multiple-choice science exam question and its correct answer into one statement (the
hypothesis), retrieved web sentences for it, and crowd workers judged whether each sentence
supports the statement (entails) or not (neutral); there is no contradiction class. The claim is
the hypothesis, the quote the retrieved sentence, as given (inner runs of spaces kept).
Label: `E` (entails) -> supported, `N` (neutral) -> unsupported; `class` is that letter. A
premise/hypothesis pair met twice is kept once (none is, at the pinned commit). The split group is
the hypothesis (one statement has several retrieved sentences).""",
    ),
    Dataset(
        "control",
        "statements of reasoning exams vs the passage (one to several paragraphs) they are about",
        control,
        f"""\
Origin: ConTRoL (Liu, Cui, Liu and Zhang, AAAI 2021: "Natural Language Inference in Context -
Investigating Contextual Reasoning over Long Texts"), {CONTROL.name} `data/test.jsonl` and
`data/dev.jsonl` @ {CONTROL.commit} (805 + 799 pairs over 398 passages; `train.jsonl` is absent from
the snapshot). Licence: CC BY-NC-SA 4.0 (repository README); used here for evaluation only, never
redistributed. The passages and statements come from the verbal and logical reasoning tests of
competitive selection and recruitment exams, each statement with the answer the test gives for it
against its passage (true, false or cannot say), as the dataset's authors collected them. Some
statements speak of the passage itself ("The author of the passage ..."). The claim is the
statement, the quote the whole passage (median about 1,200 characters, at most about 8,200).
Label: `e` (entailed) -> supported, `c` (contradicted) and `n` (neutral: cannot say) ->
unsupported; `class` is that letter. A statement met twice for the same passage is kept once with
the same label, and dropped, every copy, with two labels. The split group is the passage.""",
    ),
    Dataset(
        "attributedqa",
        "one-sentence answers of QA systems to Natural Questions vs the Wikipedia passage given",
        _attributionbench("AttributedQA", "attributedqa"),
        f"""\
Origin: Attributed QA (Bohnet et al., 2022: "Attributed Question Answering: Evaluation and
Modeling for Attributed Large Language Models"; google-research-datasets/Attributed-QA's
`ratings.zip` is absent from its snapshot), as {_ATTRBENCH_ORIGIN}. Licence: Apache-2.0
(google-research-datasets/Attributed-QA's LICENSE; AttributionBench's repository states none);
the passages are Wikipedia text (CC BY-SA); used here for evaluation only, never redistributed.
23 systems answered questions of the OpenNQ development set with a short answer span and an
attributing Wikipedia passage; human raters judged whether the passage supports the answer
(AIS, a 5-way annotation reduced to yes / no). The claim is the answer stated as one sentence,
as AttributionBench gives it ("Toby Keith sang the song ..."); the quote the passage, as given,
with its "Title: ..." line. Only the 146 rows of AttributionBench's text files are here (its full
train and test files are Git LFS pointers), so this set is small.
{_ATTRBENCH_LABEL_NOTE}""",
    ),
]


FRESH17_README_HEAD = _group_head("Seventeenth", "--fresh17", "sixteenth", "snapshots") + """\
Looked at and not used: the FoLT clinical-question shared task (UKPLab/folt-shared-task-23-24: its
annotation file is absent from the snapshot); WikiFactCheck-English's other copy
(aalok-sathe/wikifactcheck-english: its JSONL files are absent from the snapshot too); TRACIE
(allenai/aristo-leaderboard `tracie/`: temporal-order hypotheses about short stories, "event: X
ends before Y", not claims of fact; its test labels are there); ChaosNLI (easonnie/ChaosNLI: a
download script, no data); PUBHEALTH copies (hhhhzy/pubhealth, wxxq/pubhealth, kaiterwu/PubHealth:
code or other projects under the name, no data); the climate-claims course project
(rNLKJA/Automated-Fact-Checking-System-for-Climate-Change-Claims: its evidence file is a
download). SciTail, turned down for the ninth and thirteenth groups for want of an English copy,
is read here from the leaderboard repository's. AttributionBench's other rows were used in the
sixteenth and earlier groups.
"""


# === Eighteenth fresh group, public half (``--fresh18``) =========================================
# Picked after the seventeenth group had been measured, by a helper that did not read or run the
# claim check.

DEFAULT_FRESH18_OUT = Path("/tmp/factver-fresh18")
# Adversarial NLI's test rounds, as a copy of the v1.0 release in a research repository held them
# (facebookresearch/anli itself holds code and a download link); the files were removed in the next
# commits, so the snapshot is read at the commit that has them.
ANLI = Repo("eric11eca/curriculum-ling", "1c79904f9be35204e1bd8c760fea5c8180d10b39")
# Counterfactually-augmented SNLI (Kaushik, Hovy and Lipton, ICLR 2020).
CAD = Repo("acmi-lab/counterfactually-augmented-data", "6f232a1d2a11462a30ce08fb4825b734ab30828e")

_NLI_LABEL = {"entailment": SUPPORTED, "contradiction": UNSUPPORTED, "neutral": UNSUPPORTED}


_ANLI_PATHS = tuple(f"data/anli_v1.0/R{n}/test.jsonl" for n in (1, 2, 3))
_ANLI_LABEL = {"e": SUPPORTED, "c": UNSUPPORTED, "n": UNSUPPORTED}


def anli(rd: Reader, tally: Tally) -> Iterator[Example]:
    """One pair per labelled ANLI test row: the hypothesis a worker wrote to fool a model against
    the context it was written for. ``e`` -> supported, ``c`` and ``n`` -> unsupported; a pair met
    again is kept once (dropped, every copy, with two labels)."""
    rows = _premise_rows(rd, tally, ANLI, _ANLI_PATHS, _ANLI_LABEL, ("label", "context", "hypothesis"),
                         "empty context or hypothesis")
    for path, r, lab, context, hyp in _one_label_pairs(rows, tally, "context/hypothesis pair met again"):
        rnd = path.split("/")[-2].lower()
        yield Example(
            id=f"anli-{rnd}-{_slug(r['uid'])}",
            group=hashlib.sha256(context.encode()).hexdigest()[:10],
            quotes=[context],
            claim=hyp,
            label=_ANLI_LABEL[lab],
            cls=lab,
            source=source(ANLI, path),
        )


def _cad_rows(rd: Reader, tally: Tally, path: str) -> Iterator[tuple[str, dict, str, str, str]]:
    """The labelled rows of one of CAD's NLI files (tab-separated, a field holding a double quote
    CSV-quoted), as ``_premise_rows`` gives them; ``n`` in the row is its 1-based number."""
    for n, r in enumerate(csv.DictReader(io.StringIO(rd.text(CAD, path)), delimiter="\t"), start=1):
        lab = (r.get("gold_label") or "").strip()
        if lab not in _NLI_LABEL:
            tally.dropped[f"label {lab or 'empty'!r}"] += 1
            continue
        premise = clean(r.get("sentence1") or "", tally)
        hyp = clean(r.get("sentence2") or "", tally)
        if not premise or not hyp:
            tally.dropped["empty premise or hypothesis"] += 1
            continue
        yield path, {**r, "n": n}, lab, premise, hyp


def _cad(part: str, name: str) -> Callable[[Reader, Tally], Iterator[Example]]:
    path = f"NLI/{part}/test.tsv"

    def convert(rd: Reader, tally: Tally) -> Iterator[Example]:
        """One pair per row of CAD's ``part`` test file: the hypothesis against the premise.
        ``entailment`` -> supported, ``contradiction`` and ``neutral`` -> unsupported; a pair met
        again is kept once (dropped, every copy, with two labels)."""
        for _, r, lab, premise, hyp in _one_label_pairs(_cad_rows(rd, tally, path), tally,
                                                        "premise/hypothesis pair met again"):
            # The sentence both revisions of one SNLI pair share: the premise when the hypothesis
            # was revised, the hypothesis when the premise was.
            kept = premise if part == "revised_hypothesis" else hyp
            yield Example(
                id=f"{name}-{r['n']}",
                group=hashlib.sha256(kept.encode()).hexdigest()[:10],
                quotes=[premise],
                claim=hyp,
                label=_NLI_LABEL[lab],
                cls=lab,
                source=source(CAD, path),
            )

    return convert


_CAD_NOTES = f"""\
Origin: counterfactually-augmented SNLI (Kaushik, Hovy and Lipton, ICLR 2020: "Learning the Difference
that Makes a Difference with Counterfactually-Augmented Data"), {CAD.name}
`{{path}}` @ {CAD.commit}.
Licence: Apache-2.0 (the repository's LICENSE); the SNLI sentences they start from are CC BY-SA 4.0;
used here for evaluation only, never redistributed. Crowd workers were given an SNLI pair (an image
caption as premise, a hypothesis another worker wrote) and asked to rewrite {{what}}
as little as they could so that the pair takes each of the two other labels, without changing
unrelated facts; the label is the target the worker rewrote the pair for. The sentences are
captions of photographs and short statements about them, as in SNLI. The claim is the hypothesis,
the quote the premise, both as given (no tokenisation to undo).
Label: `entailment` -> supported, `contradiction` and `neutral` -> unsupported; `class` is that
label. A premise/hypothesis pair met twice is kept once (dropped, every copy, with two labels).
{{group}}"""

FRESH18 = [
    Dataset(
        "anli",
        "hypotheses workers wrote to fool an NLI model vs the passage they were written for",
        anli,
        f"""\
Origin: Adversarial NLI (Nie, Williams, Dinan, Bansal, Weston and Kiela, ACL 2020: "Adversarial NLI: A
New Benchmark for Natural Language Understanding"), version 1.0, the labelled test sets of its three
rounds as a copy of the release in {ANLI.name}
(`{{{','.join(p.removeprefix('data/anli_v1.0/') for p in _ANLI_PATHS)}}}` under `data/anli_v1.0/` @
{ANLI.commit}, with the release's README; later commits of that repository removed the files;
facebookresearch/anli holds code and a download link only). 1,000 + 1,000 + 1,200
pairs. Licence: CC BY-NC 4.0 (ANLI's release); built at run time into a folder outside the
repository, for evaluation only, never stored in git or redistributed. Crowd workers were shown a
passage (Wikipedia for rounds 1 and 2; news, fiction, formal and legal text, procedural text,
RTE texts and Wikipedia for round 3) and a target label and wrote a hypothesis that a trained model then got
wrong; other workers verified the label before a pair went into a test set. The claim is the
hypothesis, the quote the whole passage (at most about 750 characters). The writer's explanation
(`reason`) and the model's guess are not used.
Label: `e` (entailment) -> supported, `c` (contradiction) and `n` (neutral) -> unsupported; `class`
is that letter. A context/hypothesis pair met twice is kept once (none is, at the pinned commit).
The split group is the passage.""",
    ),
    Dataset(
        "cad-revised-hypothesis",
        "SNLI hypotheses rewritten by people to take another label vs the unchanged caption",
        _cad("revised_hypothesis", "cad-revised-hypothesis"),
        _CAD_NOTES.format(
            path="NLI/revised_hypothesis/test.tsv",
            what="the hypothesis (the premise stays as it was)",
            group="The split group is the premise (both rewrites of one pair share it).",
        ),
    ),
    Dataset(
        "cad-revised-premise",
        "unchanged SNLI hypotheses vs captions rewritten by people to give another label",
        _cad("revised_premise", "cad-revised-premise"),
        _CAD_NOTES.format(
            path="NLI/revised_premise/test.tsv",
            what="the premise (the hypothesis stays as it was)",
            group="The split group is the hypothesis (both rewrites of one pair share it).",
        ),
    ),
]


FRESH18_README_HEAD = _group_head("Eighteenth", "--fresh18", "seventeenth", "snapshots") + """\
All three sets are sentence-pair entailment data whose hypotheses (and, for one CAD set, premises)
people wrote; none was made by swapping words with a program. Label, in all three: entailment ->
supported; contradiction and neutral -> unsupported (a neutral hypothesis is one the passage does
not show; `class` keeps the original label). The original SNLI pairs CAD starts
from (`NLI/original/`) are not used: SNLI's captions were turned down for the eleventh group and
the revised pairs are the part written to test a label flip. ANLI, not found for the eleventh
group, is read here from a copy of its release. Looked at and not used: ConjNLI
(swarnaHub/ConjNLI: only the 623 dev pairs are labelled, the test file has none, and many
hypotheses bear a program's cut of a conjunct - "Douglas County Search and Rescue" becomes
"Douglas County Search", "Metro Cash and Carry" "Metro Carry" - with tokeniser spacing left in
("bachelor 's", "all - volunteer")); the negation benchmarks of Hossain et al.
(mosharafhossain/negation-and-nli: "not" added to the main verb of a premise or hypothesis of RTE,
SNLI and MNLI pairs, "must be" -> "must not be", a mechanical one-word alteration); SciNLI
(msadat3/SciNLI: code only, the data is a download); AmbiFC (maxglockner/AmbiFC: no snapshot to be had, as for the thirteenth group); Dialogue NLI (no copy
found; its labels come from relation triples annotated on each sentence, not from a judgement of
the pair); SelfCheckGPT's WikiBio annotations (potsawee/selfcheckgpt holds no data, as before;
the copy in KAIST-CS584-HCI/selfcheckgpt-replication is a replication project's derived file with
regenerated samples, and its claims are model-written sentences about a person, judged accurate or
not rather than supported by the passage given); ConTRoL's statements were used in the seventeenth
group. CAD's sentiment half (movie reviews with a positive or negative label) is not claim and
evidence.
"""


def build_fresh(
    mirrors: Path, out: Path, sets: list[Dataset] | None = None, head: str = FRESH_README_HEAD,
    cap: int = FRESH_CAP,
) -> int:
    """Build a holdout-only group (``FRESH`` by default, ``FRESH2`` for ``--fresh2``, ``FRESH3`` for
    ``--fresh3`` and so on: see ``FRESH_GROUPS``)."""
    rd = Reader(mirrors)
    sections, built = [], 0
    for ds in FRESH if sets is None else sets:
        tally = Tally()
        exs = convert_checked(ds, rd, tally, sections)
        if exs is None:
            continue
        recs = [{**record(e, ds.name), "split": "holdout"} for e in exs]
        kept = fresh_sample(recs, cap)
        folder = out / ds.name
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "holdout.jsonl").open("w", encoding="utf-8") as fh:
            for r in kept:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        built += 1
        lab = collections.Counter(r["label"] for r in kept)
        cls = collections.Counter(r["class"] for r in kept)
        drop_txt, fix_txt = tally_text(tally)
        sections.append(
            section(
                ds,
                [
                    f"Converted {len(recs)} pairs, kept {len(kept)}. Dropped: {drop_txt}. "
                    f"Text repaired: {fix_txt}.",
                    "",
                    "| pairs | supported | unsupported | by class |",
                    "|---:|---:|---:|---|",
                    f"| {len(kept)} | {lab[SUPPORTED]} | {lab[UNSUPPORTED]} | "
                    + ", ".join(f"{k} {v}" for k, v in sorted(cls.items()))
                    + " |",
                    "",
                ],
            )
        )
        print(
            f"{ds.name:16} holdout {len(kept):5} of {len(recs):5} (supported {lab[SUPPORTED]:4}, "
            f"unsupported {lab[UNSUPPORTED]:4})   dropped {sum(tally.dropped.values())}"
        )
    out.mkdir(parents=True, exist_ok=True)  # the README says "Not built" if no set was
    (out / "README.md").write_text(
        head.format(cap=cap, seed=FRESH_SEED) + "\n" + "\n".join(sections),
        encoding="utf-8",
    )
    print(f"wrote {out}")
    return 0 if built else 1


def validate(ex: Example, dataset: str) -> None:
    assert ex.id.startswith(dataset + "-"), ex.id
    assert ex.claim, ex.id
    assert ex.quotes and all(isinstance(q, str) and q for q in ex.quotes), ex.id
    assert ex.label in (SUPPORTED, UNSUPPORTED), ex.id
    if ex.context is not None:
        for q in ex.quotes:
            assert q in ex.context, (ex.id, q[:80])


def convert_checked(
    ds: Dataset, rd: Reader, tally: Tally, sections: list[str]
) -> list[Example] | None:
    """The data set's examples, each validated and ids unique; None (and a "Not built"
    README section) when its source is missing."""
    try:
        exs = list(ds.convert(rd, tally))
    except SourceMissing as exc:
        print(f"{ds.name}: SKIPPED - {exc}", file=sys.stderr)
        sections.append(f"## {ds.name}\n\nNot built: {exc}\n")
        return None
    ids = collections.Counter(e.id for e in exs)
    dup = [i for i, n in ids.items() if n > 1]
    if dup:
        raise SystemExit(f"{ds.name}: duplicate ids, e.g. {dup[:3]}")
    for e in exs:
        validate(e, ds.name)
    return exs


def section(ds: Dataset, body: list[str]) -> str:
    """A data set's README section: its heading and notes, then ``body``."""
    return "\n".join([f"## {ds.name} ({ds.kind})", "", ds.notes, "", *body])


def tally_text(tally: Tally) -> tuple[str, str]:
    """What was dropped and what repaired, for the README."""
    drop = "; ".join(f"{k}: {v}" for k, v in sorted(tally.dropped.items())) or "none"
    fix = "; ".join(f"{k}: {v} strings" for k, v in sorted(tally.fixed.items())) or "none"
    return drop, fix


def record(ex: Example, dataset: str) -> dict:
    out = {
        "id": ex.id,
        "dataset": dataset,
        "quotes": ex.quotes,
        "claim": ex.claim,
        "label": ex.label,
        "class": ex.cls,
        "split": split_of(dataset, ex.group),
    }
    if ex.context is not None:
        out["context"] = ex.context
    out["source"] = ex.source
    return out


def counts_table(recs: list[dict]) -> list[str]:
    lines = ["| split | pairs | supported | unsupported | by class |", "|---|---:|---:|---:|---|"]
    for split in ("dev", "holdout"):
        part = [r for r in recs if r["split"] == split]
        lab = collections.Counter(r["label"] for r in part)
        cls = collections.Counter(r["class"] for r in part)
        by_class = ", ".join(f"{k} {v}" for k, v in sorted(cls.items()))
        lines.append(
            f"| {split} | {len(part)} | {lab[SUPPORTED]} | {lab[UNSUPPORTED]} | {by_class} |"
        )
    return lines


README_HEAD = """\
# Public fact-verification data, one format, dev / holdout

Third-party data sets of (claim, human-annotated evidence text, gold label), converted by
`benchmarks/data/factver/fetch_factver.py` in the deep-research repository (which also
documents every choice below); read them with `benchmarks/_factver.py`. The data is not
ours and is not committed to the project repository. Made from the git snapshots named
below; run the script again to rebuild this folder byte for byte.

**`holdout.jsonl` is for the final, unseen measurement only.** Do not read, print or tune
on it while working on the claim check; tune and inspect on `dev.jsonl`.

Format: one JSON object per line with `id`, `dataset`, `quotes` (list of evidence
strings, as the data set gives them, surrounding whitespace stripped), `claim`, `label`
(`supported` | `unsupported`), `class` (the original label), `split`, optional `context`
(the passage or page the quotes come from; every quote is a substring of it) and `source`
(`owner/repo/path@commit`). Label: the original supports / entailment class is
`supported`; refutes, not-enough-info / neutral, partially supported and half-true are
`unsupported`.

Repairs (counted per data set under "Text repaired"): HTML character references such as
`&amp;`, `&gt;`, `&#8805;` decoded (only that explicit form); a field that a data set's
file CSV-quotes twice is unquoted once. No FEVER-style tokenisation (-LRB- etc.) was
found in any set. Everything else is left as given, including double spaces, non-breaking
spaces and a data set's own quirks (noted per set).

Split: `sha256("<dataset>:<group>")`, first 8 hex digits / 2^32 < 0.70 -> dev, else
holdout. The group keeps related examples together (a claim's several evidence pairs, a
claim and its negation or counter-claim, one Wikipedia page, one topic), named per data
set below.

Tried, not usable here: VitaminC (the TalSchuster/VitaminC snapshot holds no data: its
scripts download it); SciFact's abstracts (`corpus.jsonl`, 8 MB, absent from snapshots or
a Git LFS pointer in every copy found; see scifact below for what was used instead);
AVeriTeC (MichSchli/AVeriTeC: evidence is question-answer pairs, most answers abstractive
or yes/no, the verdict rests on reasoning over them rather than on quoted text; CC
BY-NC); ANLI, MNLI, SNLI (not found in the index at their usual paths, save one SNLI copy
whose files are over 4 MiB). Not tried: FEVER, HoVer, FEVEROUS (the released files give
evidence as page and sentence numbers; the text needs a Wikipedia dump), PubHealth,
FactCC, SummaC, AggreFact (evidence is a whole article, no annotated sentence).
"""


def build(mirrors: Path, out: Path, only: list[str] | None) -> int:
    rd = Reader(mirrors)
    chosen = [d for d in DATASETS if not only or d.name in only]
    sections = []
    totals = collections.Counter()
    for ds in chosen:
        tally = Tally()
        exs = convert_checked(ds, rd, tally, sections)
        if exs is None:
            continue
        recs = [record(e, ds.name) for e in exs]
        folder = out / ds.name
        folder.mkdir(parents=True, exist_ok=True)
        for split in ("dev", "holdout"):
            with (folder / f"{split}.jsonl").open("w", encoding="utf-8") as fh:
                for r in recs:
                    if r["split"] == split:
                        fh.write(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n")
        groups = {
            split: len({e.group for e, r in zip(exs, recs) if r["split"] == split})
            for split in ("dev", "holdout")
        }
        drop_txt, fix_txt = tally_text(tally)
        table = counts_table(recs)
        sections.append(
            section(
                ds,
                [
                    (
                        f"Dropped: {drop_txt}. Text repaired: {fix_txt}. "
                        f"Groups: dev {groups['dev']}, holdout {groups['holdout']}."
                    ),
                    "",
                    *table,
                    "",
                ],
            )
        )
        n = collections.Counter(r["split"] for r in recs)
        lab = collections.Counter((r["split"], r["label"]) for r in recs)
        totals.update({(s, lbl): v for (s, lbl), v in lab.items()})
        print(
            f"{ds.name:14} dev {n['dev']:5} (supported {lab[('dev', SUPPORTED)]:4}, "
            f"unsupported {lab[('dev', UNSUPPORTED)]:4})   holdout {n['holdout']:5} "
            f"(supported {lab[('holdout', SUPPORTED)]:4}, unsupported "
            f"{lab[('holdout', UNSUPPORTED)]:4})   dropped {sum(tally.dropped.values())}"
        )
    total_lines = ["## Totals", "", "| split | supported | unsupported |", "|---|---:|---:|"]
    for split in ("dev", "holdout"):
        total_lines.append(
            f"| {split} | {totals[(split, SUPPORTED)]} | {totals[(split, UNSUPPORTED)]} |"
        )
    if not only:
        (out / "README.md").write_text(
            README_HEAD + "\n" + "\n".join(sections) + "\n" + "\n".join(total_lines) + "\n",
            encoding="utf-8",
        )
    print(f"wrote {out}")
    return 0


@dataclass(frozen=True)
class FreshGroup:
    """One holdout-only group: what ``--help`` says it builds, where, from which sets."""

    what: str
    out: Path
    sets: list[Dataset]
    head: str
    cap: int


FRESH_GROUPS = {
    "--fresh": FreshGroup(
        "the fresh holdout-only sets", DEFAULT_FRESH_OUT, FRESH, FRESH_README_HEAD, FRESH_CAP
    ),
    "--fresh2": FreshGroup(
        "the second fresh holdout-only group (SufficientFacts, Q², SummEdits-SciTLDR)",
        DEFAULT_FRESH2_OUT, FRESH2, FRESH2_README_HEAD, FRESH_CAP,
    ),
    "--fresh3": FreshGroup(
        "the third fresh holdout-only group (SummEdits-SAMSum, SummEdits-ECTSum, QAGS)",
        DEFAULT_FRESH3_OUT, FRESH3, FRESH3_README_HEAD, FRESH3_CAP,
    ),
    "--fresh5": FreshGroup(
        "the public half of the fifth fresh holdout-only group (SummEdits-News, "
        "SummEdits-QMSum, SummEdits-SalesCall)",
        DEFAULT_FRESH5_OUT, FRESH5, FRESH5_README_HEAD, FRESH3_CAP,
    ),
    "--fresh6": FreshGroup(
        "the public half of the sixth fresh holdout-only group (SummEdits-Podcast, "
        "SummEdits-SalesEmail)",
        DEFAULT_FRESH6_OUT, FRESH6, FRESH6_README_HEAD, FRESH3_CAP,
    ),
    "--fresh7": FreshGroup(
        "the public half of the seventh fresh holdout-only group (FaithBench, LIAR-PLUS)",
        DEFAULT_FRESH7_OUT, FRESH7, FRESH7_README_HEAD, FRESH3_CAP,
    ),
    "--fresh9": FreshGroup(
        "the public half of the ninth fresh holdout-only group (SICK, FaithDial gold responses)",
        DEFAULT_FRESH9_OUT, FRESH9, FRESH9_README_HEAD, FRESH3_CAP,
    ),
    "--fresh11": FreshGroup(
        "the public half of the eleventh fresh holdout-only group (NLI4CT, RTE, LFQA)",
        DEFAULT_FRESH11_OUT, FRESH11, FRESH11_README_HEAD, FRESH3_CAP,
    ),
    "--fresh12": FreshGroup(
        "the public half of the twelfth fresh holdout-only group (CLIFF, DialFact)",
        DEFAULT_FRESH12_OUT, FRESH12, FRESH12_README_HEAD, FRESH3_CAP,
    ),
    "--fresh13": FreshGroup(
        "the public half of the thirteenth fresh holdout-only group (FNC-1, Emergent, BUMP)",
        DEFAULT_FRESH13_OUT, FRESH13, FRESH13_README_HEAD, FRESH3_CAP,
    ),
    "--fresh14": FreshGroup(
        "the public half of the fourteenth fresh holdout-only group (FABLES, CoGenSumm)",
        DEFAULT_FRESH14_OUT, FRESH14, FRESH14_README_HEAD, FRESH3_CAP,
    ),
    "--fresh15": FreshGroup(
        "the public half of the fifteenth fresh holdout-only group (ExpertQA, PolyTope, MuFaME)",
        DEFAULT_FRESH15_OUT, FRESH15, FRESH15_README_HEAD, FRESH3_CAP,
    ),
    "--fresh16": FreshGroup(
        "the public half of the sixteenth fresh holdout-only group (HAGRID, AttrScore-GenSearch, "
        "Stanford-GenSearch)",
        DEFAULT_FRESH16_OUT, FRESH16, FRESH16_README_HEAD, FRESH3_CAP,
    ),
    "--fresh17": FreshGroup(
        "the public half of the seventeenth fresh holdout-only group (SciTail, ConTRoL, Attributed QA)",
        DEFAULT_FRESH17_OUT, FRESH17, FRESH17_README_HEAD, FRESH3_CAP,
    ),
    "--fresh18": FreshGroup(
        "the public half of the eighteenth fresh holdout-only group (ANLI, CAD's revised hypotheses, "
        "CAD's revised premises)",
        DEFAULT_FRESH18_OUT, FRESH18, FRESH18_README_HEAD, FRESH3_CAP,
    ),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--mirrors",
        type=Path,
        default=DEFAULT_MIRRORS,
        help=f"folder with the git snapshots (default {DEFAULT_MIRRORS})",
    )
    ap.add_argument("--out", type=Path, default=None, help=f"output folder (default {DEFAULT_OUT})")
    ap.add_argument(
        "--only",
        nargs="*",
        choices=[d.name for d in DATASETS],
        help="rebuild only these data sets (README.md is then left as it is)",
    )
    for flag, group in FRESH_GROUPS.items():
        ap.add_argument(
            flag,
            action="store_true",
            help=f"build {group.what} instead "
            f"(default --out {group.out}; --only does not apply)",
        )
    args = ap.parse_args(argv)
    if not args.mirrors.is_dir():
        print(f"--mirrors {args.mirrors}: no such folder", file=sys.stderr)
        return 2
    groups = [g for g in FRESH_GROUPS if getattr(args, g[2:])]
    if len(groups) > 1:
        print(f"{' and '.join(groups)} build different groups: give one", file=sys.stderr)
        return 2
    if groups:
        if args.only:
            print(f"--only cannot be combined with {groups[0]}", file=sys.stderr)
            return 2
        g = FRESH_GROUPS[groups[0]]
        return build_fresh(args.mirrors, args.out or g.out, g.sets, g.head, g.cap)
    return build(args.mirrors, args.out or DEFAULT_OUT, args.only)


if __name__ == "__main__":
    sys.exit(main())
