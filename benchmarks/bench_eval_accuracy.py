"""Does ``deep-research eval report`` tell the truth about citation accuracy? Runs with KNOWN
alterations: reports whose claims were written by people, a known share of them wrong.

Data (hand-written, not generated): for each quote of the hand-written pair sets there are
claims a person wrote about it, labelled ``supported`` (a faithful paraphrase) or
``unsupported`` (a realistic misreading):

* ``hand``  - ``benchmarks/data/claims-hand/dev.jsonl`` (Python, Django, git, Linux docs);
* ``pg``    - ``/work/shared/data/claims-dev/cases.jsonl`` (PostgreSQL manual), when present;
* ``example`` - ``examples/report.md`` as published, its claims labelled by hand below
  (:data:`EXAMPLE_WRONG`: the one claim the example altered on purpose, "75 °C" where its page
  says 55 to 65 °C, cited with a quote altered to match).

A run: ``--claims`` quotes drawn at random (seeded) from one data set, each written into the
report as one paragraph ``<claim> <ref id="page">"<quote>"</ref>.``; for a share ``p`` of
them (0, 10, 25, 50 %) the claim is one of the person's *unsupported* claims about that
quote, for the others one of the *supported* ones. Nothing is altered by code: the
alteration is choosing which hand-written claim is published. The true accuracy of a run is
the share of its published claims that are correct by the labels.

Each run is published twice and evaluated exactly as ``eval report`` does
(``evaluation.checks.evaluate_run`` on the run folder):

* ``code``  - ``publish_report`` without a model (the rules alone);
* ``judge`` - the claims the rules leave unchecked go through the product's claim judge
  (``research.report.claim_judge.judge_claims``: its prompt, schema, bounds and batching)
  answered by a scripted chat model that is wrong ``--wrong`` of the time (seeded per
  claim): right, it says ``supports`` on a correct claim and ``contradicts`` on an altered
  one; wrong, the reverse. Either way it gives the evidence the judge prompt asks for
  (:func:`model_evidence`, ``--evidence phrase``): per fact the quote stretch it rests on,
  and the claim phrases that differ from the span aligned to the span phrases in their
  place (a restatement for a "supports", the differing words for a "contradicts");
  ``--evidence words`` uses ``bench_claims.scripted_evidence`` instead (word by word, by
  position). Code then checks the evidence (``citations.judgement.decide``): a "supports"
  is green only when it passes; a "contradicts" flags the claim (orange) but proves
  nothing, so ``eval`` counts it unchecked. Printed per row too: ``ev ok``, the share of the
  judge's "supports" whose evidence passed the check (how much of the judge's work code
  could prove).

Printed per data set, path and altered share (means over ``--runs`` runs unless said): the true
accuracy; the reported accuracy (proven verdicts only: FACT-style supported / (supported +
unsupported)); the true accuracy of the same proven claims; the unchecked (grey) share;
the reported bounds (supported / all .. 1 - unsupported / all, which hold the true accuracy
whenever the proven verdicts are right); and how far the reported figure is from the truth.
``eval report`` gives the point figure as the report's accuracy only when the range is narrow
(``accuracy_representative``: it cannot be more than 5 points off if the proven verdicts are
right), else the range: counted are the runs where it gives a point figure and those where
that figure misses the truth by more than 5 points (target 0). Per row also: the mean width
of the range, how many runs show the point figure, and ``miss``, the farthest what ``eval
report`` shows is from the truth over the row's runs (the point figure's distance when it is
shown, else how far the truth lies outside the range).

Why the target is out of reach, measured per row: ``in 5``, the runs where what ``eval report``
shows lies wholly within 5 points of the truth (the point figure, or both ends of the range:
a range can only be that when at most 10 % of the claims are grey); ``grey*``, the grey share
that would be left if the evidence check passed EVERY judge "supports" on a correct claim
(a perfect check that still stops every wrong one: what stays grey then is the judge's
flags, which prove nothing, and altered claims code cannot prove different); ``judge
says``, the accuracy a reader would estimate by taking the judge's unproven word for every
grey claim it judged (``evaluation.checks.judge_word``; eval shows those counts beside the
range, never in it), and the target line the farthest that estimate lies from the truth.

    uv run python benchmarks/bench_eval_accuracy.py [--runs 5] [--claims 40] [--wrong 0.1] [--evidence phrase]
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import random
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _judgehand  # noqa: E402
from _common import REPO, print_code_version, target_line, write_result  # noqa: E402
from bench_claims import _WORD, scripted_evidence  # noqa: E402  (the claims benchmark's judge)
from langchain_core.messages import BaseMessage  # noqa: E402

from deep_research.citations.check import check_citations  # noqa: E402
from deep_research.citations.claims import JudgeFact  # noqa: E402
from deep_research.citations.model import Source  # noqa: E402
from deep_research.evaluation.checks import evaluate_run, judge_word, proven_verdict  # noqa: E402
from deep_research.evaluation.rundir import RunFolder  # noqa: E402
from deep_research.publish import publish_report  # noqa: E402
from tests.support.scenario import judge_items  # noqa: E402
from tests.support.scripted import Script, scripted_factory, structured  # noqa: E402

HAND_DIR = REPO / "benchmarks" / "data" / "claims-hand"
PG_DIR = Path("/work/shared/data/claims-dev")
SHARES = (0.0, 0.1, 0.25, 0.5)
TARGET = 0.05
# examples/report.md, labelled by hand: every claim states what its quote says except the
# one the example altered on purpose (its quote was changed from "55 to 65 °C").
EXAMPLE_WRONG = ("The centre of a hot pile can reach 75 °C",)


@dataclass
class Group:
    dataset: str
    page: str  # page file under the data set's pages/
    quotes: list[str]
    correct: list[str] = field(default_factory=list)
    altered: list[str] = field(default_factory=list)


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_groups(name: str, path: Path) -> list[Group]:
    if not path.is_file():
        print(f"({name}: {path} not found, skipped)")
        return []
    by: dict[tuple, Group] = {}
    for r in _jsonl(path):
        quotes = [q for q in (r.get("quotes") or [r["quote"]]) if q.strip()]
        g = by.setdefault((r["page"], tuple(quotes)), Group(name, r["page"], quotes))
        (g.correct if r["label"] == "supported" else g.altered).append(r["claim"])
    return [g for g in by.values() if g.correct and g.altered]


def page_text(g: Group) -> str:
    root = HAND_DIR / "pages" if g.dataset == "hand" else PG_DIR / "pages"
    return (root / f"{g.page}.txt").read_text(encoding="utf-8")


def build_run(groups: list[Group], n: int, share: float, rng: random.Random) -> tuple[str, list[Source], list[bool]]:
    """A report of n paragraphs, a share of them altered; the labels (True = correct) in
    paragraph order."""
    chosen = rng.sample(groups, min(n, len(groups)))
    wrong = set(rng.sample(range(len(chosen)), round(share * len(chosen))))
    return _report([(g, rng.choice(g.altered if i in wrong else g.correct), i not in wrong)
                    for i, g in enumerate(chosen)])


def build_answered_run(groups: list[Group], judge, n: int, share: float,
                       rng: random.Random) -> tuple[str, list[Source], list[bool]]:
    """As :func:`build_run`, from the claims the hand-written judge answers (``--judge hand``):
    ``share`` of n drawn from the answered altered claims, the rest from the answered
    correct ones."""
    pools: dict[bool, list] = {True: [], False: []}
    for g in groups:
        for ok, claims in ((True, g.correct), (False, g.altered)):
            pools[ok] += [(g, c, ok) for c in claims if hand_lookup(judge, c)]
    k = min(round(share * n), len(pools[False]))
    chosen = rng.sample(pools[False], k) + rng.sample(pools[True], min(n - k, len(pools[True])))
    rng.shuffle(chosen)
    return _report(chosen)


def _report(entries: list[tuple[Group, str, bool]]) -> tuple[str, list[Source], list[bool]]:
    ids: dict[str, str] = {}
    paragraphs, labels = [], []
    for g, claim, ok in entries:
        sid = ids.setdefault(g.page, f"p{len(ids) + 1}")
        refs = " ".join(f'<ref id="{sid}">"{q}"</ref>' for q in g.quotes)
        paragraphs.append(f"{claim.strip().rstrip('.')} {refs}.")
        labels.append(ok)
    pages = {g.page: g for g, _, _ in entries}
    sources = [Source(sid, f"file:///docs/{page}", page_text(pages[page]), title=page, format="text")
               for page, sid in ids.items()]
    return "# Findings\n\n" + "\n\n".join(paragraphs) + "\n", sources, labels


def paragraph_of(markdown: str, offset: int) -> int:
    """Index of the report paragraph (after the title) holding a markdown offset."""
    body = markdown.index("\n\n") + 2
    return markdown.count("\n\n", body, offset)


# --- the scripted judge, through the product's judge code ------------------------------------
def model_evidence(claim: str, quotes: list[str]) -> list[JudgeFact]:
    """The evidence the judge prompt asks for, as a model that reads phrase by phrase writes
    it: the facts and spans of ``bench_claims.scripted_evidence`` (the claim cut at commas
    and conjunctions; for each part, the stretch of the quote sentence sharing most words
    with it, copied exactly), but each run of claim words that differs from the span aligned,
    as a phrase, to the span words in its place (what it restates, or what it contradicts)
    rather than word by word. No labels are used: a misreading gets the same kind of
    evidence as a paraphrase."""
    facts = []
    for f in scripted_evidence(claim, quotes):
        cw, sw = _WORD.findall(f.fact), [w for sp in f.spans for w in _WORD.findall(sp)]
        ops = difflib.SequenceMatcher(None, [w.lower() for w in cw], [w.lower() for w in sw]).get_opcodes()
        aligned = [(" ".join(cw[i1:i2]), " ".join(sw[j1:j2])) for tag, i1, i2, j1, j2 in ops
                   if tag == "replace" and i2 - i1 <= 12 and j2 - j1 <= 12]
        facts.append(JudgeFact(f.fact, list(f.spans), aligned))
    return facts


def judge_answer(labels: dict[str, bool], wrong: float, seed: int, evidence=model_evidence):
    """A chat model's answer to the judge prompt: per item, right (1 - wrong of the time,
    seeded per claim) or wrong, with ``evidence(claim, quotes)`` for its verdict."""

    def answer(messages: list[BaseMessage]):
        votes = []
        for n, claim, quotes in judge_items(messages):
            correct = labels.get(" ".join(claim.split()))
            if correct is None:
                votes.append({"item": n, "verdict": "abstain", "reason": "unknown claim"})
                continue
            flip = random.Random(f"{seed}:{claim}").random() < wrong
            supports = correct != flip
            facts = [{"fact": f.fact, "spans": f.spans, "aligned": [list(p) for p in f.aligned]}
                     for f in evidence(claim, quotes)]
            votes.append({"item": n, "verdict": "supports" if supports else "contradicts",
                          "reason": "scripted", "facts": facts})
        return structured("ClaimVerdicts", verdicts=votes)

    return answer


def _claim_end(text: str) -> str:
    """A claim without its closing punctuation, which the report moves behind the refs."""
    return re.sub(r"[\s.\"”']+$", "", " ".join(text.split()))


def hand_key(judge, claim: str) -> str | None:
    """The claim as the hand-written judge knows it (it has a right answer for it), or None."""
    keys = judge.__dict__.setdefault("_ends", {_claim_end(k): k for k, v in judge.by_claim.items() if "right" in v})
    return keys.get(_claim_end(claim))


def hand_lookup(judge, claim: str) -> bool:
    return hand_key(judge, claim) is not None


def hand_answer(judge):
    """The hand-written judge (``_judgehand.HandJudge``: a careful person's answer, or a
    sloppy model's when drawn wrong) answering the judge prompt."""

    def answer(messages: list[BaseMessage]):
        votes = []
        for n, claim, _ in judge_items(messages):
            rec, _ = judge.answer(hand_key(judge, claim) or claim)
            votes.append({"item": n, "verdict": rec["verdict"], "reason": rec.get("reason") or "hand-written",
                          "facts": rec.get("facts") or []})
        return structured("ClaimVerdicts", verdicts=votes)

    return answer


def judge_run(markdown: str, sources: list[Source], labels: list[bool], wrong: float, seed: int,
              evidence=model_evidence, hand=None) -> dict:
    from deep_research.research.report.claim_judge import judge_claims
    from deep_research.research.runtime.configuration import Configuration
    from deep_research.research.runtime.deps import Deps, NodeContext
    from deep_research.research.runtime.meter import Meter

    report = check_citations(markdown, sources)
    by_claim = {" ".join(c.text.split()): labels[paragraph_of(markdown, c.start)] for c in report.claims}
    script = Script().on("citation_check", "You check a research report's claims",
                         judge_answer(by_claim, wrong, seed, evidence) if hand is None else hand_answer(hand),
                         repeat=True)
    cfg = Configuration(max_judge_calls=50)
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: None)
    ctx = NodeContext("check_citations", cfg, deps, {}, None, Meter("check_citations", max_retries=0))
    judgments, problems, _ = asyncio.run(judge_claims(ctx, report, {}, cfg.max_judge_calls))
    if problems:
        print("  judge problems:", [p["message"] for p in problems])
    return judgments


# --- one run: publish, evaluate as eval report does, compare with the labels ------------------
def evaluate(markdown: str, sources: list[Source], labels: list[bool], judgments: dict | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        publish_report(markdown, sources, Path(tmp) / "run", pdf=False, judgments=judgments)
        result = evaluate_run(RunFolder.load(Path(tmp) / "run"))
        cites = json.loads((Path(tmp) / "run" / "citations.json").read_text(encoding="utf-8"))
    fact = result["fact"]
    votes = [c["judge"]["votes"][0] for c in {c["line"]: c for c in cites}.values() if c.get("judge")]
    said = [v for v in votes if v["verdict"] == "supports"]
    proven = {}
    # per claim (paragraph; a claim's refs share its verdict): its proven verdict and, when
    # unknown, what the judge said of it (evaluation.checks.proven_verdict, judge_word)
    verdict: dict[int, tuple[str, str]] = {}
    for c in cites:
        p = (c["line"] - 3) // 2  # "# Findings", a blank line, then a paragraph every other line
        verdict.setdefault(p, (proven_verdict(c), judge_word(c)))
        if c.get("claim_decided_by"):
            proven[p] = labels[p]
    n = len(labels)
    yes = sum(1 for v, w in verdict.values() if v == "unknown" and w == "supported")
    no = sum(1 for v, w in verdict.values() if v == "unknown" and w == "differs")
    # the judge's word taken as the verdict where nothing was proven: an estimate, not proof
    s_, u_ = fact["supported"], fact["unsupported"]
    # grey left if the evidence check let every judge "supports" on a correct claim through
    # (a perfect check of the judge's evidence that still stops every wrong one)
    right_said = sum(1 for p, (v, w) in verdict.items() if v == "unknown" and w == "supported" and labels[p])
    return {
        "judge_view": (s_ + yes) / (s_ + u_ + yes + no) if judgments is not None and s_ + u_ + yes + no else None,
        "ceiling_grey": (fact["unknown"] - right_said) / n if n else None,
        "judge_yes": yes, "judge_no": no,
        "true": sum(labels) / len(labels),
        "reported": fact["accuracy"],
        "reported_low": fact["accuracy_strict"],
        "reported_high": fact.get("accuracy_upper"),
        "unchecked_share": fact.get("unchecked_share"),
        "true_of_proven": (sum(proven.values()) / len(proven)) if proven else None,
        "statements": fact["statements"],
        "representative": fact.get("accuracy_representative"),
        "supports_said": len(said),
        "supports_passed": sum(1 for v in said if (v.get("evidence") or {}).get("ok")),
    }


def example_run() -> dict:
    """examples/report.md published without a model, its claims labelled by hand."""
    from deep_research.inputs import load_sources

    md = (REPO / "examples" / "report.md").read_text(encoding="utf-8")
    sources = load_sources(REPO / "examples" / "sources.json").sources
    truth = [not c.text.startswith(EXAMPLE_WRONG) for c in check_citations(md, sources).claims if c.text.strip()]
    if truth.count(False) != len(EXAMPLE_WRONG):  # the example changed: its labels must follow
        raise SystemExit(f"examples/report.md: {truth.count(False)} claims start with EXAMPLE_WRONG, expected {len(EXAMPLE_WRONG)}")
    with tempfile.TemporaryDirectory() as tmp:
        publish_report(md, sources, Path(tmp) / "run", pdf=False)
        fact = evaluate_run(RunFolder.load(Path(tmp) / "run"))["fact"]
    return {"true": sum(truth) / len(truth), "reported": fact["accuracy"], "reported_low": fact["accuracy_strict"],
            "reported_high": fact.get("accuracy_upper"), "unchecked_share": fact.get("unchecked_share"),
            "statements": fact["statements"]}


def fmt(x: float | None) -> str:
    return "  –  " if x is None else f"{x:5.1%}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per data set and altered share")
    ap.add_argument("--claims", type=int, default=40, help="claims per run")
    ap.add_argument("--wrong", type=float, default=0.10, help="share of the scripted judge's verdicts that are wrong")
    ap.add_argument("--evidence", choices=("phrase", "words"), default="phrase",
                    help="the judge's evidence: phrase (model_evidence) or words (bench_claims.scripted_evidence)")
    ap.add_argument("--judge", choices=("scripted", "hand"), default="scripted",
                    help="scripted: right or wrong by the labels, --evidence for its evidence; hand: the "
                         "hand-written answers of benchmarks/data/judge-hand (runs from the claims they answer)")
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args()
    print_code_version()
    data = {"hand": load_groups("hand", HAND_DIR / "dev.jsonl"), "pg": load_groups("pg", PG_DIR / "cases.jsonl")}
    rows, figures = [], []
    evidence = model_evidence if args.evidence == "phrase" else scripted_evidence
    answers = _judgehand.load("dev") if args.judge == "hand" else []
    print(f"{args.runs} runs x {args.claims} claims per data set and share; {args.judge} judge wrong {args.wrong:.0%}"
          + (f", evidence {args.evidence}" if args.judge == "scripted" else ""))
    print(f"  {'data':<6} {'path':<6} {'altered':>7} {'true':>6} {'reported':>9} {'true of proven':>15} "
          f"{'grey':>6} {'bounds':>15} {'|rep-true|':>10} {'width':>6} {'shown':>5} {'miss':>6} {'ev ok':>6} "
          f"{'in 5':>4} {'grey*':>6} {'judge says':>10}")
    for name, groups in data.items():
        if not groups:
            continue
        for share in SHARES:
            for path in ("code", "judge"):
                runs = []
                for r in range(args.runs):
                    rng = random.Random(f"{args.seed}:{name}:{share}:{r}")
                    hand = _judgehand.HandJudge(answers, args.wrong, args.seed + r) if answers else None
                    md, sources, labels = (build_run(groups, args.claims, share, rng) if hand is None
                                           else build_answered_run(groups, hand, args.claims, share, rng))
                    judgments = (judge_run(md, sources, labels, args.wrong, args.seed + r, evidence, hand)
                                 if path == "judge" else None)
                    runs.append(evaluate(md, sources, labels, judgments))
                row = summarise(name, path, share, runs)
                rows.append(row)
                print(f"  {name:<6} {path:<6} {share:>7.0%} {fmt(row['true']):>6} {fmt(row['reported']):>9} "
                      f"{fmt(row['true_of_proven']):>15} {fmt(row['unchecked_share']):>6} "
                      f"{fmt(row['low'])}..{fmt(row['high'])} {fmt(row['error']):>10} {fmt(row['width']):>6} "
                      f"{row['point_shown']:>2}/{row['runs']:<2} {fmt(row['miss']):>6} {fmt(row['evidence_ok']):>6} "
                      f"{row['within']:>4} {fmt(row['ceiling_grey']):>6} {fmt(row['judge_view']):>10}")
    ex = example_run()
    if ex:
        print(f"  examples/report.md (code): true {fmt(ex['true'])}, reported {fmt(ex['reported'])}, grey "
              f"{fmt(ex['unchecked_share'])}, bounds {fmt(ex['reported_low'])}..{fmt(ex['reported_high'])}")
    for path in ("code", "judge"):
        mine = [r for r in rows if r["path"] == path]
        errs = [r["error"] for r in mine if r["error"] is not None]
        proven_errs = [r["proven_error"] for r in mine if r["proven_error"] is not None]
        inside = sum(r["inside"] for r in mine) / max(1, sum(r["runs"] for r in mine))
        figures.append(target_line(f"{path}: max |reported - true| (all claims)", fmt(max(errs) if errs else None),
                                   f"<= {TARGET:.0%}", bool(errs) and max(errs) <= TARGET))
        figures.append(target_line(f"{path}: max |reported - true of proven|",
                                   fmt(max(proven_errs) if proven_errs else None), f"<= {TARGET:.0%}",
                                   bool(proven_errs) and max(proven_errs) <= TARGET))
        figures.append(target_line(f"{path}: runs whose bounds hold the truth", f"{inside:.0%}", "100 %",
                                   inside == 1.0))
        far = [r["outside"] for r in mine if r["outside"] is not None]
        figures.append(target_line(f"{path}: farthest the truth lies outside the range", fmt(max(far) if far else None),
                                   f"<= {TARGET:.0%}", bool(far) and max(far) <= TARGET))
        shown = sum(r["point_shown"] for r in mine)
        misled = sum(r["misled"] for r in mine)
        worst = [r["point_shown_error"] for r in mine if r["point_shown_error"] is not None]
        figures.append(target_line(f"{path}: runs where eval report gives a point figure",
                                   f"{shown} of {sum(r['runs'] for r in mine)} (max error {fmt(max(worst) if worst else None)})",
                                   "(information)", None))
        figures.append(target_line(f"{path}: point figures shown that miss the truth by > {TARGET:.0%}",
                                   str(misled), "0", misled == 0))
        width = [r["high"] - r["low"] for r in mine if r["high"] is not None and r["low"] is not None]
        figures.append(target_line(f"{path}: mean width of the reported range", fmt(statistics.fmean(width) if width else None),
                                   "(information)", None))
        runs_n = sum(r["runs"] for r in mine)
        within = sum(r["within"] for r in mine)
        figures.append(target_line(f"{path}: runs where what eval report shows is within {TARGET:.0%} of the truth",
                                   f"{within} of {runs_n}", "all", within == runs_n))
        if path == "judge":
            ceiling = [r["ceiling_grey"] for r in mine if r["ceiling_grey"] is not None]
            figures.append(target_line(f"{path}: most grey left if every judge supports on a correct claim passed",
                                       fmt(max(ceiling) if ceiling else None), f"<= {2 * TARGET:.0%} for a range "
                                       f"within {TARGET:.0%}", bool(ceiling) and max(ceiling) <= 2 * TARGET))
            view = [r["judge_view_error"] for r in mine if r["judge_view_error"] is not None]
            figures.append(target_line(f"{path}: the judge's word as an estimate, max mean |est - true|",
                                       fmt(max(view) if view else None), "(information: not proof)", None))
    write_result("eval_accuracy" + ("_hand" if args.judge == "hand" else ""), {"args": vars(args), "rows": rows, "example": ex, "figures": figures})


def summarise(name: str, path: str, share: float, runs: list[dict]) -> dict:
    def mean(key: str) -> float | None:
        vals = [r[key] for r in runs if r[key] is not None]
        return statistics.fmean(vals) if vals else None

    errs = [abs(r["reported"] - r["true"]) for r in runs if r["reported"] is not None]
    proven = [abs(r["reported"] - r["true_of_proven"]) for r in runs
              if r["reported"] is not None and r["true_of_proven"] is not None]
    inside = sum(1 for r in runs if r["reported_low"] is not None and r["reported_high"] is not None
                 and r["reported_low"] - 1e-9 <= r["true"] <= r["reported_high"] + 1e-9)
    # a point figure eval report shows as the report's accuracy (accuracy_representative):
    # how far from the truth; and the runs where it shows one off by more than the target
    shown = [abs(r["reported"] - r["true"]) for r in runs if r["reported"] is not None and r.get("representative")]
    misled = sum(1 for r in runs if r["reported"] is not None and r.get("representative")
                 and abs(r["reported"] - r["true"]) > TARGET)
    # how far the truth lies outside the reported range (0 inside): the range holds it only
    # when the proven verdicts are right, and a correct claim flagged by code is not
    outside = [max(0.0, r["reported_low"] - r["true"], r["true"] - r["reported_high"]) for r in runs
               if r["reported_low"] is not None and r["reported_high"] is not None]
    # what eval report shows, against the truth: the point figure when shown, else the range
    miss = [abs(r["reported"] - r["true"]) if r.get("representative") and r["reported"] is not None
            else max(0.0, r["reported_low"] - r["true"], r["true"] - r["reported_high"]) for r in runs
            if r["reported_low"] is not None and r["reported_high"] is not None]
    width = [r["reported_high"] - r["reported_low"] for r in runs
             if r["reported_low"] is not None and r["reported_high"] is not None]
    # what eval report shows, every point of it within the target of the truth: the point
    # figure when it shows one, else both ends of the range
    within = sum(1 for r in runs if (abs(r["reported"] - r["true"]) <= TARGET + 1e-9 if r.get("representative")
                                     and r["reported"] is not None else
                                     r["reported_low"] is not None and r["reported_high"] is not None
                                     and r["true"] - TARGET - 1e-9 <= r["reported_low"]
                                     and r["reported_high"] <= r["true"] + TARGET + 1e-9))
    view = [abs(r["judge_view"] - r["true"]) for r in runs if r.get("judge_view") is not None]
    return {"within": within, "judge_view": mean("judge_view"), "ceiling_grey": mean("ceiling_grey"),
            "judge_view_error": statistics.fmean(view) if view else None,"data": name, "path": path, "share": share, "runs": len(runs), "true": mean("true"),
            "miss": max(miss) if miss else None, "width": statistics.fmean(width) if width else None,
            "evidence_ok": (sum(r["supports_passed"] for r in runs) / n_said
                            if (n_said := sum(r["supports_said"] for r in runs)) else None),
            "outside": max(outside) if outside else None,
            "point_shown": len(shown), "point_shown_error": max(shown) if shown else None, "misled": misled,
            "reported": mean("reported"), "true_of_proven": mean("true_of_proven"),
            "unchecked_share": mean("unchecked_share"), "low": mean("reported_low"), "high": mean("reported_high"),
            "error": statistics.fmean(errs) if errs else None, "proven_error": statistics.fmean(proven) if proven else None,
            "inside": inside}


if __name__ == "__main__":
    main()
