"""Question sets for ``deep-research eval run``: JSON Lines, one question per line.

    {"id": "cold-climate", "question": "How well do heat pumps work in cold climates?",
     "language": "en", "topic": "Energy",
     "reference": "refs/cold-climate.md",              # optional reference report (RACE-style)
     "clarification_answer": "I mean air-source heat pumps.",
     "brief_decisions": [{"type": "reject", "feedback": "Cover costs too."}, {"type": "approve"}],
     "settings": {"max_researcher_iterations": 2},      # research knobs; limits only lowered
     "expect": {"clarification": true, "brief_revised": true, "language": "fr",
                "says_not_found": true, "no_invented_citations": true,
                "sources_disagree": true, "min_citations": 3, "mentions_any": ["…"]}}

A question's ``settings`` may set research knobs and lower limits; what reaches the network,
files, credentials or cost (endpoints, key variables, the corpus, search, models, a higher
limit) only when the user names it (``--allow-question-setting``; research/runtime/setting_policy.py).
``reference`` is a file in the question set's folder.

DeepResearch Bench's task file (``{"id", "topic", "language", "prompt"}``) is accepted as it
is: ``prompt`` is read as ``question``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..terminal import MAX_TEXT_CHARS, control_characters, without_bidi_controls
from .rundir import EvalInputError, read_bounded

KEYS = {"id", "question", "prompt", "language", "topic", "reference", "reference_text", "clarification_answer",
        "brief_decisions", "settings", "expect", "note"}
EXPECT_KEYS = {"clarification", "brief_revised", "language", "says_not_found", "no_invented_citations",
               "sources_disagree", "min_citations", "mentions_any", "completes"}
MAX_QUESTION_CHARS = MAX_TEXT_CHARS  # a question, and a text answering one (terminal.py)
MAX_REFERENCE_BYTES = 5_000_000
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")


@dataclass
class Question:
    id: str
    question: str
    language: str | None = None
    topic: str | None = None
    reference_text: str | None = None
    clarification_answer: str | None = None
    brief_decisions: list[dict] = field(default_factory=list)
    settings: dict = field(default_factory=dict)
    expect: dict = field(default_factory=dict)
    source_id: Any = None  # the id as written (DeepResearch Bench ids are numbers)

    def as_json(self) -> dict:
        out: dict[str, Any] = {"id": self.source_id if self.source_id is not None else self.id,
                               "question": self.question}
        for key in ("language", "topic", "reference_text", "clarification_answer"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("brief_decisions", "settings", "expect"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        return out


def _fail(path: Path, line: int, message: str) -> EvalInputError:
    return EvalInputError(f"{path}, line {line}: {message}")


def _decision(path: Path, line: int, d: Any) -> dict:
    if not isinstance(d, dict) or d.get("type") not in ("approve", "reject"):
        raise _fail(path, line, 'each brief decision must be {"type": "approve"} or '
                                '{"type": "reject", "feedback": "…"}')
    if isinstance(d.get("feedback"), str):
        d = {**d, "feedback": without_bidi_controls(d["feedback"])}
    if d["type"] == "reject" and not str(d.get("feedback") or "").strip():
        raise _fail(path, line, "a brief rejection needs non-empty feedback")
    if d["type"] == "reject" and len(str(d["feedback"])) > MAX_QUESTION_CHARS:
        raise _fail(path, line, f"a brief rejection's feedback is longer than {MAX_QUESTION_CHARS:,} characters")
    if d["type"] == "reject" and control_characters(str(d["feedback"])):
        raise _fail(path, line, "a brief rejection's feedback contains control characters "
                                f"({', '.join(control_characters(str(d['feedback']))[:5])})")
    return {"type": d["type"], **({"feedback": str(d["feedback"]).strip()} if d["type"] == "reject" else {})}


def _read_reference(path: Path, line: int, name: Any) -> str:
    """A question's reference report: a file in the question set's folder (or below it),
    named relative to it. A question file may come from someone else, so it cannot make
    the evaluation read (and send to the judge) any other file of this machine."""
    folder = path.parent.resolve()
    given = Path(str(name))
    ref_path = (folder / given).resolve()
    if given.is_absolute() or str(name).startswith("~") or not ref_path.is_relative_to(folder):
        raise _fail(path, line, f"the reference report {str(name)!r} must be a file in the question set's folder "
                                f"{folder} (a relative path), not outside it")
    try:
        if not ref_path.is_file():
            raise _fail(path, line, f"the reference report {ref_path} cannot be read: "
                                    + ("not a regular file" if ref_path.exists() else "no such file"))
        if ref_path.stat().st_size > MAX_REFERENCE_BYTES:
            raise _fail(path, line, f"the reference report {ref_path} is larger than {MAX_REFERENCE_BYTES:,} bytes")
        return ref_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(path, line, f"the reference report {ref_path} cannot be read: "
                                f"{getattr(e, 'strerror', None) or e}") from None


def _id_problem(qid: str) -> str:
    """Why ``qid`` is not a question id (it fails :data:`_ID`), in the words of its mistake."""
    if not qid:
        return "is empty"
    if set(qid) == {"."}:
        return "is made only of dots, which name a folder's own folder or its parent: such ids are refused"
    if len(qid) > 80:
        return f"has {len(qid):,} characters (at most 80)"
    if not qid[0].isascii() or not qid[0].isalnum():
        return "must start with an ASCII letter or digit"
    # "letters" alone read wrong for an id like b-中文: those are letters, only not ASCII ones
    return "must be ASCII letters, digits, '.', '_' or '-'"


_TYPED = ("question", "prompt", "topic", "clarification_answer")


def parse_question(obj: Any, path: Path, line: int) -> Question:
    if not isinstance(obj, dict):
        raise _fail(path, line, "each line must be a JSON object")
    unknown = sorted(set(obj) - KEYS)
    if unknown:
        raise _fail(path, line, f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(KEYS))}")
    # the texts a model reads and the terminal shows lose their bidirectional controls, as a
    # typed question and a chat message do
    obj = {k: without_bidi_controls(v) if k in _TYPED and isinstance(v, str) else v for k, v in obj.items()}
    raw_id = obj.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        raise _fail(path, line, "each question needs an \"id\" (a short text or a number)")
    qid = str(raw_id).strip()
    if not _ID.match(qid):
        raise _fail(path, line, f"the id {qid!r} {_id_problem(qid)} (it names the question's folder)")
    text = obj.get("question", obj.get("prompt"))
    if not isinstance(text, str) or not text.strip():
        raise _fail(path, line, f"question {qid} has no \"question\" (or \"prompt\") text")
    if len(text) > MAX_QUESTION_CHARS:
        raise _fail(path, line, f"question {qid} is longer than {MAX_QUESTION_CHARS:,} characters")
    controls = control_characters(text)
    if controls:  # refused as `deep-research research` refuses them in a typed question
        raise _fail(path, line, f"question {qid} contains control characters ({', '.join(controls[:5])})")
    expect = obj.get("expect") or {}
    if not isinstance(expect, dict):
        raise _fail(path, line, "\"expect\" must be an object")
    bad = sorted(set(expect) - EXPECT_KEYS)
    if bad:
        raise _fail(path, line, f"unknown expectation(s) {', '.join(map(repr, bad))}; "
                                f"known: {', '.join(sorted(EXPECT_KEYS))}")
    if "mentions_any" in expect and (not isinstance(expect["mentions_any"], list)
                                     or not all(isinstance(x, str) and x for x in expect["mentions_any"])):
        raise _fail(path, line, "\"mentions_any\" must be a list of texts")
    if "min_citations" in expect and (isinstance(expect["min_citations"], bool)
                                      or not isinstance(expect["min_citations"], int)):
        raise _fail(path, line, "\"min_citations\" must be a whole number")
    settings = obj.get("settings") or {}
    if not isinstance(settings, dict):
        raise _fail(path, line, "\"settings\" must be an object of configuration values")
    decisions = obj.get("brief_decisions") or []
    if not isinstance(decisions, list):
        raise _fail(path, line, "\"brief_decisions\" must be a list")
    reference = obj.get("reference_text")
    if obj.get("reference") is not None:
        reference = _read_reference(path, line, obj["reference"])
    for key in ("language", "topic", "clarification_answer"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise _fail(path, line, f"\"{key}\" must be a text")
        if isinstance(obj.get(key), str) and len(obj[key]) > MAX_QUESTION_CHARS:
            raise _fail(path, line, f"\"{key}\" is longer than {MAX_QUESTION_CHARS:,} characters")
        bad_chars = control_characters(obj[key]) if isinstance(obj.get(key), str) else []
        if bad_chars:  # shown in the terminal and sent to the model as the question is
            raise _fail(path, line, f"question {qid}: \"{key}\" contains control characters "
                                    f"({', '.join(bad_chars[:5])})")
    if len(decisions) > 20:
        raise _fail(path, line, "at most 20 brief decisions")
    return Question(
        id=qid, question=text.strip(), language=obj.get("language"), topic=obj.get("topic"),
        reference_text=reference if isinstance(reference, str) and reference.strip() else None,
        clarification_answer=(obj.get("clarification_answer") or "").strip() or None,
        brief_decisions=[_decision(path, line, d) for d in decisions], settings=settings, expect=expect,
        source_id=raw_id)


def read_jsonl(path: str | Path, what: str = "file") -> list[tuple[int, Any]]:
    p = Path(path)
    try:
        text = read_bounded(p, what, encoding="utf-8-sig")
    except FileNotFoundError:
        raise EvalInputError(f"{what} {p} does not exist") from None
    except IsADirectoryError:
        raise EvalInputError(f"{what} {p} is a folder, not a JSON Lines file") from None
    except UnicodeDecodeError:
        raise EvalInputError(f"{what} {p} is not UTF-8 text") from None
    except OSError as e:
        raise EvalInputError(f"{what} {p} cannot be read: {e.strerror or e}") from None
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            rows.append((n, json.loads(line)))
        except json.JSONDecodeError as e:
            raise EvalInputError(f"{p}, line {n}: not valid JSON ({e.msg} at column {e.colno})") from None
        except RecursionError:
            raise EvalInputError(f"{p}, line {n}: its JSON is nested too deeply") from None
        except ValueError:  # an integer of more than 4,300 digits
            raise EvalInputError(f"{p}, line {n}: its JSON holds a number too long to read") from None
    return rows


def load_questions(path: str | Path) -> list[Question]:
    p = Path(path)
    rows = read_jsonl(p, "question set")
    questions = [parse_question(obj, p, n) for n, obj in rows]
    if not questions:
        raise EvalInputError(f"question set {p} holds no questions")
    seen: dict[str, int] = {}
    for (n, _), q in zip(rows, questions):
        if q.id in seen:
            raise EvalInputError(f"{p}, line {n}: the id {q.id!r} is used twice (also line {seen[q.id]})")
        seen[q.id] = n
    return questions
