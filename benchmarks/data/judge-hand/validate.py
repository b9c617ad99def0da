"""Check the hand-written judge answers (judge-hand/dev.jsonl, holdout.jsonl).

For every answer: the fields and their values; the pair exists (claims-hand in this repository,
claims-dev at /work/shared/data/claims-dev when present, else those answers are counted as not
checked) with the same split and label; every span is an exact substring of one of the pair's
quotes; each alignment's claim words occur in the claim and its span words in one of the fact's
spans (case-insensitive); a conflict's words occur in the claim and the quotes; a "right" answer
says "supports" exactly when the pair is supported, a "wrong" answer exactly when it is not;
one answer per (pair, kind); the pairs answered are those the fixed rule of sample.py picks.

    python validate.py            # check, print a summary, exit 1 on any error
    python validate.py --counts   # also print counts per kind / label / class / verdict
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

import sample

HERE = Path(__file__).resolve().parent
FIELDS = [
    "pair_id",
    "source",
    "split",
    "label",
    "answer_kind",
    "verdict",
    "facts",
    "conflict",
    "reason",
]
VERDICTS = {"supports", "partly", "contradicts", "abstain"}


def pairs_by_id() -> dict[tuple[str, str], dict]:
    out: dict[tuple[str, str], dict] = {}
    for split, files in sample.FILES.items():
        for source, path in files:
            if path.exists():
                for pair in sample.load(path):
                    out[(source, pair["id"])] = {**pair, "split": split}
    return out


def check_answer(answer: dict, pair: dict) -> list[str]:
    errors: list[str] = []
    quotes = pair.get("quotes") or [pair["quote"]]
    claim = pair["claim"].lower()
    if answer["split"] != pair["split"]:
        errors.append(f"split {answer['split']} but the pair is in {pair['split']}")
    if answer["label"] != pair["label"]:
        errors.append(f"label {answer['label']} but the pair is {pair['label']}")
    says_supports = answer["verdict"] == "supports"
    if (answer["answer_kind"] == "right") != (says_supports == (pair["label"] == "supported")):
        errors.append(
            f"a {answer['answer_kind']} answer cannot say {answer['verdict']} on a {pair['label']} pair"
        )
    if not isinstance(answer["facts"], list) or not answer["facts"]:
        errors.append("facts must be a non-empty list")
        return errors
    for fact in answer["facts"]:
        if set(fact) != {"fact", "spans", "aligned"} or not fact["fact"]:
            errors.append(f"fact needs fact, spans, aligned: {fact!r}")
            continue
        for span in fact["spans"]:
            if not span or not any(span in quote for quote in quotes):
                errors.append(f"span is not a substring of the quote(s): {span!r}")
        for item in fact["aligned"]:
            if not (isinstance(item, list) and len(item) == 2):
                errors.append(f"alignment must be [claim words, span words]: {item!r}")
                continue
            claim_words, span_words = item
            if claim_words.lower() not in claim:
                errors.append(f"aligned claim words not in the claim: {claim_words!r}")
            if not any(span_words.lower() in span.lower() for span in fact["spans"]):
                errors.append(f"aligned span words not in the fact's spans: {span_words!r}")
    conflict = answer["conflict"]
    if conflict is not None:
        if says_supports:
            errors.append("a supports answer has no conflict")
        if not (isinstance(conflict, list) and len(conflict) == 2):
            errors.append(f"conflict must be [claim words, span words]: {conflict!r}")
        else:
            if conflict[0].lower() not in claim:
                errors.append(f"conflict claim words not in the claim: {conflict[0]!r}")
            if not any(conflict[1].lower() in quote.lower() for quote in quotes):
                errors.append(f"conflict span words not in the quote(s): {conflict[1]!r}")
    if not answer["reason"]:
        errors.append("empty reason")
    return errors


def main(argv: list[str]) -> int:
    pairs = pairs_by_id()
    missing_sources = [s for files in sample.FILES.values() for s, p in files if not p.exists()]
    errors = 0
    counts: collections.Counter = collections.Counter()
    for split in ("dev", "holdout"):
        path = HERE / f"{split}.jsonl"
        seen: set[tuple[str, str]] = set()
        wanted = {(p["id"], kind) for p, _source, kind in sample.sample(split)}
        unchecked = 0
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                where = f"{path.name}:{number}"
                answer = json.loads(line)
                if list(answer) != FIELDS:
                    print(f"{where}: fields {list(answer)} (want {FIELDS})")
                    errors += 1
                    continue
                problems = []
                if answer["split"] != split:
                    problems.append(f"split {answer['split']} in {path.name}")
                if (
                    answer["answer_kind"] not in ("right", "wrong")
                    or answer["verdict"] not in VERDICTS
                ):
                    problems.append(
                        f"bad answer_kind/verdict {answer['answer_kind']}/{answer['verdict']}"
                    )
                key = (answer["pair_id"], answer["answer_kind"])
                if key in seen:
                    problems.append(
                        f"second {answer['answer_kind']} answer for {answer['pair_id']}"
                    )
                seen.add(key)
                pair = pairs.get((answer["source"], answer["pair_id"]))
                if pair is None:
                    if answer["source"] in missing_sources:
                        unchecked += 1
                        continue
                    problems.append(f"no pair {answer['source']}/{answer['pair_id']}")
                else:
                    if key not in wanted:
                        problems.append("pair/kind not picked by the sampling rule")
                    problems += check_answer(answer, pair)
                    counts[
                        (
                            split,
                            answer["answer_kind"],
                            answer["label"],
                            pair["class"],
                            answer["verdict"],
                        )
                    ] += 1
                for problem in problems:
                    print(f"{where} {answer['pair_id']} {answer['answer_kind']}: {problem}")
                errors += len(problems)
        todo = len(wanted - seen) if not missing_sources else None
        total = sum(v for k, v in counts.items() if k[0] == split) + unchecked
        print(
            f"{split}: {total} answers"
            + (f", {unchecked} not checked (pair file absent)" if unchecked else "")
            + (f", {todo} sampled (pair, kind) not answered" if todo else "")
        )
    if "--counts" in argv:
        for split in ("dev", "holdout"):
            by_kind = collections.Counter()
            by_class = collections.Counter()
            for (s, kind, label, cls, verdict), n in counts.items():
                if s == split:
                    by_kind[(kind, label, verdict)] += n
                    by_class[(cls, kind)] += n
            print(f"\n{split}: kind / label / verdict")
            for (kind, label, verdict), n in sorted(by_kind.items()):
                print(f"  {kind:5} {label:11} {verdict:11} {n:4}")
            print(f"{split}: class / kind")
            for (cls, kind), n in sorted(by_class.items()):
                print(f"  {cls:22} {kind:5} {n:4}")
    print(f"{errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
