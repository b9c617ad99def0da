"""`deep-research research` and `resume` as a user runs them (scripted model via the
DEEP_RESEARCH_DEPS extension point, local corpus, SQLite checkpoints)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.scenario import QUESTION, write_corpus

ROOT = Path(__file__).resolve().parents[2]


def run(*args, env=None, timeout=300):
    full = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL")}
    full["PYTHONPATH"] = str(ROOT)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=timeout, stdin=subprocess.DEVNULL)


SCRIPTED = {"DEEP_RESEARCH_DEPS": "tests.support.cli_deps:deps"}
# a process where the anthropic extra is not installed (CI installs every extra)
WITHOUT_ANTHROPIC = os.pathsep.join([str(ROOT / "tests" / "support" / "without_anthropic"), str(ROOT)])


@pytest.fixture()
def corpus(tmp_path):
    return write_corpus(tmp_path / "corpus")


def test_research_writes_the_report(tmp_path, corpus):
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes",
            "--db", tmp_path / "state.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert re.search(r"Citations: \d+ verified, 0 repaired, 0 unsupported", r.stdout), r.stdout
    assert "Tokens and time per node" in r.stdout
    # the live count and the table agree (a subgraph's result is not counted twice)
    live = int(re.findall(r"tokens=(\d+)", r.stdout + r.stderr)[-1])
    total = re.search(r"total[\s│]+\d+[\s│]+([\d,]+)[\s│]+([\d,]+)", r.stdout)
    assert live == sum(int(g.replace(",", "")) for g in total.groups()) > 0
    pdfs = list((tmp_path / "reports").rglob("report.pdf"))
    assert len(pdfs) == 1
    folder = pdfs[0].parent
    for name in ("report.md", "report.linked.md", "report.html", "citations.json", "notes.md", "raw_notes.md"):
        assert (folder / name).is_file(), name
    # the summary names every file the folder holds (audit.json, raw_notes.md and run.json were
    # left out), one a line (a name never wraps in 80 columns)
    listed = [line[2:] for line in r.stdout.splitlines() if line.startswith("  ") and not line[2:3].isspace()]
    held = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert {"audit.json", "raw_notes.md", "run.json"} <= set(held), held
    assert set(held) <= set(listed), (held, listed)
    # the folder alone re-publishes the report: same checks, same links
    assert "sources.json" in r.stdout
    again = run("publish", folder / "report.md", "--sources", folder / "sources.json", "--out", tmp_path / "again",
                "--no-pdf")
    assert again.returncode == 0, again.stderr
    first, second = (json.loads((d / "citations.json").read_text()) for d in (folder, tmp_path / "again"))
    assert len(first) == len(second) > 0
    for a, b in zip(first, second):
        assert (a["status"], a["url"], a["claim_status"]) == (b["status"], b["url"], b["claim_status"])


def test_the_summary_sentences_are_one_line_each_into_a_pipe(tmp_path, corpus):
    """Into a pipe (COLUMNS=80, as CI and scripts run it), the citation line was wrapped at 80
    columns mid-sentence ("... 9 link to the exact \\nsentence. Every claim was ..."), unlike the
    coverage lines beside it: a script reading "Citations: ..." got half of it."""
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", tmp_path / "state.sqlite", env={**SCRIPTED, "COLUMNS": "80"})
    assert r.returncode == 0, r.stdout + r.stderr
    [line] = [x for x in r.stdout.splitlines() if x.startswith("Citations: ")]
    assert re.fullmatch(r"Citations: \d+ verified, .* link to the exact sentence\. Every claim was checked "
                        r"against its quotes: .* not checked\.", line), r.stdout
    [coverage] = [x for x in r.stdout.splitlines() if x.startswith("Coverage: ")]
    assert coverage.endswith(".") or coverage.endswith(")"), r.stdout


def test_brief_approval_without_a_terminal_waits_then_resumes(tmp_path, corpus):
    db = tmp_path / "state.sqlite"
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes",
            "--approve-brief", "--db", db, env=SCRIPTED)
    # --yes (ask nothing) with --approve-brief (ask for approval) is refused, not silently approved
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--yes and --approve-brief contradict each other" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "reports").exists() and not db.exists()
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports2",
            "--approve-brief", "--db", db, env=SCRIPTED)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "waiting for approval of the research brief" in r.stderr
    # the answers resume takes to a brief, not those of a clarifying question or a report's review
    assert " ".join(r.stderr.split()).endswith("--approve | --reject FEEDBACK"), r.stderr
    thread = re.search(r"deep-research resume (\w+)", r.stderr).group(1)
    r = run("resume", thread, "--reject", "Focus on Europe.", "--db", db, env=SCRIPTED)
    assert r.returncode == 3 and "waiting for approval" in r.stderr  # rewritten, asked again
    r = run("resume", thread, "--approve", "--db", db, env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    assert list((tmp_path / "reports2").rglob("report.pdf"))
    r = run("resume", thread, "--db", db, env=SCRIPTED)
    assert r.returncode == 0 and "already complete" in r.stdout


def test_a_resume_says_which_model_server_or_key_of_the_environment_changed(tmp_path, corpus):
    """A resume researches with the environment it has: a model, a model server or a search
    key changed since the run started was used without a word. Each change is a warning line
    (a URL's password and a key never shown, nor kept: a salted fingerprint tells keys
    apart); an unchanged environment says nothing."""
    db = tmp_path / "state.sqlite"
    first = {**SCRIPTED, "DEEP_RESEARCH_RESEARCH_MODEL": "openai:model-a", "TAVILY_API_KEY": "tvly-first-key-1",
             "OPENAI_BASE_URL": "https://alice:pw-1@models.example/v1", "OPENAI_API_KEY": "sk-same-key-0001"}
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--no-pdf",
            "--approve-brief", "--db", db, env=first)
    assert r.returncode == 3, r.stdout + r.stderr
    thread = re.search(r"deep-research resume (\w+)", r.stderr).group(1)
    r = run("resume", thread, "--answer", "x", "--db", db, env=first)
    assert r.returncode == 3 and "when the run started" not in r.stderr, r.stderr
    later = {**first, "DEEP_RESEARCH_RESEARCH_MODEL": "openai:model-b", "TAVILY_API_KEY": "tvly-other-key-2",
             "DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS": "1"}
    del later["OPENAI_BASE_URL"]
    r = run("resume", thread, "--approve", "--db", db, env={**later, "COLUMNS": "80"})
    assert r.returncode == 0, r.stdout + r.stderr
    said = " ".join(r.stderr.split())
    for line in ("warning: DEEP_RESEARCH_RESEARCH_MODEL was 'openai:model-a' when the run started and is "
                 "'openai:model-b' now: this resume uses the new value",
                 "warning: OPENAI_BASE_URL was 'https://alice:***@models.example/v1' when the run started and is not "
                 "set now: this resume uses the setting's default",
                 "warning: DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS was not set when the run started and is '1' now",
                 "warning: TAVILY_API_KEY holds another key than when the run started: this resume uses the new one"):
        assert line in said, said
    assert "OPENAI_API_KEY" not in said and "pw-1" not in said and "first-key" not in said
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("state.sqlite-*"))
    assert b"pw-1" not in raw and b"tvly-first" not in raw and b"sk-same" not in raw


def saved_state(db: Path, thread: str) -> dict:
    """The thread's state values as the state database keeps them."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    with SqliteSaver.from_conn_string(str(db)) as saver:
        return saver.get_tuple({"configurable": {"thread_id": thread, "checkpoint_ns": ""}}).checkpoint[
            "channel_values"]


def saved_run(db: Path, thread: str) -> dict:
    """The run's saved settings and question, as ``resume`` reads them."""
    import json
    import sqlite3

    with sqlite3.connect(db) as conn:
        (value,) = conn.execute("SELECT value FROM store WHERE key = ?", (thread,)).fetchone()
    return json.loads(value)


def test_a_resume_replaces_a_saved_setting_the_environment_refuses_now_and_says_so(tmp_path, corpus):
    """The run was started with a model the environment no longer allows: resume exited 2
    and nothing the resume could be given changed the saved model, a dead run. Now it warns
    (the option, the saved value, why, the value used), continues with the environment's
    value (else the default), keeps it for later resumes, and the run records a
    setting_refused degradation and a settings turn, as on the server. A refusal caused by
    what the resume typed (a cost cap the saved model has no price for) stays exit 2."""
    db = tmp_path / "state.sqlite"
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--no-pdf",
            "--approve-brief", "--research-model", "openai:old-model", "--db", db, env=SCRIPTED)
    assert r.returncode == 3, r.stdout + r.stderr
    thread = re.search(r"deep-research resume (\w+)", r.stderr).group(1)
    r = run("resume", thread, "--approve", "--max-cost", "5", "--db", db, env=SCRIPTED)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no price is known for openai:old-model" in r.stderr and "Traceback" not in r.stderr
    now = {**SCRIPTED, "DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"}
    r = run("resume", thread, "--approve", "--db", db, env={**now, "COLUMNS": "300"})
    assert r.returncode == 0, r.stdout + r.stderr
    line = ("warning: --research-model: openai:old-model, which the run was started with, is refused now (model "
            "openai:old-model (research_model) is not allowed; DEEP_RESEARCH_ALLOWED_MODELS allows only "
            "openai:gpt-4.1*); the default openai:gpt-4.1 is used from now on for this run (a later resume keeps it)")
    assert line in " ".join(r.stderr.split()), r.stderr
    values = saved_state(db, thread)
    refused = [d for d in values["degradations"] if d.get("kind") == "setting_refused"]
    assert len(refused) == 1 and "openai:old-model" in refused[0]["message"], values["degradations"]
    assert [m.content for m in values["messages"] if m.name == "settings"] == [
        "Settings the question was started with are refused now; each is replaced:\n- research_model: "
        + refused[0]["message"].split(": ", 1)[1]]
    assert saved_run(db, thread)["context"]["research_model"] == "openai:gpt-4.1"  # what was used, saved
    r = run("resume", thread, "--db", db, env=now)  # the replacement is kept: nothing refused again
    assert r.returncode == 0 and "already complete" in r.stdout and "--research-model" not in r.stderr, r.stderr


def test_what_resume_is_given_and_does_not_use_is_said_in_one_line_each(tmp_path, corpus):
    """An answer to a question the run did not ask, and an approval or a cap given to a run
    that is already complete, were dropped without a word: each is named now, as typed, on
    one line; the exit code is what it was."""
    db = tmp_path / "state.sqlite"
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--no-pdf",
            "--approve-brief", "--db", db, env=SCRIPTED)
    assert r.returncode == 3, r.stdout + r.stderr
    thread = re.search(r"deep-research resume (\w+)", r.stderr).group(1)
    r = run("resume", thread, "--answer", "Europe only", "--db", db, env=SCRIPTED)
    assert r.returncode == 3 and "waiting for approval" in r.stderr, r.stdout + r.stderr
    assert "warning: --answer 'Europe only' was not used: the run did not ask for it" in r.stderr
    r = run("resume", thread, "--approve", "--db", db, env=SCRIPTED)
    assert r.returncode == 0 and "was not used" not in r.stderr, r.stdout + r.stderr
    r = run("resume", thread, "--approve", "--max-tokens", "20000", "--db", db, env=SCRIPTED)
    assert r.returncode == 0 and "already complete" in r.stdout, r.stdout + r.stderr
    said = [line for line in r.stderr.splitlines() if "was not used" in line]
    assert said == [f"warning: --max-tokens 20000 was not used: run {thread} is already complete",
                    f"warning: --approve was not used: run {thread} is already complete"], r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "args, env, message",
    [
        (["research", "   "], {}, "the question is empty"),
        (["research", "x" * 20001], {}, "20,000"),
        (["research", "bad\x07question"], {}, "control characters"),
        (["research", "What is tea?", "--search", "google"], {}, "--search: must be tavily, local, searxng, openai_web, anthropic_web or none"),
        (["research", "What is tea?", "--search", "local"], {"OPENAI_API_KEY": "k"}, "--corpus"),
        (["research", "What is tea?", "--corpus", "/nonexistent/dir"], {}, "does not exist"),
        # a backend's own option with another backend: it was dropped without a word, the web searched
        (["research", "What is tea?", "--corpus", "tests", "--search", "tavily"], {},
         "--corpus is used by --search local only, and --search tavily was given"),
        (["research", "What is tea?", "--searxng-url", "http://localhost:8888", "--search", "none"], {},
         "--searxng-url is used by --search searxng only, and --search none was given"),
        (["research", "What is tea?", "--search", "none"], {}, "OPENAI_API_KEY"),
        (["research", "What is tea?"], {"OPENAI_API_KEY": "k"}, "TAVILY_API_KEY"),
        (["research", "What is tea?", "--search", "none", "--model", "openai:x", "--api-key-env", "MY_KEY"], {},
         "MY_KEY"),
        # preflight: every setup mistake is reported before any model call, naming the setting
        (["research", "What is tea?", "--search", "none", "--model", "nosuchprovider:x"], {"OPENAI_API_KEY": "k"},
         "the run cannot start: --model = nosuchprovider:x: cannot use this model"),  # all roles, said once
        (["research", "What is tea?", "--search", "none", "--model", "anthropic:claude-x"],
         {"OPENAI_API_KEY": "k", "PYTHONPATH": WITHOUT_ANTHROPIC},
         "= anthropic:claude-x: the model provider 'anthropic' needs the package langchain-anthropic, which is not "
         "installed; install it with: uv sync --extra anthropic"),  # an optional extra (not in the default sync)
        (["research", "What is tea?", "--search", "none", "--model", "groq:llama-x"], {"OPENAI_API_KEY": "k"},
         "needs a package that is not installed"),  # another init_chat_model provider
        (["research", "What is tea?", "--search", "none"],
         {"OPENAI_API_KEY": "k", "DEEP_RESEARCH_MCP_CONFIG": '{"url": "http://127.0.0.1:9/mcp"}'},
         "mcp_config needs \"tools\""),
        (["research", "What is tea?", "--search", "none"],
         {"OPENAI_API_KEY": "k", "DEEP_RESEARCH_MCP_CONFIG":
          '{"url": "http://127.0.0.1:9/mcp", "tools": ["t"], "headers_env": {"Authorization": "NO_SUCH_TOKEN"}}'},
         "NO_SUCH_TOKEN"),
        # a base URL that is no URL was sent to the HTTP client: connection errors, retried, exit 1
        (["research", "What is tea?", "--search", "none", "--base-url", "not a url"], {"OPENAI_API_KEY": "k"},
         "--base-url: 'not a url' is not an http:// or https:// URL"),
        (["research", "What is tea?", "--search", "none", "--research-model-base-url", "ftp://models.example/v1"],
         {"OPENAI_API_KEY": "k"}, "--research-model-base-url: 'ftp://models.example/v1' is not an http:// or "
         "https:// URL"),
        (["research", "What is tea?", "--corpus", "EMPTY_CORPUS"], {"OPENAI_API_KEY": "k"},
         "the corpus holds no documents"),
        (["research", "What is tea?"], {}, "citation_check_model (openai:gpt-4.1, openai:gpt-4.1-mini): no model "
         "credentials: set OPENAI_API_KEY"),  # one line for all roles, the Tavily key on the next
        (["resume", "nosuchthread"], {}, "s.sqlite does not exist (use the same --db as the original run)"),
        (["resume", "t", "--approve", "--reject", "x"], {}, "only one of --approve, --reject and --edit"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(tmp_path, args, env, message):
    if "EMPTY_CORPUS" in args:
        (tmp_path / "empty").mkdir()
        (tmp_path / "empty" / "image.png").write_bytes(b"\x89PNG")
        args = [str(tmp_path / "empty") if a == "EMPTY_CORPUS" else a for a in args]
    r = run(*args, "--db", tmp_path / "s.sqlite", env=env)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_a_preflight_problem_names_the_option_the_user_typed(tmp_path):
    """A setting given as an option is named as typed (--url, --research-model), one set
    otherwise (here the models' default) by its setting name."""
    r = run("research", "What is tea?", "--search", "none", "--url", "ftp://example.com/a",
            "--research-model", "nosuchprovider:x", "--db", tmp_path / "s.sqlite", env={"OPENAI_API_KEY": "k"})
    assert r.returncode == 2, (r.stdout, r.stderr)
    text = " ".join(r.stderr.split())
    assert "- --url: " in text and "only http:// and https:// URLs" in text, text
    assert "- --research-model = nosuchprovider:x: cannot use this model" in text, text
    assert "research_urls" not in text and "research_model" not in text and "Traceback" not in text


def test_dotenv_in_the_working_folder_is_loaded_and_the_environment_wins(tmp_path):
    """`.env` is read like langgraph.json's "env" for `langgraph dev`: here it holds a bad
    MCP setting, which preflight reports before any model call."""
    work = tmp_path / "work"
    work.mkdir()
    (work / ".env").write_text('OPENAI_API_KEY=sk-from-dotenv-1234567890\n'
                               'DEEP_RESEARCH_MCP_CONFIG={"url": "http://127.0.0.1:9/mcp"}\n')

    def cli(*args, **env):
        full = {k: v for k, v in os.environ.items()
                if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "DEEP_RESEARCH_ENV_FILE",
                             "DEEP_RESEARCH_MCP_CONFIG")}
        full.update(PYTHONPATH=str(ROOT), **env)
        return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)], capture_output=True,
                              text=True, cwd=work, env=full, timeout=120, stdin=subprocess.DEVNULL)

    r = cli("research", "What is tea?", "--search", "none", "--db", tmp_path / "s.sqlite")
    assert r.returncode == 2 and 'mcp_config needs "tools"' in r.stderr, r.stderr
    assert "OPENAI_API_KEY" not in r.stderr  # the key came from .env too
    # a variable set in the environment wins over .env
    r = cli("research", "What is tea?", "--search", "none", "--db", tmp_path / "s.sqlite",
            DEEP_RESEARCH_MCP_CONFIG='{"url": "http://127.0.0.1:9/mcp", "tools": ["t"], '
                                     '"headers_env": {"Authorization": "NO_SUCH_TOKEN_VAR"}}')
    assert r.returncode == 2 and "NO_SUCH_TOKEN_VAR" in r.stderr, r.stderr
    # another file, or none
    (work / "other.env").write_text("OPENAI_API_KEY=sk-other-1234567890\n")
    r = cli("research", "What is tea?", "--search", "none", "--db", tmp_path / "s.sqlite",
            DEEP_RESEARCH_ENV_FILE="none")
    assert r.returncode == 2 and "no model credentials" in r.stderr and "mcp_config" not in r.stderr, r.stderr
    r = cli("research", "What is tea?", "--db", tmp_path / "s.sqlite", DEEP_RESEARCH_ENV_FILE=str(work / "nope"))
    assert r.returncode == 2 and "DEEP_RESEARCH_ENV_FILE" in r.stderr and "no such file" in r.stderr


def test_report_review_waits_then_an_edited_report_is_published(tmp_path, corpus):
    db = tmp_path / "state.sqlite"
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--review-report",
            "--no-pdf", "--db", db, env=SCRIPTED)
    assert r.returncode == 3 and "waiting for review of the report" in r.stderr, r.stdout + r.stderr
    assert " ".join(r.stderr.split()).endswith("--approve | --reject FEEDBACK | --edit FILE"), r.stderr
    assert not list((tmp_path / "reports").rglob("report.md"))
    thread = re.search(r"deep-research resume (\w+)", r.stderr).group(1)
    # an edit past the limit (several times the longest report a run writes) is refused before
    # the run resumes, naming its length and the limit; the run still waits for its review
    huge = tmp_path / "huge.md"
    huge.write_text("# Mine\n\n" + "Tea is grown on hills. " * 50_000, encoding="utf-8")
    r = run("resume", thread, "--edit", huge, "--db", db, env=SCRIPTED)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "the edited report is 1,150,008 characters long; the limit is 1,000,000" in " ".join(r.stderr.split())
    assert "Traceback" not in r.stderr
    edited = tmp_path / "edited.md"
    edited.write_text("# My own version\n\nShort and sweet, no citations.\n", encoding="utf-8")
    r = run("resume", thread, "--edit", edited, "--db", db, env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    report = next((tmp_path / "reports").rglob("report.md")).read_text(encoding="utf-8")
    assert report.startswith("# My own version")


def test_the_first_error_a_new_user_sees_keeps_its_line_breaks(tmp_path):
    """No API key: one problem per line, not one line with literal \\n between them."""
    r = run("research", "What is tea?", "--db", tmp_path / "s.sqlite", env={"DEEP_RESEARCH_ENV_FILE": "none"})
    assert r.returncode == 2, r.stdout + r.stderr
    assert "\\n" not in r.stderr and "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0] == "error: the run cannot start:", lines
    assert lines[1].startswith("- research_model, summarization_model") and "OPENAI_API_KEY" in lines[1]
    assert lines[2].startswith("- search_api 'tavily'") and "TAVILY_API_KEY" in lines[2]


def test_the_report_review_prompt_never_sends_a_pages_escape_sequence_to_the_terminal():
    """Issue 19: an ESC a page kept (here an OSC 52 clipboard write and a screen clear)
    reached a real terminal raw through the report-review prompt. In a pty, the prompt
    shows the sequences written out; the terminal receives no ESC but Rich's own styling."""
    import pty
    import select

    code = ("from deep_research.cli.research import _ask_report_review\n"
            "import logging\n"
            "print(_ask_report_review({'report_markdown': 'Quote: x\\x1b]52;c;ZXZpbA==\\x07 end\\x1b[2J',"
            " 'error': 'bad\\x1b]0;title\\x07'}, None))\n"
            "logging.getLogger('deep_research.test').warning('log \\x1b]52;c;bG9n\\x07')\n")
    setup = "from deep_research.cli.console import safe_logging; safe_logging()\n"
    pid, fd = pty.fork()
    if pid == 0:  # the child: a CLI process whose terminal is the pty
        os.environ["PYTHONPATH"] = str(ROOT)
        os.environ["COLUMNS"] = "200"
        os.execv(sys.executable, [sys.executable, "-c", setup + code])
    os.write(fd, b"a\n")
    seen = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.waitpid(pid, 0)
    text = seen.decode("utf-8", "replace")
    assert "{'type': 'approve'}" in text, text
    assert "\\x1b]52;c;ZXZpbA==\\x07" in text and "\\x1b[2J" in text and "\\x1b]0;title" in text, text
    assert "\\x1b]52;c;bG9n" in text  # a warning logged with page text
    # every ESC the terminal got starts one of Rich's colour sequences (CSI ... m)
    assert not re.search(r"\x1b(?!\[[0-9;]*m)", text), repr(text)


def test_progress_summary_compare_and_eval_count_the_same_rounds_and_coverage(tmp_path, corpus):
    """One definition of a round (a supervisor round, research_iterations) and of coverage
    (research.scope.plan.plan_coverage): the live progress, the summary, compare's numbers
    and eval report say the same of the same run."""
    import json

    from deep_research.cli.compare import run_metrics

    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", tmp_path / "state.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    progress = re.findall(r"^\[([a-z ]+?)(?: r(\d+))?\] researchers=", r.stdout, re.M)
    shown = [int(n) for stage, n in progress if n]
    # the researchers a round sends are shown while they run (the scenario's first round sends two)
    assert re.search(r"^\[research r1\] researchers=2 ", r.stdout, re.M), r.stdout
    assert shown and all(stage == "research" for stage, n in progress if n)  # no round outside research
    summary = re.search(r"research stopped after (\d+) research round\(s\)", r.stdout, re.I)
    assert summary and int(summary.group(1)) == max(shown), r.stdout
    record = json.loads(next((tmp_path / "reports").rglob("run.json")).read_text(encoding="utf-8"))
    assert record["research_iterations"] == max(shown) == record["coverage"]["rounds"]
    # the scenario's plan has no sub-questions: coverage is n/a everywhere, not 0 % here and 100 % there
    assert "Coverage: n/a" in r.stdout
    assert run_metrics(record, 1.0, "t")["coverage"] is None
    out = tmp_path / "eval.json"
    e = run("eval", "report", tmp_path / "reports", "--json", out)
    assert e.returncode == 0, e.stdout + e.stderr
    synthesis = json.loads(out.read_text(encoding="utf-8"))["runs"][0]["synthesis"]
    assert synthesis["coverage"] is None and synthesis["coverage_basis"] == "research plan"


def test_the_token_cap_is_a_cap(tmp_path, corpus):
    """--max-tokens 14000 on a run that uses about 12,000 without a cap (the cap's estimates
    are larger than these scripted replies): no call that would pass the cap is made, research
    stops early, the report is written within the cap, and the CLI names the option to raise."""
    import json

    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", tmp_path / "state.sqlite", "--max-tokens", "14000", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    record = json.loads(next((tmp_path / "reports").rglob("run.json")).read_text(encoding="utf-8"))
    used = sum(u["input_tokens"] + u["output_tokens"] for u in record["usage"].values())
    assert 0 < used <= 14000, used
    assert record["usage"].get("researcher") and record["usage"].get("final_report_generation")
    assert "research stopped early: token budget reached" in r.stderr
    assert "The token cap (--max-tokens) stopped research early: raise --max-tokens" in r.stderr
    assert next((tmp_path / "reports").rglob("report.md")).read_text(encoding="utf-8").strip()


def test_a_cap_too_small_for_the_first_call_fails_naming_the_option(tmp_path, corpus):
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", tmp_path / "state.sqlite", "--max-tokens", "1000", env=SCRIPTED)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "was not made: it would pass the token cap" in r.stderr
    tid = re.search(r"deep-research resume (\S+) --max-tokens N", r.stderr)
    assert tid, r.stderr
    assert "continue with: deep-research resume" not in r.stderr  # not "fix the cause": the cap is the cause


def test_resume_with_a_higher_cap_finishes_the_run_the_cap_stopped(tmp_path, corpus):
    """A cap too small for a step used to mean starting again (resume kept the cap); now resume
    takes --max-tokens / --max-cost and the whole run's usage counts against the new cap."""
    import json

    db = tmp_path / "state.sqlite"
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", db, "--max-tokens", "1000", env=SCRIPTED)
    assert r.returncode == 1, r.stdout + r.stderr
    tid = re.search(r"deep-research resume (\S+) --max-tokens N", r.stderr).group(1)
    bad = run("resume", tid, "--db", db, "--max-tokens", "10", env=SCRIPTED)
    assert bad.returncode == 2 and "--max-tokens: must be at least 1,000" in bad.stderr, bad.stderr
    same = run("resume", tid, "--db", db, env=SCRIPTED)  # the cap of the run: still too small
    assert same.returncode == 1 and "would pass the token cap" in same.stderr, same.stdout + same.stderr
    done = run("resume", tid, "--db", db, "--max-tokens", "14000", env=SCRIPTED)
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads(next((tmp_path / "reports").rglob("run.json")).read_text(encoding="utf-8"))
    used = sum(u["input_tokens"] + u["output_tokens"] for u in record["usage"].values())
    assert 0 < used <= 14000, used
    assert next((tmp_path / "reports").rglob("report.md")).read_text(encoding="utf-8").strip()
    again = run("resume", tid, "--db", db, env=SCRIPTED)
    assert again.returncode == 0 and "already complete" in again.stdout, again.stdout + again.stderr


def test_resume_with_cap_none_removes_the_cap(tmp_path, corpus):
    """A cap is removed on resume with --max-tokens none (the advice says so); the run then
    finishes, and a later resume does not bring the cap back."""
    db = tmp_path / "state.sqlite"
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", db, "--max-tokens", "1000", env=SCRIPTED)
    assert r.returncode == 1, r.stdout + r.stderr
    tid = re.search(r"deep-research resume (\S+) --max-tokens N \(or --max-tokens none: no cap\)", r.stderr)
    assert tid, r.stderr
    done = run("resume", tid.group(1), "--db", db, "--max-tokens", "None", env=SCRIPTED)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "token budget reached" not in done.stderr and "--max-tokens" not in done.stderr, done.stderr
    again = run("resume", tid.group(1), "--db", db, env=SCRIPTED)
    assert again.returncode == 0 and "already complete" in again.stdout, again.stdout + again.stderr


def test_a_failed_model_call_is_reported_once(tmp_path, corpus):
    # a model server that refuses connections: the brief fails after its retries; the user reads
    # the failure once (it was printed twice: a log line and the CLI's error), exit code 1
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes",
            "--db", tmp_path / "state.sqlite", "--model", "openai:gpt-4o-mini",
            "--base-url", "http://127.0.0.1:9/v1", env={"OPENAI_API_KEY": "k"})
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "Traceback" not in out
    assert "the run failed at write_research_brief" in out, out
    assert out.count("model call failed") == 1, out


def test_a_clamped_cap_is_named_as_typed_and_saved_as_clamped(tmp_path, corpus):
    """The environment's ceiling lowers --max-tokens: the warning names the option the user
    typed (not the setting), and the run saves the cap it used, so a resume without
    --max-tokens keeps the ceiling and warns no more."""
    db = tmp_path / "state.sqlite"
    env = {**SCRIPTED, "DEEP_RESEARCH_MAX_TOTAL_TOKENS": "1000"}
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", db, "--max-tokens", "5000", env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "--max-tokens 5,000 is above the ceiling" in r.stderr.replace("\n", " "), r.stderr
    assert "max_total_tokens 5" not in r.stderr, r.stderr
    tid = re.search(r"deep-research resume (\w+)", r.stdout + r.stderr).group(1)
    again = run("resume", tid, "--db", db, env=env)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "above the ceiling" not in again.stderr, again.stderr  # the saved cap is the one used


def test_resume_with_a_state_database_that_does_not_exist_creates_nothing(tmp_path):
    db = tmp_path / "typo" / "state.sqlite"
    r = run("resume", "abc123", "--db", db, env=SCRIPTED)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"the state database {db} does not exist" in r.stderr.replace("\n", ""), r.stderr
    assert not db.parent.exists()
    import sqlite3

    sqlite3.connect(tmp_path / "empty.sqlite").close()  # a database that exists, without the run
    r = run("resume", "abc123", "--db", tmp_path / "empty.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "no run with thread id 'abc123'" in r.stderr, r.stderr


def test_resume_edit_names_a_folder_or_a_file_that_is_not_text_plainly(tmp_path):
    """--edit reads like every file the user names (bounded, one clear message, exit 2)."""
    r = run("resume", "t", "--edit", tmp_path, "--db", tmp_path / "none.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert f"edited report {tmp_path} is a folder, not a file" in r.stderr, r.stderr
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"# Caf\xe9\n")
    r = run("resume", "t", "--edit", latin, "--db", tmp_path / "none.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert f"edited report {latin} is not UTF-8 text (byte 5)" in r.stderr, r.stderr


def test_resume_edit_of_an_endless_file_stops_at_the_bound(tmp_path):
    """/dev/zero (or a pipe that never ends) is refused past the input bound, not read
    until memory runs out (the bound lowered to 1 MB in the process)."""
    code = ("import sys\nfrom deep_research import inputs\ninputs.MAX_INPUT_BYTES = 1 << 20\n"
            "from deep_research.cli import run\nsys.argv[0] = 'deep-research'\nrun()\n")
    full = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL")}
    full.update(PYTHONPATH=str(ROOT), **SCRIPTED)
    r = subprocess.run([sys.executable, "-c", code, "resume", "t", "--edit", "/dev/zero", "--db",
                        str(tmp_path / "none.sqlite")], capture_output=True, text=True, cwd=ROOT, env=full,
                       timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "edited report /dev/zero is larger than 1 MB" in r.stderr, r.stderr


def _review_with_answers(monkeypatch, answers, payload: dict | None = None):
    """The interactive report review, its prompt answered from ``answers`` in turn."""
    import typer

    from deep_research.cli import research

    queue = list(answers)
    monkeypatch.setattr(research.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(typer, "prompt", lambda *a, **k: queue.pop(0))
    result = research._ask_report_review(payload or {"report_markdown": "draft"}, None)
    assert not queue, queue
    return result


def test_the_review_says_what_the_citation_check_found_before_it_asks(monkeypatch, capsys):
    """The terminal's review showed the report's markdown and asked to publish it without
    a word on its citations (a quote not on its page looks like any other <ref> there); the
    chat's review says it, from the same summary the review carries."""
    summary = {"refs": 3, "verified": 1, "repaired": 1, "unsupported": 1, "fragment_links": 2}
    assert _review_with_answers(monkeypatch, ["a"], {"report_markdown": "draft", "citation_summary": summary}) \
        == {"type": "approve"}
    shown = " ".join(capsys.readouterr().out.split())
    assert "1 verified, 1 repaired, 1 unsupported" in shown, shown


def test_the_review_answer_e_file_names_a_bad_file_plainly_and_asks_again(tmp_path, monkeypatch, capsys):
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"# Caf\xe9\n")
    good = tmp_path / "good.md"
    good.write_text("# Mine\n", encoding="utf-8")
    result = _review_with_answers(monkeypatch, [f"e {tmp_path}", f"e {latin}", f"e {tmp_path / 'nope.md'}",
                                                f"e {good}"])
    assert result == {"type": "edit", "markdown": "# Mine\n"}
    err = capsys.readouterr().err
    assert f"edited report {tmp_path} is a folder, not a file" in err, err
    assert f"edited report {latin} is not UTF-8 text (byte 5)" in err, err
    assert f"edited report {tmp_path / 'nope.md'} does not exist" in err, err
    assert "Traceback" not in err


def test_the_review_answer_e_dev_zero_stops_at_the_bound_and_asks_again(tmp_path, monkeypatch, capsys):
    from deep_research import inputs

    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1 << 20)
    good = tmp_path / "good.md"
    good.write_text("# Mine\n", encoding="utf-8")
    assert _review_with_answers(monkeypatch, ["e /dev/zero", f"e {good}"]) == {"type": "edit", "markdown": "# Mine\n"}
    assert "edited report /dev/zero is larger than 1 MB" in capsys.readouterr().err


@pytest.mark.parametrize("db", ["sqlite:///state.db", "sqlite:////tmp/x/state.db", "mysql://host/db"])
def test_a_db_url_that_is_not_postgresql_is_a_usage_error_not_a_folder(tmp_path, db):
    """Read as a path, 'sqlite:///state.db' made a folder 'sqlite:' in the working folder
    and kept the run's state there."""
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", "research", "What is tea?", "--search", "none",
                        "--yes", "--db", db, "--out", str(tmp_path / "reports")],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120, stdin=subprocess.DEVNULL,
                       env={**os.environ, "OPENAI_API_KEY": "k", "DEEP_RESEARCH_ENV_FILE": "none",
                            "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2, r.stderr
    assert f"--db: '{db}' is neither a PostgreSQL URL" in r.stderr.replace("\n", " ")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing created


def test_a_page_read_only_in_part_is_said_once_though_several_queries_returned_it(capsys):
    from deep_research.cli.research import _print_result

    cut = {"stage": "researcher", "kind": "page_cut", "url": "https://example.com/a"}
    values = {"status": "completed", "degradations": [
        {**cut, "message": "page https://example.com/a read only in part: truncated", "query": "tea"},
        {**cut, "message": "page https://example.com/a read only in part: truncated", "query": "green tea"},
        {**cut, "url": "https://example.com/b", "message": "page https://example.com/b read only in part: x"},
        {"stage": "researcher", "message": "page skipped: timeout", "url": "https://example.com/c", "query": "q1"},
        {"stage": "researcher", "message": "page skipped: timeout", "url": "https://example.com/c", "query": "q2"},
    ]}
    _print_result(values, "t")
    printed = capsys.readouterr()
    text = printed.err + printed.out
    assert text.count("example.com/a read only in part") == 1
    assert text.count("example.com/b read only in part") == 1
    assert text.count("page skipped: timeout") == 1


QUESTION_MD = ("Do you mean the **Python** language? It names things in \\_snake\\_case\\_ and uses "
               "\\*args; say which one you want:\n\n1. the language\n2. the snake (see [the page](https://x.example/p))"
               "\x1b]52;c;aGk=\x07")


def test_the_clarifying_question_reads_as_written_at_80_columns(monkeypatch, capsys):
    """The model writes markdown: the terminal showed its escapes (\\_ and \\*) and its
    emphasis marks as typed; now as a reader should see them, wrapped at 80 columns, a link
    with its address in view, a control sequence written out."""
    import typer

    from deep_research.cli import research

    monkeypatch.setattr(research.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(typer, "prompt", lambda *a, **k: "the language")
    assert research._ask_clarification(QUESTION_MD, None) == "the language"
    shown = capsys.readouterr().out
    words = " ".join(shown.split())
    assert "Do you mean the Python language? It names things in _snake_case_ and uses *args;" in words, shown
    assert "\\_" not in shown and "\\*" not in shown and "**" not in shown
    assert "1 the language" in words and "the page (https://x.example/p)" in words
    assert "\x1b" not in shown and "\\x1b]52;c;aGk=" in words
    assert max(len(line.rstrip()) for line in shown.splitlines()) <= 80


def test_a_clarifying_question_the_run_waits_on_is_named_in_plain_text(monkeypatch):
    from deep_research.cli import research

    monkeypatch.setattr(research.sys.stdin, "isatty", lambda: False, raising=False)
    with pytest.raises(research.WaitingForUser) as e:
        research._ask_clarification(QUESTION_MD, None)
    assert e.value.what.startswith("an answer to: Do you mean the Python language? It names things in _snake_case_")
    assert e.value.options == "--answer TEXT"  # not --approve, --reject or --edit: they answer no question
    assert "\n" not in e.value.what and "\x1b" not in e.value.what
