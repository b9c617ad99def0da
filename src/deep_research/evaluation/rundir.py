"""Reading a published run folder (report.md, citations.json, audit.json, notes.md,
run.json) for evaluation."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable

from .. import inputs  # one bounded read for every file a user names
from ..errors import UserError

REQUIRED = ("report.md", "citations.json", "audit.json")
# How far a folder of run folders is searched (``eval report /tmp`` must not read the
# whole tree): folders MAX_DEPTH levels down at most, hidden ones (.git, .venv, .cache)
# skipped, MAX_FOLDERS_LISTED folders listed and MAX_RUN_FOLDERS run folders taken at most,
# the first by path; a search cut short says so.
MAX_DEPTH = 4
MAX_FOLDERS_LISTED = 5_000
MAX_RUN_FOLDERS = 500  # about 0.3 s each to check: a few minutes at most


# The most an evaluation input file (question set, task file, a run's JSON or markdown) may
# hold: one named /dev/zero, a device or a pipe that never ends was read into memory until
# the machine ran out of it.
MAX_EVAL_FILE_BYTES = inputs.MAX_INPUT_BYTES  # the same bound as a report or sources file


class EvalInputError(UserError):
    """An evaluation input (run folder, question set, task file) is unusable."""


def read_bounded(path: Path, what: str, encoding: str = "utf-8") -> str:
    """The text of ``path``, at most :data:`MAX_EVAL_FILE_BYTES` (a pipe such as
    ``/dev/stdin`` is read too, up to that bound); OSError and UnicodeDecodeError as
    reading it raises them, EvalInputError past the bound."""
    return inputs.read_bounded_bytes(path, what, MAX_EVAL_FILE_BYTES, EvalInputError).decode(encoding)


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(read_bounded(path, what))
    except FileNotFoundError:
        raise EvalInputError(f"{what} {path} does not exist") from None
    except UnicodeDecodeError:
        raise EvalInputError(f"{what} {path} is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise EvalInputError(f"{what} {path} is not valid JSON ({e.msg}, line {e.lineno})") from None
    except RecursionError:
        raise EvalInputError(f"{what} {path} is not usable: its JSON is nested too deeply") from None
    except EvalInputError:
        raise
    except ValueError:  # an integer of more than 4,300 digits
        raise EvalInputError(f"{what} {path} is not usable: its JSON holds a number too long to read") from None
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
        return read_bounded(path, "file")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise EvalInputError(f"{path} cannot be read: {e}") from None


# Every file of a run folder this module reads.
RUN_FILES = ("report.md", "report.linked.md", "citations.json", "audit.json", "run.json", "notes.md", "sources.json")


def _check_inside(folder: Path) -> None:
    """EvalInputError when a file of the run folder is a link leading out of it: a run
    folder someone hands you must not make ``eval`` read (count, quote, pass on to a judge)
    a file elsewhere on the machine, as ``index`` refuses links out of its folder."""
    root = folder.resolve()
    for name in RUN_FILES:
        path = folder / name
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            raise EvalInputError(f"{path} is a link leading outside its run folder {folder}: not read")


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
        _check_inside(folder)
        citations = _read_json(folder / "citations.json", "citations file")
        audit = _read_json(folder / "audit.json", "audit file")
        if not isinstance(citations, list) or not all(isinstance(c, dict) for c in citations):
            raise EvalInputError(f"{folder / 'citations.json'} is not a list of citations")
        if not isinstance(audit, dict) or not isinstance(audit.get("summary"), dict):
            raise EvalInputError(f"{folder / 'audit.json'} has no summary")
        run = _read_json(folder / "run.json", "run file") if (folder / "run.json").is_file() else None
        return cls(folder, _read_text(folder / "report.md") or "", _read_text(folder / "report.linked.md"),
                   citations, audit, _read_text(folder / "notes.md"), run if isinstance(run, dict) else None)

    @cached_property
    def source_texts(self) -> dict[str, str] | None:
        """The cited sources' texts by id, from the sources.json a research run keeps (None
        when the folder has none, or it is not a list of sources: ``publish`` writes none).
        Read once, within the bound of every file here."""
        texts: dict[str, str] | None = None
        if (self.path / "sources.json").is_file():
            data = _read_json(self.path / "sources.json", "sources file")
            if isinstance(data, list) and all(isinstance(s, dict) for s in data):
                texts = {str(s.get("id")): s["content"] for s in data if isinstance(s.get("content"), str)}
        return texts

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


def find_run_folders(path: str | Path, notes: list[str] | None = None) -> list[Path]:
    """A run folder itself, or the run folders found under a folder (e.g. an eval run's
    output), sorted by path, within the bounds above. ``notes``: where to say that the
    search was cut short (which bound, and what to do)."""
    root = Path(path)
    if not root.exists():
        raise EvalInputError(f"{root} does not exist")
    if not root.is_dir():
        raise EvalInputError(f"{root} is not a folder")
    if (root / "audit.json").is_file() or (root / "report.md").is_file():
        return [root]
    found: list[Path] = []
    listed = 0
    cut = ""

    def walk(folder: Path, depth: int) -> None:
        nonlocal listed, cut
        if listed >= MAX_FOLDERS_LISTED:
            cut = cut or f"listed {MAX_FOLDERS_LISTED:,} folders"
            return
        listed += 1
        try:
            children = sorted(p for p in folder.iterdir()
                              if not p.name.startswith(".") and p.is_dir() and not p.is_symlink())
        except OSError:
            return
        for child in children:
            if len(found) >= MAX_RUN_FOLDERS:
                cut = cut or f"found {MAX_RUN_FOLDERS} run folders"
                return
            if (child / "audit.json").is_file():
                found.append(child)
            elif depth < MAX_DEPTH:
                walk(child, depth + 1)

    walk(root, 1)
    if cut and notes is not None:
        notes.append(f"the search of {root} stopped after it {cut} ({len(found)} run folder(s) taken, the first "
                     "by path): name the folder of one evaluation or of the runs to report on")
    if not found:
        raise EvalInputError(f"no published run folder (with report.md, citations.json, audit.json) in {root}"
                             + (f" (the search stopped after it {cut})" if cut else ""))
    return found


def load_run_folders(paths: Iterable[str | Path], warn: Callable[[str], None]) -> list[RunFolder]:
    """The run folders of ``paths`` (each a run folder or a folder holding them), read. A
    folder whose files cannot be read is skipped with a warning naming the file, and the
    others are read on; a path that leaves nothing to read is an EvalInputError naming it."""
    runs: dict[Path, RunFolder] = {}
    for path in paths:
        notes: list[str] = []
        folders = find_run_folders(path, notes)
        for note in notes:
            warn(note)
        read = 0
        for folder in folders:
            if folder in runs:
                read += 1
                continue
            try:
                runs[folder] = RunFolder.load(folder)
                read += 1
            except EvalInputError as e:
                warn(f"skipped: {e}")
        if not read:
            raise EvalInputError(f"nothing to report in {path}: no run folder there could be read "
                                 f"({len(folders)} skipped, see the warnings above)")
    return list(runs.values())
