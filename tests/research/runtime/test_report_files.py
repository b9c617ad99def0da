"""Report files kept for the server (research/runtime/report_files.py): what is stored, who
can read it back, limits, and signed links."""

import asyncio
import base64
import json
from urllib.parse import urlsplit

import pytest
from langgraph.store.memory import InMemoryStore

from deep_research.errors import UserError
from deep_research.research.runtime.chat import report_message
from deep_research.research.runtime.report_files import (
    CHAT_FILES,
    FILES,
    LATEST,
    ReportFiles,
    link_days,
    link_key,
    links_markdown,
    max_bytes,
    public_url,
    report_links,
    signed_link_user,
    store_url,
)

THREAD = "01a21e40-11bf-71d1-b4a1-5bece5c55f88"
REPORT = "1f1ea8fb-c3ab-650c-800b-0b01f30a6132"
KEY = b"k" * 32


def published(tmp_path, pdf_bytes: bytes = b"%PDF-1.7 fake") -> dict:
    """A run folder as the publish step leaves it, and its outputs (kind -> path)."""
    files = {"markdown": "report.md", "linked": "report.linked.md", "html": "report.html", "pdf": "report.pdf",
             "citations": "citations.json", "audit": "audit.json", "notes": "notes.md", "run": "run.json",
             "sources": "sources.json", "raw_notes": "raw_notes.md"}
    outputs = {"dir": str(tmp_path)}
    for kind, name in files.items():
        path = tmp_path / name
        path.write_bytes(pdf_bytes if kind == "pdf" else f"{name} of the report\n".encode())
        outputs[kind] = str(path)
    return outputs


def run(coro):
    return asyncio.run(coro)


def test_files_round_trip_for_their_owner_only(tmp_path):
    store = InMemoryStore()
    outputs = published(tmp_path)
    alice = ReportFiles(store, "alice@example.com")
    manifest = run(alice.save(THREAD, REPORT, outputs))
    assert set(manifest["files"]) == {"report.md", "report.linked.md", "report.html", "report.pdf",
                                      "citations.json", "audit.json", "notes.md", "run.json", "sources.json"}  # no raw notes
    assert run(alice.read(THREAD, REPORT, "report.pdf")) == b"%PDF-1.7 fake"
    assert run(alice.read(THREAD, LATEST, "sources.json")) == b"sources.json of the report\n"
    assert run(alice.read(THREAD, LATEST, "report.md")) == b"report.md of the report\n"
    # the owner's identity is encoded as the auth handler encodes it (store labels have no periods)
    assert ReportFiles(store, "alice@example%2Ecom").owner == alice.owner == "alice@example%2Ecom"
    bob = ReportFiles(store, "bob")
    assert run(bob.read(THREAD, REPORT, "report.pdf")) is None
    assert run(bob.reports(THREAD)) == [] and run(bob.manifest(THREAD, LATEST)) is None


def test_latest_is_the_newest_report_of_the_thread(tmp_path):
    store = InMemoryStore()
    alice = ReportFiles(store, "alice")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    run(alice.save(THREAD, REPORT, published(tmp_path / "a")))
    later = run(alice.save(THREAD, "1f1ea8fb-ffff-650c-800b-0b01f30a6132", published(tmp_path / "b", b"%PDF new")))
    assert [m["report"] for m in run(alice.reports(THREAD))] == [later["report"], REPORT]
    assert run(alice.read(THREAD, LATEST, "report.pdf")) == b"%PDF new"
    assert run(alice.read(THREAD, REPORT, "report.pdf")) == b"%PDF-1.7 fake"


@pytest.mark.parametrize("thread, report, name", [
    ("../" + THREAD, REPORT, "report.pdf"), (THREAD, "..", "report.pdf"), (THREAD, REPORT, "../report.pdf"),
    (THREAD, REPORT, "raw_notes.md"), (THREAD, REPORT, "report.exe"), ("", REPORT, "report.pdf"),
    (THREAD + ".x", REPORT, "report.pdf"), ("/etc", "passwd", "report.md"), ("a" * 200, REPORT, "report.md"),
    (THREAD, REPORT, "REPORT.PDF"), (THREAD, REPORT + "%00", "report.pdf"),
])
def test_ids_and_names_outside_the_rules_find_nothing(tmp_path, thread, report, name):
    store = InMemoryStore()
    alice = ReportFiles(store, "alice")
    run(alice.save(THREAD, REPORT, published(tmp_path)))
    assert run(alice.read(thread, report, name)) is None


def test_a_file_above_the_limit_is_left_out_and_said(tmp_path):
    alice = ReportFiles(InMemoryStore(), "alice")
    manifest = run(alice.save(THREAD, REPORT, published(tmp_path, b"%PDF" + b"x" * 5000), limit=2000))
    assert "report.pdf" not in manifest["files"] and "2,000 bytes" in manifest["skipped"]["report.pdf"]
    assert "report.md" in manifest["files"]
    assert run(alice.read(THREAD, REPORT, "report.pdf")) is None


def test_a_damaged_file_is_not_served(tmp_path):
    store = InMemoryStore()
    alice = ReportFiles(store, "alice")
    run(alice.save(THREAD, REPORT, published(tmp_path)))
    ns = ("deep_research", "alice", "report_files", THREAD, REPORT)
    item = store.get(ns, "report.pdf")
    store.put(ns, "report.pdf", {**item.value, "data": base64.b64encode(b"%PDF evil").decode()})
    assert run(alice.read(THREAD, REPORT, "report.pdf")) is None


def test_unusable_ids_are_refused_when_saving(tmp_path):
    with pytest.raises(ValueError):
        run(ReportFiles(InMemoryStore(), "alice").save("a.b", REPORT, published(tmp_path)))


def test_server_settings_are_checked():
    assert store_url({}) is None
    assert store_url({"DEEP_RESEARCH_REPORT_STORE": "postgresql://u@h/db"}) == "postgresql://u@h/db"
    with pytest.raises(UserError, match="postgresql://"):
        store_url({"DEEP_RESEARCH_REPORT_STORE": "/var/reports"})
    with pytest.raises(UserError, match="DATABASE_URI"):
        store_url({"DEEP_RESEARCH_REPORT_STORE": "postgresql://u@h/db", "DATABASE_URI": "postgresql://u@h/db"})
    assert max_bytes({}) == 25_000_000 and max_bytes({"DEEP_RESEARCH_REPORT_MAX_BYTES": "5_000_000"}) == 5_000_000
    for bad in ("-1", "ten", "10"):
        with pytest.raises(UserError, match="DEEP_RESEARCH_REPORT_MAX_BYTES"):
            max_bytes({"DEEP_RESEARCH_REPORT_MAX_BYTES": bad})
    assert public_url({}) == ""
    assert public_url({"LANGGRAPH_API_URL": "http://127.0.0.1:2024"}) == "http://127.0.0.1:2024"
    assert public_url({"LANGGRAPH_API_URL": "http://127.0.0.1:2024",
                       "DEEP_RESEARCH_PUBLIC_URL": "https://research.example.com/"}) == "https://research.example.com"
    with pytest.raises(UserError, match="DEEP_RESEARCH_PUBLIC_URL"):
        public_url({"DEEP_RESEARCH_PUBLIC_URL": "javascript:alert(1)"})
    with pytest.raises(UserError, match="32 bytes"):
        link_key({"DEEP_RESEARCH_REPORT_LINK_SECRET": "short"})
    assert link_key({}) is None and link_days({}) == 7
    with pytest.raises(UserError, match="DEEP_RESEARCH_REPORT_LINK_DAYS"):
        link_days({"DEEP_RESEARCH_REPORT_LINK_DAYS": "0"})


def _signed(name: str = "report.pdf", **kw) -> tuple[str, str]:
    manifest = {"thread": THREAD, "report": REPORT, "files": {n: {} for n in FILES}}
    url = report_links(manifest, "https://r.example", identity="alice", key=KEY, **kw)[name]
    parts = urlsplit(url)
    return parts.path, parts.query


def test_a_signed_link_opens_its_one_file_until_it_expires():
    path, query = _signed()
    assert signed_link_user(KEY, path, query) == "alice"
    assert signed_link_user(None, path, query) is None  # no key on this server
    assert signed_link_user(b"x" * 32, path, query) is None  # another server's key
    assert signed_link_user(KEY, path.replace("report.pdf", "report.html"), query) is None  # another file
    assert signed_link_user(KEY, path.replace(REPORT, "latest"), query) is None
    assert signed_link_user(KEY, path, query.replace("u=alice", "u=bob")) is None  # someone else's files
    assert signed_link_user(KEY, path, query + "&u=bob") is None  # ambiguous
    expires = int(dict(p.split("=") for p in query.split("&"))["exp"])
    assert signed_link_user(KEY, path, query, now=expires + 1) is None
    assert signed_link_user(KEY, path, query.replace(f"exp={expires}", f"exp={expires + 1}")) is None
    path2, query2 = _signed(days=0.5)
    assert signed_link_user(KEY, path2, query2) == "alice"
    assert signed_link_user(KEY, "/reports/" + THREAD, query) is None  # not a file


def test_the_chat_links_the_files_a_reader_opens():
    manifest = {"thread": THREAD, "report": REPORT, "files": {n: {} for n in FILES}}
    links = report_links(manifest, "http://127.0.0.1:2024")
    assert links["report.pdf"] == f"http://127.0.0.1:2024/reports/{THREAD}/{REPORT}/report.pdf"
    line = links_markdown(links)
    assert line.startswith("Files: [PDF](http://127.0.0.1:2024/reports/") and line.count("](http") == len(CHAT_FILES)
    assert links_markdown({"report.pdf": "https://r.example/a b(c)"}) == "Files: [PDF](https://r.example/a%20b%28c%29)"
    assert links_markdown(links, "de").startswith("Dateien: ")
    assert links_markdown({}) == ""
    message = report_message("# Report\n\nBody.", {"verified": 1}, {"dir": "/srv/out/x", "pdf": "/srv/out/x/report.pdf"},
                             links=links)
    assert links["report.pdf"] in message.content and "/srv/out/x" not in message.content
    plain = report_message("# Report\n\nBody.", {}, {"dir": "/srv/out/x", "pdf": "/srv/out/x/report.pdf"})
    assert "/srv/out/x" in plain.content and "/reports/" not in plain.content


def test_stored_values_are_json(tmp_path):
    """What goes to the store survives JSON (the server's API and PostgreSQL keep JSON)."""
    store = InMemoryStore()
    run(ReportFiles(store, "alice").save(THREAD, REPORT, published(tmp_path)))
    for item in store.search(("deep_research", "alice"), limit=100):
        assert json.loads(json.dumps(item.value)) == item.value


def test_the_publish_step_stores_files_for_server_users_only(tmp_path, monkeypatch):
    """On a server (a user the server admitted runs it) the files are stored and linked; a
    file above DEEP_RESEARCH_REPORT_MAX_BYTES is not offered, and the run says so; outside a
    server (the CLI) nothing is stored; a store that fails costs the links, not the run."""
    from types import SimpleNamespace

    from deep_research.research.report.publish_node import _serve

    monkeypatch.setenv("LANGGRAPH_API_URL", "http://127.0.0.1:2024")
    monkeypatch.setenv("DEEP_RESEARCH_REPORT_MAX_BYTES", "2000")
    monkeypatch.delenv("DEEP_RESEARCH_REPORT_STORE", raising=False)
    monkeypatch.delenv("DEEP_RESEARCH_REPORT_LINK_SECRET", raising=False)
    store = InMemoryStore()
    outputs = published(tmp_path, b"%PDF" + b"x" * 5000)

    def ctx(user, store=store):
        conf = {"thread_id": THREAD, "checkpoint_map": {"": REPORT}, **({"langgraph_auth_user_id": user} if user else {})}
        return SimpleNamespace(config={"configurable": conf}, thread_id=THREAD, checkpoint=REPORT, store=store)

    degradations: list = []
    served, links = run(_serve(ctx("alice"), outputs, degradations))
    assert served["report"] == REPORT and "report.pdf" not in links
    assert links["report.html"] == f"http://127.0.0.1:2024/reports/{THREAD}/{REPORT}/report.html"
    assert [d["message"] for d in degradations] == [
        "report.pdf is not offered for download: larger than the 2,000 bytes the server keeps"]
    assert run(ReportFiles(store, "alice").read(THREAD, REPORT, "report.html")) == b"report.html of the report\n"
    assert run(_serve(ctx(None), outputs, [])) == (None, {})  # the CLI: the folder only

    class Broken(InMemoryStore):
        async def aput(self, *a, **kw):
            raise ConnectionError("store down")

    degradations = []
    assert run(_serve(ctx("alice", Broken()), outputs, degradations)) == (None, {})
    assert "report files not stored for download" in degradations[0]["message"]
