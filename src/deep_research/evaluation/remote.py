"""``deep-research eval run --server URL``: every question researched as a run on a
LangGraph server, evaluated here.

The server does the research with its own models, search, keys, ceilings and run queue (a
deployment's replicas pick the runs up from its PostgreSQL queue); this process sends each
question with langgraph-sdk, at most ``concurrency`` at once, answers the human-in-the-loop
steps from the question's data as a local ``eval run`` does (brief decisions, a
clarification answer), downloads the report files through the server's report route
(``GET /reports/<thread>``, see ``deep_research.server.reports``) into
``OUT/runs/<id>/<run folder>``, and evaluates them here: code checks, behaviour checks and
the judge, with the same results and summary files as a local run.

Resumable like a local run: ``OUT/progress/<id>.json`` names the question's thread on the
server. A re-run skips finished questions, waits for a run still in flight and continues an
unfinished thread from its checkpoint; a thread the server no longer has starts again.

The server's address and token come from the user's command line and environment only
(``--server``, ``--server-token-env``): a question file cannot name them, and the token is
sent to that address alone (no redirects are followed).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from langchain_core.messages import AIMessage

from ..errors import UserError
from ..publish import write_atomic
from ..publish.files import inside, prepare_out_dir, safe_name
from ..research.runtime.configuration import Configuration
from ..research.runtime.report_files import FILES, valid_id
from ..research.runtime.usage import message_text
from .questions import Question
from .runner import EvalRunner, EvalSettings, Event, _read, _write

DEFAULT_TOKEN_ENV = "DEEP_RESEARCH_SERVER_TOKEN"
ASSISTANT = "deep_research"  # the graph langgraph.json registers
MAX_FILE_BYTES = 200_000_000  # a downloaded report file, at most (the server's own limit is lower)
POLL_S = (0.5, 5.0)  # first and longest wait between looks at a run in flight
RUN_DONE = ("success", "error", "timeout", "interrupted")
# Settings naming this machine's resources mean nothing on a server: the server's own apply.
LOCAL_ONLY = ("output_dir",)  # OUT/runs/<id> here, where the files are fetched (runner.RUN_FOLDER)


@dataclass(frozen=True)
class Server:
    """A LangGraph server to research on: its address and the bearer token for it."""

    url: str
    token: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0  # one HTTP request (runs are waited for by polling)

    @classmethod
    def from_options(cls, url: str, token_env: str | None, environ: Mapping[str, str]) -> Server:
        """``--server`` and ``--server-token-env`` (the name of the variable holding the
        token; default DEEP_RESEARCH_SERVER_TOKEN, which may be unset for a server without
        credentials such as a local ``langgraph dev``)."""
        url = (url or "").strip().rstrip("/")
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises on a malformed port
        except ValueError:
            parts = None
        if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query
                or parts.fragment or "@" in parts.netloc):
            raise UserError(f"--server must be the server's http(s) address, e.g. http://127.0.0.1:2024, not {url!r}"
                            " (a token goes in an environment variable: --server-token-env)")
        name = token_env or DEFAULT_TOKEN_ENV
        token = (environ.get(name) or "").strip() or None
        if token_env and token is None:
            raise UserError(f"--server-token-env {token_env}: the environment variable {token_env} is not set")
        return cls(url, token)

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


class RunFailed(Exception):
    """A run on the server ended in an error; the message is the server's."""


class RemoteEvalRunner(EvalRunner):
    """The question-set runner with the research done on a LangGraph server."""

    def __init__(self, questions: list[Question], settings: EvalSettings, server: Server,
                 on_event: Callable[[Event], None] | None = None):
        from ..research.runtime.deps import Deps

        super().__init__(questions, settings, Deps(), on_event)
        self.server = server
        self._client: Any = None
        self._http: httpx.AsyncClient | None = None

    # --- the server ----------------------------------------------------------------------
    @property
    def client(self):
        if self._client is None:
            from langgraph_sdk import get_client

            # api_key=None: never send a LangSmith key from this environment to this server
            self._client = get_client(url=self.server.url, api_key=None, headers=self.server.headers(),
                                      timeout=httpx.Timeout(self.server.timeout_s))
        return self._client

    @property
    def http(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(base_url=self.server.url, headers=self.server.headers(),
                                           timeout=httpx.Timeout(self.server.timeout_s), follow_redirects=False,
                                           trust_env=False)
        return self._http

    async def run(self) -> tuple[list[dict], dict]:
        try:
            return await super().run()
        finally:
            if self._http is not None:
                await self._http.aclose()
            if self._client is not None:
                await self._client.aclose()

    async def prepare(self) -> None:
        """Every question's settings checked (as a question file may set them) and the
        server reachable with these credentials, before any question is sent; OUT must not
        hold an evaluation made with other settings or on another server."""
        for q in self.questions:
            try:
                Configuration.resolve({"configurable": {}}, self.question_context(q))
            except UserError as e:
                raise UserError(f"question {q.id}: {e}") from None
        try:
            await self.client.assistants.search(graph_id=ASSISTANT, limit=1)
        except httpx.HTTPStatusError as e:
            raise UserError(f"the server {self.server.url} refused the request ({e.response.status_code}"
                            f"{': ' + _detail(e.response) if _detail(e.response) else ''})") from None
        except httpx.HTTPError as e:
            raise UserError(f"cannot reach the server {self.server.url}: {type(e).__name__}: {e}") from None
        self.prepare_manifest(server=self.server.url)

    def question_context(self, q: Question) -> dict:
        ctx = super().question_context(q)
        return {k: v for k, v in ctx.items() if k not in LOCAL_ONLY}

    # --- one question --------------------------------------------------------------------
    async def research(self, q: Question) -> dict:
        ppath = self.out / "progress" / f"{q.id}.json"
        progress = _read(ppath) or {}
        ctx = self.question_context(q)
        thread = progress.get("thread_id")
        state: dict = {}
        if thread and await self._thread_exists(thread):
            await self._join_in_flight(thread)
            state = await self.client.threads.get_state(thread)
            self.on_event({"kind": "resume", "qid": q.id, "thread_id": thread})
        else:
            created = await self.client.threads.create(metadata={"eval_question": q.id})
            thread = created["thread_id"]
            progress = {"thread_id": thread, "seconds": 0.0, "decisions_used": 0}
            _write(ppath, progress)
        values = state.get("values") or {}
        finished = (isinstance(values, dict) and values.get("status") in ("completed", "brief_rejected")
                    and not state.get("next"))
        # a new thread: the question; a thread with state: go on from its checkpoint
        payload: dict | None = None if finished else ({"input": None} if values else
                                                      {"input": {"messages": [{"role": "user", "content": q.question}]}})
        started = time.monotonic()
        spent = float(progress.get("seconds") or 0.0)

        def save_progress() -> None:
            progress["seconds"] = round(spent + time.monotonic() - started, 3)
            _write(ppath, progress)

        status, error, clarification = "failed", None, progress.get("clarification")
        try:
            while payload is not None:
                await self._run(thread, payload, ctx)
                state = await self.client.threads.get_state(thread)
                payload = None
                if _interrupts(state):
                    used = int(progress.get("decisions_used") or 0)
                    decision = q.brief_decisions[used] if used < len(q.brief_decisions) else {"type": "approve"}
                    progress["decisions_used"] = used + 1
                    save_progress()
                    payload = {"command": {"resume": decision}}
                    continue
                values = state.get("values") or {}
                if values.get("status") == "needs_clarification":
                    clarification = _last_ai_text(values.get("messages") or [])
                    progress["clarification"] = clarification
                    if q.clarification_answer and not progress.get("answered"):
                        progress["answered"] = True
                        save_progress()
                        payload = {"input": {"messages": [{"role": "user", "content": q.clarification_answer}]}}
            values = state.get("values") or {}
            status = values.get("status") or "failed"
        except RunFailed as e:
            status, error = "failed", f"the run failed at {e}"
            values = (await self.client.threads.get_state(thread)).get("values") or {}
        finally:
            save_progress()
        if not isinstance(values, dict):
            values = {}
        if status not in ("completed", "needs_clarification", "brief_rejected") and not error:
            error = "; ".join(f"{x.get('stage')}: {x.get('message')}" for x in values.get("errors") or [])[:500] \
                or f"the run ended with status {status!r}"
        local = {k: v for k, v in values.items() if k != "outputs"}
        if status == "completed":
            folder = await self._download(q, thread, values.get("outputs") or {})
            local["outputs"] = {"dir": str(folder)}
        result = self._result(q, local, status, error=error, clarification=clarification)
        result.update(thread_id=thread, seconds=progress["seconds"])
        return result

    async def _thread_exists(self, thread: str) -> bool:
        try:
            await self.client.threads.get(thread)
            return True
        except httpx.HTTPStatusError as e:
            if e.response.status_code == 404:
                return False
            raise

    async def _join_in_flight(self, thread: str) -> None:
        """Wait for runs an earlier eval process left on the thread (pending or running)."""
        for status in ("running", "pending"):
            for run in await self.client.runs.list(thread, status=status, limit=10):
                await self._wait(thread, run["run_id"])

    async def _run(self, thread: str, payload: dict, ctx: dict) -> None:
        try:
            run = await self.client.runs.create(thread, ASSISTANT, context=ctx, multitask_strategy="reject",
                                                **payload)
        except httpx.HTTPStatusError as e:
            if e.response.status_code in (400, 401, 403, 422):  # the settings or credentials: every question
                raise UserError(f"the server {self.server.url} refused the run ({e.response.status_code}: "
                                f"{_detail(e.response) or e.response.reason_phrase})") from None
            raise
        await self._wait(thread, run["run_id"])

    async def _wait(self, thread: str, run_id: str) -> None:
        """Until the run is done (polled: a research can outlast any HTTP timeout); a run
        that failed raises RunFailed with the server's message."""
        delay = POLL_S[0]
        while True:
            run = await self.client.runs.get(thread, run_id)
            if run.get("status") in RUN_DONE:
                break
            await asyncio.sleep(delay)
            delay = min(POLL_S[1], delay * 1.5)
        if run["status"] != "success":
            outcome = await self.client.runs.join(thread, run_id)
            err = outcome.get("__error__") if isinstance(outcome, dict) else None
            message = (err or {}).get("message") if isinstance(err, dict) else None
            raise RunFailed(message or f"the run ended with status {run['status']!r}")

    # --- the report files ----------------------------------------------------------------
    async def _download(self, q: Question, thread: str, outputs: dict) -> Path:
        """The report's files, through the report route, into OUT/runs/<id>/<run folder>;
        each file checked against the size and checksum the server lists."""
        served = outputs.get("served") if isinstance(outputs.get("served"), dict) else {}
        report = served.get("report")
        if not valid_id(thread) or not valid_id(report):
            raise RunFailed(f"publish: the server did not store the report files for download (outputs: "
                            f"{sorted(outputs)}); is its report route configured (langgraph.json http.app)?")
        listing = await self._get(f"/reports/{thread}")
        try:
            entry = next(r for r in listing.json()["reports"] if r.get("report") == report)
        except (ValueError, KeyError, TypeError, StopIteration):
            raise RunFailed(f"publish: the server lists no report {report} for thread {thread}") from None
        name = safe_name(Path(str(outputs.get("dir") or report)).name, max_len=160)
        folder = inside(prepare_out_dir(self.out / "runs" / q.id), name)
        folder.mkdir(parents=True, exist_ok=True)
        for file, info in (entry.get("files") or {}).items():
            if file not in FILES or not isinstance(info, dict):
                continue
            size, digest = int(info.get("bytes") or 0), str(info.get("sha256") or "")
            data = await self._fetch(f"/reports/{thread}/{report}/{file}", min(size, MAX_FILE_BYTES))
            if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
                raise RunFailed(f"publish: {file} of report {report} arrived damaged ({len(data):,} of {size:,} bytes)")
            await asyncio.to_thread(write_atomic, folder / file, data)
        return folder

    async def _get(self, path: str) -> httpx.Response:
        response = await self.http.get(path)
        if response.status_code != 200:
            raise RunFailed(f"publish: GET {path} answered {response.status_code} {_detail(response)}".rstrip())
        return response

    async def _fetch(self, path: str, limit: int) -> bytes:
        async with self.http.stream("GET", path) as response:
            if response.status_code != 200:
                await response.aread()
                raise RunFailed(f"publish: GET {path} answered {response.status_code} {_detail(response)}".rstrip())
            chunks, size = [], 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > limit:
                    raise RunFailed(f"publish: {path} is larger than the {limit:,} bytes the server listed")
                chunks.append(chunk)
        return b"".join(chunks)


def _interrupts(state: dict) -> list:
    found = list(state.get("interrupts") or [])
    for task in state.get("tasks") or []:
        found += task.get("interrupts") or []
    return found


def _last_ai_text(messages: list) -> str:
    for m in reversed(messages):
        if isinstance(m, dict) and m.get("type") == "ai":
            return message_text(AIMessage(content=m.get("content") or ""))
    return ""


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        detail = None
    return str(detail)[:300] if detail else ""
