"""Live progress of a research run in the terminal (Rich), or plain lines when the output
is not a terminal."""

from __future__ import annotations

import time

from rich.console import Console
from rich.live import Live
from rich.table import Table

from .research.runtime.usage import merge_usage, total_tokens


RESEARCH = "research"  # the stage whose progress events carry the supervisor round


class RunProgress:
    def __init__(self, console: Console, thread_id: str):
        self.console = console
        self.thread_id = thread_id
        self.stage = "starting"
        self.round = 0
        self.running = 0
        self.sources: set[str] = set()
        self.usage: dict = {}
        self.searches = 0
        self.problems = 0
        self.started = time.monotonic()
        self._live: Live | None = None
        self._last_shown: tuple = ()

    # --- events -------------------------------------------------------------------------
    def __call__(self, event: dict) -> None:
        if event["kind"] == "progress":
            if event.get("stage"):
                self.stage = event["stage"]
                # a round is a supervisor round (research_iterations, what the summary counts):
                # shown while research runs; a brief council's rounds are not research rounds
                self.round = event.get("round") or self.round if self.stage == RESEARCH else 0
                if self.stage != RESEARCH:
                    self.running = 0  # no researcher runs outside research (one that failed never said it ended)
            ev = event.get("event")
            if ev == "researchers_started":
                self.running += event.get("count", 0)
            elif ev == "researchers_finished":
                self.running = max(0, self.running - event.get("count", 0))
            elif ev == "search":
                self.searches += 1
        elif not event.get("subgraph_output"):  # a subgraph's result repeats its nodes' updates
            update = event.get("update") or {}
            if update.get("usage"):
                self.usage = merge_usage(self.usage, update["usage"])
            for sid in (update.get("sources") or {}):
                self.sources.add(sid)
            self.problems += len(update.get("errors") or [])
        self.refresh()

    # --- display ------------------------------------------------------------------------
    def table(self) -> Table:
        t = Table(show_header=False, box=None, padding=(0, 1))
        t.add_row("[bold]stage[/bold]", f"{self.stage}" + (f" (round {self.round})" if self.round else ""))
        t.add_row("researchers running", str(self.running))
        t.add_row("searches", str(self.searches))
        t.add_row("sources found", str(len(self.sources)))
        t.add_row("tokens used", f"{total_tokens(self.usage):,}")
        if self.problems:
            t.add_row("[red]errors[/red]", str(self.problems))
        t.add_row("elapsed", f"{time.monotonic() - self.started:.0f}s")
        t.add_row("thread", self.thread_id)
        return t

    def refresh(self) -> None:
        if self._live is not None:
            self._live.update(self.table())
            return
        # a plain line when the stage, the round or the number of researchers running changes
        # (researchers start and end within a round: keyed on the stage alone, no line showed them)
        shown = (self.stage, self.round, self.running)
        if shown != self._last_shown:
            self.console.print(f"[{self.stage}{f' r{self.round}' if self.round else ''}] researchers={self.running} "
                               f"sources={len(self.sources)} tokens={total_tokens(self.usage)}",
                               highlight=False, markup=False)
        self._last_shown = shown

    def __enter__(self) -> "RunProgress":
        if self.console.is_terminal:
            self._live = Live(self.table(), console=self.console, refresh_per_second=4, transient=True)
            self._live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.__exit__(*exc)
            self._live = None

    def pause(self) -> None:
        """Stop the live display to ask the user something."""
        if self._live is not None:
            self._live.__exit__(None, None, None)
            self._live = None

    def resume(self) -> None:
        if self.console.is_terminal and self._live is None:
            self._live = Live(self.table(), console=self.console, refresh_per_second=4, transient=True)
            self._live.__enter__()
