"""The deployable image and the deployment document: what `langgraph dockerfile` makes of
langgraph.json, and docs/deployment.md's steps checked by scripts/check_deployment_doc.py
(the document against the code; live, its curl checks against a real `langgraph dev`).
The image's RUN steps themselves run in a Debian chroot with scripts/check_dockerfile.py
(root, debootstrap and the registries: not part of this suite)."""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


doc_check = _script("check_deployment_doc")
image_check = _script("check_dockerfile")
DOC = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def dockerfile(tmp_path_factory) -> str:
    return image_check.generate_dockerfile(tmp_path_factory.mktemp("image"))


def test_the_image_installs_what_pdfs_and_every_script_need(dockerfile):
    from deep_research.publish import fonts

    config = json.loads((ROOT / "langgraph.json").read_text())
    base, runs = image_check.system_steps(dockerfile, config)
    assert base == "langchain/langgraph-api:3.11-bookworm" and image_check.suite_of(base) == "bookworm"
    [run] = runs
    packages = set(run.split("--no-install-recommends", 1)[1].split("&&", 1)[0].split())
    assert {"libpango-1.0-0", "libpangoft2-1.0-0", "libharfbuzz-subset0", "fontconfig"} <= packages
    # a font for every script the publisher knows (publish/fonts.py names the Debian package)
    assert {pkg for *_, pkg in fonts._SCRIPTS} <= packages
    # and the fonts CI renders the tests' PDFs with
    ci = (ROOT / ".ci" / "run").read_text()
    assert {p for p in re.findall(r"\bfonts-[a-z0-9-]+", ci)} <= packages
    # the server the image runs: the graph, the auth handler and the report route
    assert '"app": "deep_research.server.reports:app"' in dockerfile
    assert '"enable_custom_route_auth": true' in dockerfile
    assert "deep_research.server.auth:auth" in dockerfile


def test_the_image_check_reads_dockerfiles_as_docker_does():
    text = "FROM x:3.11-bookworm\n\n# c\nRUN a \\\n  b && \\\n  c\nENV K=v\n"
    assert image_check.instructions(text) == ["FROM x:3.11-bookworm", "RUN a b && c", "ENV K=v"]
    with pytest.raises(SystemExit):
        image_check.suite_of("langchain/langgraph-api:3.11")  # "latest": not a release this can check
    with pytest.raises(SystemExit):
        image_check.system_steps(text, {"dockerfile_lines": ["RUN not there"]})
    result = {"missing_glyphs": [], "fonts": ["Liberation-Serif", "Noto-Sans-CJK-JP"],
              "pdf_has": {s: True for s in image_check.SAMPLES}, "docx_has": {s: True for s in image_check.SAMPLES}}
    assert image_check.verdict(result) == []
    assert image_check.verdict({**result, "fonts": ["Liberation-Serif"]})  # no CJK font
    assert image_check.verdict({**result, "missing_glyphs": ["CJK: 3 characters"]})
    assert image_check.verdict({**result, "pdf_has": {**result["pdf_has"], "Korean": False}})


def test_the_deployment_document_holds():
    assert doc_check.run_checks() == []


def test_the_document_checks_catch_mistakes():
    def swap(old: str, new: str) -> str:
        assert old in DOC, old
        return DOC.replace(old, new)

    assert doc_check.check_variables(swap("DEEP_RESEARCH_PUBLIC_URL", "DEEP_RESEARCH_PUBLIC_ADDRESS"))
    assert doc_check.check_variables(DOC.replace("DEEP_RESEARCH_REPORT_LINK_DAYS", "the link lifetime"))
    assert doc_check.check_deploy_env(swap("DEEP_RESEARCH_REPORT_LINK_SECRET=...", "X=..."))
    assert doc_check.check_deploy_env(swap("DEEP_RESEARCH_PUBLIC_URL=https://", "DEEP_RESEARCH_PUBLIC_URL=http://"))
    assert doc_check.check_compose(swap("replicas: 3", "replicas: 1"))
    assert doc_check.check_compose(swap("REDIS_URI: redis://redis:6379/0", "REDIS_URI: redis://localhost:6379/0"))
    assert doc_check.check_compose(swap("env_file: deploy.env", "env_file: other.env"))
    assert doc_check.check_image(swap("`fonts-noto-cjk`", "`fonts-noto-cjk-extra`"))
    assert doc_check.curl_checks(DOC) == [("POST", "/threads/search", 401), ("GET", "/reports/any-thread", 401)]


@pytest.mark.server
def test_the_documents_curl_checks_against_a_server(tmp_path):
    from tests.support.devserver import langgraph_dev
    from tests.support.scenario import write_corpus

    token = "deploy-check-token-" + "t" * 20
    env = {"DR_TEST_CORPUS": str(write_corpus(tmp_path / "corpus")), "DEEP_RESEARCH_AUTH_TOKENS": f"{token}:ops"}
    with langgraph_dev(tmp_path / "server", "tests.support.dev_graph:graph", env=env,
                       auth="deep_research.server.auth:auth") as (base, _):
        assert doc_check.check_live(DOC, base, token) == []
        assert doc_check.check_live(DOC, base, "a-token-the-server-does-not-know")  # it can fail
        r = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_deployment_doc.py"), "--live", base],
                           capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "DEEP_RESEARCH_SERVER_TOKEN": token,
                                                                "PYTHONPATH": str(ROOT / "src")}, timeout=120)
        assert r.returncode == 0 and "OK: docs/deployment.md" in r.stdout, r.stdout + r.stderr
