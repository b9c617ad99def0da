"""Reading a published run folder (report.md, citations.json, audit.json, notes.md,
run.json) for evaluation."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError

REQUIRED = ("report.md", "citations.json", "audit.json")
MAX_DEPTH = 4  # how deep a folder of run folders is searched


class EvalInputError(UserError):
    """An evaluation input (run folder, question set, task file) is unusable."""


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EvalInputError(f"{what} {path} does not exist") from None
    except UnicodeDecodeError:
        raise EvalInputError(f"{what} {path} is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise EvalInputError(f"{what} {path} is not valid JSON ({e.msg}, line {e.lineno})") from None
    except RecursionError:
        raise EvalInputError(f"{what} {path} is not usable: its JSON is nested too deeply") from None
    except OSError as e:
        raise EvalInputError(f"{what} {path} cannot be read: {e.strerror or e}") from None


def read_result(path: Path) -> dict:
    """One ``results/<id>.json`` of an evaluation folder (an object), or EvalInputError."""
    value = _read_json(path, "result file")
    if not isinstance(value, dict):
        raise EvalInputError(f"result file {path} is not a JSON object")
    return value


def result_run_dir(out: Path, result: dict, where: Path) -> Path | None:
    """The run folder a result names (``run_dir``, relative to the evaluation folder
    ``out``), which must lie inside ``out``: an evaluation folder someone hands you cannot
    make ``export-drb`` or ``compare`` read (and pass on to a judge) any other folder."""
    value = result.get("run_dir")
    if not value:
        return None
    root = out.resolve()
    if not isinstance(value, str) or Path(value).is_absolute():
        raise EvalInputError(f"{where}: run_dir {value!r} must be a folder inside {out} (a relative path)")
    folder = (root / value).resolve()
    if not folder.is_relative_to(root):
        raise EvalInputError(f"{where}: run_dir {value!r} leads outside {out}")
    return folder


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise EvalInputError(f"{path} cannot be read: {e}") from None


@dataclass
class RunFolder:
    """One published run. ``run`` is run.json (question, brief, plan, usage) when the run
    wrote one (research runs do; ``deep-research publish`` does not)."""

    path: Path
    report_md: str
    linked_md: str | None
    citations: list[dict]
    audit: dict
    notes_md: str | None
    run: dict | None

    @property
    def name(self) -> str:
        return self.path.name

    @classmethod
    def load(cls, path: str | Path) -> "RunFolder":
        folder = Path(path)
        if not folder.is_dir():
            raise EvalInputError(f"{folder} is not a folder")
        missing = [n for n in REQUIRED if not (folder / n).is_file()]
        if missing:
            raise EvalInputError(f"{folder} is not a published run folder (missing {', '.join(missing)})")
        citations = _read_json(folder / "citations.json", "citations file")
        audit = _read_json(folder / "audit.json", "audit file")
        if not isinstance(citations, list) or not all(isinstance(c, dict) for c in citations):
            raise EvalInputError(f"{folder / 'citations.json'} is not a list of citations")
        if not isinstance(audit, dict) or not isinstance(audit.get("summary"), dict):
            raise EvalInputError(f"{folder / 'audit.json'} has no summary")
        run = _read_json(folder / "run.json", "run file") if (folder / "run.json").is_file() else None
        return cls(folder, _read_text(folder / "report.md") or "", _read_text(folder / "report.linked.md"),
                   citations, audit, _read_text(folder / "notes.md"), run if isinstance(run, dict) else None)

    # --- what the run was about ---------------------------------------------------------
    @property
    def question(self) -> str | None:
        if self.run and isinstance(self.run.get("question"), str):
            return self.run["question"]
        m = re.search(r"^Question: (.*)$", self.notes_md or "", re.M)
        return m.group(1).strip() if m else None

    @property
    def brief(self) -> str | None:
        if self.run and isinstance(self.run.get("research_brief"), str) and self.run["research_brief"].strip():
            return self.run["research_brief"]
        sections = notes_sections(self.notes_md or "")
        return sections[0][1] if sections and sections[0][0] == "Research brief" else None

    def plan(self) -> tuple[list[dict], str]:
        """The research plan: [{"topic", "sources": [ids the topic's findings cite]}], and
        where it came from ("run.json", "notes.md" or "none")."""
        if self.run and isinstance(self.run.get("plan"), list):
            items = [{"topic": str(p.get("topic", "")), "sources": [str(s) for s in p.get("sources") or []]}
                     for p in self.run["plan"] if isinstance(p, dict) and p.get("topic")]
            return items, "run.json"
        sections = [(t, body) for t, body in notes_sections(self.notes_md or "")
                    if t not in ("Research brief", "Errors")]
        if sections:
            return [{"topic": t, "sources": sorted(set(re.findall(r'<ref id="([^"]+)"', body)))}
                    for t, body in sections], "notes.md"
        return [], "none"


def notes_sections(notes: str) -> list[tuple[str, str]]:
    """(title, body) of each ``## `` section of notes.md."""
    parts = re.split(r"^## (.+)$", notes, flags=re.M)
    return [(parts[i].strip(), parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]


def find_run_folders(path: str | Path) -> list[Path]:
    """A run folder itself, or every run folder found under a folder (e.g. an eval run's
    output), sorted by path."""
    root = Path(path)
    if not root.exists():
        raise EvalInputError(f"{root} does not exist")
    if not root.is_dir():
        raise EvalInputError(f"{root} is not a folder")
    if (root / "audit.json").is_file() or (root / "report.md").is_file():
        return [root]
    found: list[Path] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
        except OSError:
            return
        for child in children:
            if (child / "audit.json").is_file():
                found.append(child)
            elif depth < MAX_DEPTH:
                walk(child, depth + 1)

    walk(root, 1)
    if not found:
        raise EvalInputError(f"no published run folder (with report.md, citations.json, audit.json) in {root}")
    return found
