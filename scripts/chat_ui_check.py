#!/usr/bin/env python3
"""Drive LangChain's Agent Chat UI against `langgraph dev` in a real Chromium, and save
screenshots: the walk of issue 21's "done when".

    uv run python scripts/chat_ui_check.py --client /path/to/agent-chat-ui [--out DIR]

What it starts (all on 127.0.0.1, free ports, nothing from the internet):

* the scripted OpenAI-compatible model server of the tests (tests/support/openai_server.py)
  answering every model role from tests/support/scenario.py, and the scenario's corpus
  served over HTTP (so citations are http links a browser opens);
* `langgraph dev` with this project's langgraph.json (its graph ids, auth and CORS), its
  settings in the server folder's ``.env`` (models, base URL, corpus) as a user sets them;
* the Agent Chat UI client (`next start` of a production build; the build is made once
  with ``pnpm build``, its Google font mocked with a local font, see ``font_mock``);
* Debian's Chromium through Python playwright (never ``playwright install``).

The client needs no settings: ``?apiUrl=…&assistantId=…`` in its URL point it at the
server. The walk, each step with screenshots in --out:

1. ``question``: the graph's default assistant (``agent``, the client's default id) gets
   the scenario's question; the chat shows the question, progress while research runs,
   then the report with numbered citation links; a citation link is opened, and the
   report's PDF link is fetched as the browser would and must be a PDF.
2. ``follow-up``: a second question in the same thread gets a second report.
3. ``approvals``: an assistant with ``require_brief_approval`` and
   ``require_report_approval``: the brief is rejected with a reason (rewritten, asked
   again), then it and the report are approved, all by buttons.
4. ``bad-setup``: an assistant whose search needs a key the server lacks: the project's
   own message shows in the chat and is still there after the toast is gone and after a
   reload.
5. ``typed``: the same approvals answered by typing "approve" in the chat box.

Each step records what the chat showed (sampled every 0.5 s while the run streamed): how
often the chat was blank or lost the user's question, internal turns (researcher prompts,
tool cards, findings), progress lines. The summary is printed as JSON and written to
``--out/summary.json``; the exit status is 1 when a check failed.

Get the client: its source is public (github.com/langchain-ai/agent-chat-ui); ``pnpm
install`` fetches its dependencies from the npm registry. Never commit its code here.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.chromium import CHROMIUM, serve_directory
from tests.support.devserver import free_port
from tests.support.openai_server import ScriptServer
from tests.support.scenario import QUESTION, full_script, write_corpus

ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
FOLLOW_UP = "And how long do heat pumps last before they need replacing?"
CHROMIUM_ARGS = ["--enable-blink-features=TextFragmentAPI", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"]
# what an internal turn looks like in the chat, were one to reach it
INTERNAL = {
    "researcher prompt": re.compile(r"Research this topic", re.IGNORECASE),
    "findings turn": re.compile(r"Findings on:|<source id=", re.IGNORECASE),
    "tool card": re.compile(r"Tool Result|ConductResearch|think_tool|refine_draft_report|ResearchComplete"),
    "raw ref tag": re.compile(r"<ref id="),
    "supervisor prompt": re.compile(r"You lead a research team|Round \d+ of"),
}

# The Google font the client asks next/font for, answered from a local font file
# (next/font reads NEXT_FONT_GOOGLE_MOCKED_RESPONSES: a module mapping the CSS URL to CSS,
# whose url(...) may be an absolute path it reads from disk).
FONT_URL = "https://fonts.googleapis.com/css2?family=Inter:wght@100..900&display=swap"
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
              "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def log(*parts) -> None:
    print("[chat-ui-check]", *parts, file=sys.stderr, flush=True)


def font_mock(folder: Path) -> Path:
    font = next((f for f in FONT_FILES if Path(f).exists()), None)
    if font is None:
        raise SystemExit(f"no local font for the build's font mock (looked for {', '.join(FONT_FILES)})")
    css = ("/* latin */\n@font-face {\n  font-family: 'Inter';\n  font-style: normal;\n  font-weight: 100 900;\n"
           f"  font-display: swap;\n  src: url({font}) format('truetype');\n  unicode-range: U+0000-00FF;\n}}\n")
    path = folder / "font-mock.cjs"
    path.write_text("module.exports = " + json.dumps({FONT_URL: css}) + ";\n")
    return path


def build_client(client: Path, work: Path, *, force: bool) -> None:
    if (client / ".next" / "BUILD_ID").exists() and not force:
        return
    pnpm = shutil.which("pnpm")
    if pnpm is None:
        raise SystemExit("pnpm is not installed (npm i -g pnpm, or corepack enable)")
    env = {**os.environ, "NEXT_TELEMETRY_DISABLED": "1", "CI": "true",
           "NEXT_FONT_GOOGLE_MOCKED_RESPONSES": str(font_mock(work))}
    if not (client / "node_modules").exists():
        log("pnpm install (from the npm registry)")
        subprocess.run([pnpm, "install", "--frozen-lockfile"], cwd=client, env=env, check=True)
    log("pnpm build (font mocked)")
    subprocess.run([pnpm, "build"], cwd=client, env=env, check=True)


def wait_http(url: str, proc: subprocess.Popen, logfile: Path, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{proc.args[0]} exited:\n" + logfile.read_text()[-3000:])
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status < 500:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{url} did not answer in {timeout_s:.0f} s:\n" + logfile.read_text()[-3000:])


@contextlib.contextmanager
def process(args: list[str], *, cwd: Path, env: dict, logfile: Path, ready_url: str):
    with open(logfile, "w") as out:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            wait_http(ready_url, proc, logfile)
            yield proc
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)


def langgraph_server(folder: Path, env_file: dict[str, str]):
    """`langgraph dev` on the project's langgraph.json, settings in the folder's .env."""
    folder.mkdir(parents=True, exist_ok=True)
    config = json.loads((ROOT / "langgraph.json").read_text())
    config["dependencies"] = [str(ROOT)]
    (folder / "langgraph.json").write_text(json.dumps(config, indent=2))
    (folder / ".env").write_text("".join(f"{k}={v}\n" for k, v in env_file.items()))
    port = free_port()
    exe = Path(sys.executable).parent / "langgraph"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DEEP_RESEARCH_", "OPENAI_", "TAVILY_", "AZURE_OPENAI_", "ANTHROPIC_"))}
    env.update({"LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGGRAPH_NO_VERSION_CHECK": "true",
                "LANGSMITH_TRACING": "false"})
    base = f"http://127.0.0.1:{port}"
    args = [str(exe), "dev", "--config", str(folder / "langgraph.json"), "--port", str(port),
            "--host", "127.0.0.1", "--no-browser", "--no-reload"]
    return base, process(args, cwd=folder, env=env, logfile=folder / "server.log", ready_url=base + "/ok")


def chat_client(client: Path, folder: Path):
    port = free_port()
    env = {**os.environ, "NEXT_TELEMETRY_DISABLED": "1", "PORT": str(port)}
    nxt = client / "node_modules" / ".bin" / "next"
    base = f"http://127.0.0.1:{port}"
    return base, process([str(nxt), "start", "-p", str(port), "-H", "127.0.0.1"], cwd=client, env=env,
                         logfile=folder / "client.log", ready_url=base + "/")


# --- the browser side ---------------------------------------------------------------------
CHAT_JS = """() => {
  const out = {human: [], text: '', links: [], toasts: [], loading: false, buttons: []};
  const root = document.querySelector('.max-w-3xl.mx-auto.flex.flex-col') || document.body;
  out.text = root.innerText;
  for (const p of root.querySelectorAll('p.bg-muted.ml-auto')) out.human.push(p.innerText);
  for (const a of root.querySelectorAll('a[href]')) out.links.push({text: a.innerText, href: a.getAttribute('href')});
  out.toasts = [...document.querySelectorAll('[data-sonner-toast]')].map(t => t.innerText);
  out.buttons = [...document.querySelectorAll('button')].map(b => b.innerText.trim()).filter(Boolean);
  out.loading = out.buttons.includes('Cancel');
  return out;
}"""

# Records the chat every 100 ms in the page (so a turn that flashes by for a moment is seen).
RECORDER_JS = """() => {
  if (window.__chatLog) return;
  window.__chatLog = [];
  let last = null;
  setInterval(() => {
    const root = document.querySelector('.max-w-3xl.mx-auto.flex.flex-col');
    if (!root) return;
    const text = root.innerText;
    const human = [...root.querySelectorAll('p.bg-muted.ml-auto')].map(p => p.innerText);
    const loading = [...document.querySelectorAll('button')].some(b => b.innerText.trim() === 'Cancel');
    const key = text + '|' + loading;
    if (key === last) return;
    last = key;
    window.__chatLog.push({t: performance.now(), text, human, loading});
  }, 100);
}"""


# The text Chromium highlights for a #:~:text= link (its TextFragment API).
HIGHLIGHT_JS = """async () => {
  const fd = document.fragmentDirective;
  if (!fd || !fd.items || !fd.items.length) return null;
  try {
    const r = await fd.items[0].getMatchingRange();
    return r ? r.toString() : null;
  } catch (e) { return null; }
}"""


class Observer:
    """What the chat showed while a run streamed (the page records it every 100 ms)."""

    def __init__(self, page, out: Path, name: str):
        self.page, self.out, self.name = page, out, name
        self.samples: list[dict] = []
        self.shots: list[str] = []
        page.evaluate("() => { window.__chatLog = undefined; }")
        page.evaluate(RECORDER_JS)

    def sample(self) -> dict:
        s = self.page.evaluate(CHAT_JS)
        self.samples.append(s)
        return s

    def recorded(self) -> list[dict]:
        return self.page.evaluate("() => window.__chatLog || []")

    def shot(self, label: str, *, full: bool = False) -> str:
        path = self.out / f"{self.name}-{len(self.shots) + 1:02d}-{label}.png"
        self.page.screenshot(path=str(path), full_page=full)
        self.shots.append(str(path))
        return str(path)

    def until_idle(self, *, timeout_s: float, question: str, shots_every_s: float = 2.0,
                   stop_when=None) -> dict:
        """Wait until the run stops streaming (no Cancel button for 3 s) or ``stop_when``."""
        start = last_shot = time.monotonic()
        idle_since = None
        while time.monotonic() - start < timeout_s:
            s = self.sample()
            if stop_when and stop_when(s):
                break
            if not s["loading"]:
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since > 3:
                    break
            else:
                idle_since = None
                if time.monotonic() - last_shot > shots_every_s:
                    self.shot("running")
                    last_shot = time.monotonic()
            time.sleep(0.25)
        return self.report(question)

    def report(self, question: str) -> dict:
        log_ = self.recorded()
        streaming = [s for s in log_ if s["loading"]]
        # time-weighted: each state lasts until the next one
        spans = [(s, (nxt["t"] - s["t"]) / 1000) for s, nxt in itertools.pairwise(log_)]
        busy = sum(d for s, d in spans if s["loading"]) or 1e-9
        blank = sum(d for s, d in spans if s["loading"] and not s["text"].strip())
        lost = sum(d for s, d in spans if s["loading"] and not any(question[:40] in h for h in s["human"]))
        internal: dict[str, list[str]] = {}
        for s in log_:
            for kind, pat in INTERNAL.items():
                for line in s["text"].splitlines():
                    if pat.search(line):
                        seen = internal.setdefault(kind, [])
                        if line[:160] not in seen and len(seen) < 5:
                            seen.append(line[:160])
        return {"states_recorded": len(log_), "streaming_states": len(streaming),
                "streaming_seconds": round(busy, 1),
                "blank_share": round(blank / busy, 2), "question_missing_share": round(lost / busy, 2),
                "internal_turns": internal, "progress_lines": progress_lines(log_), "screenshots": self.shots}


def open_chat(context, client_url: str, api_url: str, assistant_id: str):
    page = context.new_page()
    page.goto(f"{client_url}/?apiUrl={api_url}&assistantId={assistant_id}", wait_until="networkidle")
    page.wait_for_selector("textarea", timeout=30_000)
    return page


def ask(page, text: str) -> None:
    box = page.locator("form textarea").last
    box.fill(text)
    box.press("Enter")


def progress_lines(samples: list[dict]) -> list[str]:
    seen: list[str] = []
    for s in samples:
        for line in s["text"].splitlines():
            if re.match(r"^(Research|Round|Reading|Searching|Writing|Checking|Publishing|Brief|Plan|Draft|Indexing|"
                        r"Progress|Stage)\b", line.strip()) and line.strip() not in seen:
                seen.append(line.strip())
    return seen


def step_question(context, urls, out: Path, result: dict) -> None:
    client_url, api_url = urls
    page = open_chat(context, client_url, api_url, result["default_assistant"])
    obs = Observer(page, out, "1-question")
    obs.shot("empty")
    ask(page, QUESTION)
    rep = obs.until_idle(timeout_s=300, question=QUESTION)
    obs.shot("done")
    last = obs.samples[-1]
    if page.locator("a[href*='#:~:text=']").count():
        page.locator("a[href*='#:~:text=']").first.scroll_into_view_if_needed()
        obs.shot("report-top")
    citation_links = [a for a in last["links"] if re.fullmatch(r"\d+", a["text"].strip())]
    rep["citation_links"] = citation_links[:8]
    rep["citation_link_count"] = len(citation_links)
    rep["raw_refs_in_final"] = "<ref" in last["text"]
    rep["final_text_tail"] = last["text"][-600:]
    if citation_links:  # open one (in a tab of its own): the page at the cited sentence
        href = citation_links[0]["href"]
        cited = context.new_page()
        cited.goto(href, wait_until="load")
        rep["opened_citation"] = cited.url
        rep["opened_citation_highlight"] = cited.evaluate(HIGHLIGHT_JS)
        path = out / "1-question-cited-page.png"
        cited.screenshot(path=str(path))
        rep["screenshots"].append(str(path))
        cited.close()
    # the report's files are links in the chat: the PDF's opens the PDF (as a click in the
    # browser does: no credentials but the link's own)
    pdf = [a["href"] for a in last["links"] if a["text"].strip() == "PDF"]
    rep["pdf_link"] = pdf[0] if pdf else None
    if pdf:
        got = context.request.get(pdf[0])
        rep["pdf_link_status"] = got.status
        rep["pdf_link_ok"] = got.ok and got.body().startswith(b"%PDF-")
    result["question"] = rep

    # 2. a follow-up in the same thread
    obs2 = Observer(page, out, "2-follow-up")
    human_before = len(last["human"])
    ask(page, FOLLOW_UP)
    rep2 = obs2.until_idle(timeout_s=300, question=QUESTION)
    obs2.shot("done")
    last2 = obs2.samples[-1]
    rep2["human_turns"] = len(last2["human"])
    rep2["human_turns_before"] = human_before
    rep2["follow_up_shown"] = any(FOLLOW_UP[:30] in h for h in last2["human"])
    rep2["citation_link_count"] = len([a for a in last2["links"] if re.fullmatch(r"\d+", a["text"].strip())])
    rep2["final_text_tail"] = last2["text"][-400:]
    result["follow_up"] = rep2
    page.close()


def click(page, name: str, timeout_ms: int = 60_000) -> None:
    page.get_by_role("button", name=name, exact=True).first.click(timeout=timeout_ms)


def waiting_for(action: str):
    """The chat shows the buttons of the interrupt named ``action``."""
    return lambda s: action in s["text"] and "Approve" in s["buttons"] and not s["loading"]


def published(obs: Observer, rep: dict) -> None:
    """Wait for the run to end; what the published report showed."""
    rep["published"] = obs.until_idle(timeout_s=300, question=QUESTION)
    obs.shot("published")
    last = obs.samples[-1]
    rep["citation_link_count"] = len([a for a in last["links"] if re.fullmatch(r"\d+", a["text"].strip())])
    rep["final_text_tail"] = last["text"][-400:]


def step_approvals(context, urls, assistant_id: str, out: Path, result: dict) -> None:
    client_url, api_url = urls
    page = open_chat(context, client_url, api_url, assistant_id)
    obs = Observer(page, out, "3-approvals")
    ask(page, QUESTION)
    brief = waiting_for("approve_research_brief")
    rep: dict = {"brief": obs.until_idle(timeout_s=180, question=QUESTION, stop_when=brief)}
    obs.shot("brief-interrupt")
    rep["brief_buttons"] = [b for b in obs.samples[-1]["buttons"] if b in ("Approve", "Submit rejection")]
    if not brief(obs.samples[-1]):
        result["approvals"] = rep
        return
    # Reject with a reason: the brief is rewritten and asked again
    page.get_by_placeholder("Share feedback with the agent...").fill("Only cold climates, please.")
    click(page, "Submit rejection")
    time.sleep(2)
    second = lambda s: brief(s) and "Research brief (2 of at most" in s["text"]
    rep["rejected"] = obs.until_idle(timeout_s=180, question=QUESTION, stop_when=second)
    rep["second_brief_shown"] = second(obs.samples[-1])
    obs.shot("second-brief")
    click(page, "Approve")
    time.sleep(2)
    review = waiting_for("review_report")
    rep["report"] = obs.until_idle(timeout_s=300, question=QUESTION, stop_when=review)
    obs.shot("report-interrupt")
    rep["report_buttons"] = [b for b in obs.samples[-1]["buttons"] if b in ("Approve", "Submit rejection")]
    if review(obs.samples[-1]):
        page.locator("a[href*='#:~:text=']").first.scroll_into_view_if_needed()
        obs.shot("report-to-review")
        click(page, "Approve")
        time.sleep(2)
        published(obs, rep)
    result["approvals"] = rep
    page.close()


def step_typed(context, urls, assistant_id: str, out: Path, result: dict) -> None:
    """The same questions answered by typing in the chat box instead of the buttons."""
    client_url, api_url = urls
    page = open_chat(context, client_url, api_url, assistant_id)
    obs = Observer(page, out, "5-typed")
    ask(page, QUESTION)
    rep: dict = {"brief": obs.until_idle(timeout_s=180, question=QUESTION,
                                          stop_when=waiting_for("approve_research_brief"))}
    ask(page, "approve")
    time.sleep(2)
    review = waiting_for("review_report")
    rep["report"] = obs.until_idle(timeout_s=300, question=QUESTION, stop_when=review)
    rep["review_after_typed_approval"] = review(obs.samples[-1])
    rep["briefs_shown"] = obs.samples[-1]["text"].count("Research brief (")
    obs.shot("report-interrupt")
    ask(page, "Looks good")
    time.sleep(2)
    published(obs, rep)
    result["typed"] = rep
    page.close()


def step_bad_setup(context, urls, assistant_id: str, out: Path, result: dict) -> None:
    client_url, api_url = urls
    page = open_chat(context, client_url, api_url, assistant_id)
    obs = Observer(page, out, "4-bad-setup")
    ask(page, QUESTION)
    rep = obs.until_idle(timeout_s=120, question=QUESTION)
    obs.shot("at-error")
    time.sleep(12)  # the client's error toast is gone by now
    s = obs.sample()
    obs.shot("later")
    rep["toasts_later"] = s["toasts"]
    rep["chat_later_tail"] = s["text"][-700:]
    rep["message_stays"] = "TAVILY_API_KEY" in s["text"]
    page.reload(wait_until="networkidle")
    time.sleep(3)
    s = obs.sample()
    obs.shot("after-reload")
    rep["message_after_reload"] = "TAVILY_API_KEY" in s["text"]
    result["bad_setup"] = rep
    page.close()


def checks(result: dict) -> dict[str, bool]:
    q, f = result.get("question", {}), result.get("follow_up", {})
    a, b, t = result.get("approvals", {}), result.get("bad_setup", {}), result.get("typed", {})
    return {
        "question: report with citation links": q.get("citation_link_count", 0) > 0 and not q.get("raw_refs_in_final"),
        "question: progress shown": bool(q.get("progress_lines")),
        "question: the PDF link opens the PDF": bool(q.get("pdf_link_ok")),
        "question: never blank, question always shown": q.get("question_missing_share", 1) == 0,
        "no internal turn (question)": not q.get("internal_turns"),
        "follow-up: answered in the thread": f.get("follow_up_shown", False) and f.get("citation_link_count", 0) > 0,
        "no internal turn (follow-up)": not f.get("internal_turns"),
        "approvals: brief by button": "Approve" in a.get("brief_buttons", []),
        "approvals: report by button": "Approve" in a.get("report_buttons", []),
        "approvals: published": a.get("citation_link_count", 0) > 0,
        "approvals: rejected brief rewritten": a.get("second_brief_shown", False),
        "typed replies: brief and report": t.get("review_after_typed_approval", False)
        and t.get("briefs_shown") == 1 and t.get("citation_link_count", 0) > 0,
        "bad setup: message in the chat, stays": b.get("message_stays", False),
        "bad setup: message after reload": b.get("message_after_reload", False),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--client", type=Path, default=Path(os.environ.get("AGENT_CHAT_UI_DIR", "../agent-chat-ui")),
                    help="the agent-chat-ui source folder (env AGENT_CHAT_UI_DIR)")
    ap.add_argument("--out", type=Path, default=Path("chat-ui-check"), help="screenshots and logs go here")
    ap.add_argument("--rebuild", action="store_true", help="build the client even when a build exists")
    ap.add_argument("--steps", default="question,approvals,bad-setup,typed")
    ap.add_argument("--model-delay", type=float, default=0.3,
                    help="seconds each scripted model answer waits (so a run lasts long enough to watch)")
    args = ap.parse_args()
    client = args.client.resolve()
    if not (client / "package.json").exists():
        print(f"no Agent Chat UI at {client} (--client or AGENT_CHAT_UI_DIR)", file=sys.stderr)
        return 2
    if not Path(CHROMIUM).exists():
        print(f"no Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    out = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    build_client(client, out, force=args.rebuild)
    steps = set(args.steps.split(","))

    from langgraph_sdk import get_sync_client
    from playwright.sync_api import sync_playwright

    corpus = write_corpus(out / "corpus")
    result: dict = {}
    script = full_script()
    respond = script.respond

    def slow(role, messages):  # a model takes time to answer
        time.sleep(args.model_delay)
        return respond(role, messages)

    script.respond = slow  # type: ignore[method-assign]
    with ScriptServer(script) as models, serve_directory(str(corpus)) as pages:
        env_file = {f"DEEP_RESEARCH_{r.upper()}_MODEL": f"openai:{r}" for r in ROLES}
        env_file.update({"DEEP_RESEARCH_MODEL_BASE_URL": models.base_url, "DEEP_RESEARCH_SEARCH_API": "local",
                         "DEEP_RESEARCH_CORPUS_PATH": str(corpus), "DEEP_RESEARCH_CORPUS_BASE_URL": pages,
                         "DEEP_RESEARCH_OUTPUT_DIR": str(out / "reports"), "DEEP_RESEARCH_WRITE_PDF": "true",
                         "DEEP_RESEARCH_FETCH_ALLOW_PRIVATE": "true"})
        api_url, server = langgraph_server(out / "server", env_file)
        client_url, web = chat_client(client, out)
        with server, web, sync_playwright() as pw:
            lg = get_sync_client(url=api_url)
            graphs = sorted({a["graph_id"] for a in lg.assistants.search(limit=50)})
            result["graph_ids"] = graphs
            result["default_assistant"] = "agent" if "agent" in graphs else "deep_research"
            log("server", api_url, "graphs", graphs, "client", client_url)
            approvals = lg.assistants.create("deep_research", name="approvals", context={
                "require_brief_approval": True, "require_report_approval": True})["assistant_id"]
            bad = lg.assistants.create("deep_research", name="bad setup",
                                       context={"search_api": "tavily"})["assistant_id"]
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            try:
                if "question" in steps:
                    log("step: question, follow-up")
                    step_question(context, (client_url, api_url), out, result)
                if "approvals" in steps:
                    log("step: approvals")
                    step_approvals(context, (client_url, api_url), approvals, out, result)
                if "bad-setup" in steps:
                    log("step: bad setup")
                    step_bad_setup(context, (client_url, api_url), bad, out, result)
                if "typed" in steps:
                    log("step: typed replies")
                    step_typed(context, (client_url, api_url), approvals, out, result)
            finally:
                context.close()
                browser.close()
    result["checks"] = checks(result)
    (out / "summary.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return 0 if all(result["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
