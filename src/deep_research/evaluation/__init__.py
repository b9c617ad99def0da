"""Evaluation of published runs: report checks, citation accuracy the FACT way, a synthesis
score, behaviour expectations, DeepResearch Bench import/export and comparison reports.

Evaluation sits above ``research/``: the checks of run folders (checks, rubric, summary,
behaviour, drb, compare) are pure (files in, numbers out) and import no model code; the LLM
judge (``report_judge``) and the runner of question sets (``runner``) call models through
``research/``, which never imports this package."""

from __future__ import annotations

from pathlib import Path


def evaluate(*paths: str | Path) -> list[dict]:
    """Code checks of run folders (each path a run folder or a folder holding them), as
    ``deep-research eval report`` writes them."""
    from .checks import evaluate_run
    from .rundir import RunFolder, find_run_folders

    folders = list(dict.fromkeys(f for p in paths for f in find_run_folders(p)))
    return [{**evaluate_run(RunFolder.load(f)), "path": str(f)} for f in folders]


__all__ = ["evaluate"]
