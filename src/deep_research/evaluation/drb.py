"""DeepResearch Bench (DRB) files.

* Its task file (``data/prompt_data/query.jsonl``): one ``{"id", "topic", "language",
  "prompt"}`` per line; :func:`import_tasks` turns it into a question set for ``eval run``
  (optionally with the benchmark's reference articles, for RACE-style judging).
* Its raw-data file (``data/test_data/raw_data/<model>.jsonl``): one ``{"id", "prompt",
  "article"}`` per line (the benchmark's own files add ``"language"``); :func:`export_records`
  builds it from run folders, :func:`validate_record` checks a line against the format.

The article is the report as a reader sees it (report.linked.md) with each citation written
as a bracketed number ``[n]`` and the numbered source list (title and URL) at the end, so
DRB's FACT step can pair statements with URLs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable

from ..publish import write_atomic
from ..terminal import inert_json
from .questions import Question, parse_question, read_jsonl
from .rundir import EvalInputError, RunFolder

RAW_KEYS = ("id", "prompt", "article")
_INLINE_LINK = re.compile(r"\[(\d+|\?)\]\((?:[^()\s]|\([^()\s]*\))*\)")


def load_tasks(path: str | Path) -> list[Question]:
    p = Path(path)
    rows = read_jsonl(p, "task file")
    tasks = []
    for n, obj in rows:
        if not isinstance(obj, dict) or "prompt" not in obj or "id" not in obj:
            raise EvalInputError(f"{p}, line {n}: not a DeepResearch Bench task (needs \"id\" and \"prompt\")")
        extra = {k: v for k, v in obj.items() if k in ("id", "prompt", "topic", "language")}
        tasks.append(parse_question(extra, p, n))
    if not tasks:
        raise EvalInputError(f"task file {p} holds no tasks")
    return tasks


def load_references(path: str | Path) -> dict[str, str]:
    """Reference articles by task id (DRB's ``cleaned_data/reference.jsonl``: {id, prompt,
    article})."""
    p = Path(path)
    out: dict[str, str] = {}
    for n, obj in read_jsonl(p, "reference file"):
        if not isinstance(obj, dict) or "id" not in obj or not isinstance(obj.get("article"), str):
            raise EvalInputError(f"{p}, line {n}: a reference needs \"id\" and \"article\"")
        out[str(obj["id"]).strip()] = obj["article"]
    return out


def import_tasks(tasks_path: str | Path, out_path: str | Path, *, references: str | Path | None = None,
                 language: str | None = None, limit: int | None = None) -> list[Question]:
    """Write DRB tasks as a question set (filtered by language, first ``limit``); returns them."""
    tasks = load_tasks(tasks_path)
    if language:
        tasks = [t for t in tasks if (t.language or "").lower() == language.lower()]
    if limit is not None:
        tasks = tasks[:limit]
    if not tasks:
        raise EvalInputError(f"no task of {tasks_path} matches" + (f" language {language!r}" if language else ""))
    if references:
        refs = load_references(references)
        for t in tasks:
            t.reference_text = refs.get(t.id)
    out = Path(out_path)
    lines = [inert_json(json.dumps(t.as_json(), ensure_ascii=False)) for t in tasks]
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, "\n".join(lines) + "\n")
    except OSError as e:
        raise EvalInputError(f"cannot write {out}: {e.strerror or e}") from None
    return tasks


def article_from_run(run: RunFolder) -> str:
    """The report as DRB reads an article: numbered citations and the source list."""
    if run.linked_md is None:
        raise EvalInputError(f"{run.path} has no report.linked.md to export")
    text = _INLINE_LINK.sub(lambda m: f"[{m.group(1)}]", run.linked_md)
    return text.strip() + "\n"


def validate_record(obj: Any) -> list[str]:
    """What is wrong with one raw-data line (empty when it is valid)."""
    if not isinstance(obj, dict):
        return ["a line must be a JSON object"]
    problems = [f"missing {k!r}" for k in RAW_KEYS if k not in obj]
    if "id" in obj and (isinstance(obj["id"], bool) or not isinstance(obj["id"], (int, str))
                        or str(obj["id"]).strip() == ""):
        problems.append("'id' must be a number or a non-empty text")
    for key in ("prompt", "article"):
        if key in obj and (not isinstance(obj[key], str) or not obj[key].strip()):
            problems.append(f"{key!r} must be non-empty text")
    return problems


def export_records(items: Iterable[tuple[Any, str, RunFolder, str | None]]) -> list[dict]:
    """Raw-data records from (id, prompt, run folder, language) items; ids must be unique."""
    records, seen = [], set()
    for rid, prompt, run, language in items:
        if str(rid) in seen:
            raise EvalInputError(f"two runs answer task {rid!r}; export one run per task")
        seen.add(str(rid))
        rec: dict[str, Any] = {"id": rid, "prompt": prompt, "article": article_from_run(run)}
        if language:
            rec["language"] = language
        problems = validate_record(rec)
        if problems:
            raise EvalInputError(f"run {run.path} cannot be exported: {'; '.join(problems)}")
        records.append(rec)
    return records


def write_records(records: list[dict], out_path: str | Path) -> Path:
    out = Path(out_path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, "".join(inert_json(json.dumps(r, ensure_ascii=False)) + "\n" for r in records))
    except OSError as e:
        raise EvalInputError(f"cannot write {out}: {e.strerror or e}") from None
    return out


def normalise_prompt(text: str) -> str:
    return " ".join(text.split()).casefold()
