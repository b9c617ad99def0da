#!/usr/bin/env python3
"""Check the steps of docs/deployment.md against the code, and optionally against a server.

Static checks (no network, no Docker; run by the test suite):

* every ``DEEP_RESEARCH_*`` variable the document names exists in the code (a
  ``Configuration`` setting, a server variable of ``setting_policy.SERVER_ENV``, an auth
  variable, ``eval run --server``'s token variable), and every server and auth variable the
  code declares is documented;
* ``deploy.env`` (the block starting ``# deploy.env``) sets credentials, the report-link
  secret, the public https address and a license variable, and no report store (replicas
  share the server's);
* ``compose.yaml`` (the block starting ``# compose.yaml``) parses and runs PostgreSQL, Redis
  and two or more replicas of one image with ``deploy.env``, each pointed at that PostgreSQL
  and that Redis;
* ``langgraph dockerfile`` runs, and the system packages its RUN step installs are exactly
  those the document lists.

``--live URL`` also runs the document's ``curl`` checks (the expected status is the line's
comment) against a running server at URL, and, with a token in DEEP_RESEARCH_SERVER_TOKEN
(or the variable ``--token-env`` names), that the token is admitted and that a report of a
thread that does not exist is a 404. Exit status 0 when everything holds.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "deployment.md"
EXAMPLE_HOST = "https://research.example.com"
LICENSE_VARS = ("LANGGRAPH_CLOUD_LICENSE_KEY", "LANGSMITH_API_KEY")


def blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of each fenced code block, indentation removed."""
    out = []
    for m in re.finditer(r"^([ \t]*)```(\w*)\n(.*?)^\1```", text, re.M | re.S):
        indent = len(m.group(1))
        body = "\n".join(line[indent:] for line in m.group(3).splitlines())
        out.append((m.group(2), body))
    return out


def block(text: str, first_line: str) -> str:
    for _, body in blocks(text):
        lines = body.strip().splitlines()
        if lines and lines[0].strip() == first_line:
            return body
    raise LookupError(f"no code block starting with {first_line!r}")


def known_variables() -> tuple[set[str], set[str]]:
    """(every DEEP_RESEARCH_* variable the code reads, those the document must describe)."""
    from deep_research.env_file import ENV_FILE
    from deep_research.evaluation.remote import DEFAULT_TOKEN_ENV
    from deep_research.research.runtime import setting_policy
    from deep_research.research.runtime.configuration import ENV_ALLOWED_MODELS, Configuration
    from deep_research.server import credentials

    auth = {v for k, v in vars(credentials).items() if k.startswith("ENV_") and v.startswith("DEEP_RESEARCH_")}
    server = set(setting_policy.SERVER_ENV) | {setting_policy.ENV_ALLOW_RUN_SETTINGS}
    settings = {f"DEEP_RESEARCH_{name.upper()}" for name in Configuration.model_fields}
    return settings | auth | server | {ENV_ALLOWED_MODELS, DEFAULT_TOKEN_ENV, ENV_FILE}, auth | server


def env_file(body: str) -> dict[str, str]:
    out = {}
    for line in body.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def check_variables(text: str) -> list[str]:
    known, described = known_variables()
    named = {v for v in re.findall(r"DEEP_RESEARCH_[A-Z0-9_]*[A-Z0-9]\b", text)}
    problems = [f"the document names {v}, which nothing reads" for v in sorted(named - known)]
    problems += [f"{v} is not documented" for v in sorted(described - named)]
    return problems


def check_deploy_env(text: str) -> list[str]:
    env = env_file(block(text, "# deploy.env"))
    problems = []
    if not ({"DEEP_RESEARCH_AUTH_TOKENS", "DEEP_RESEARCH_JWT_SECRET"} & set(env)):
        problems.append("deploy.env sets no credentials (DEEP_RESEARCH_AUTH_TOKENS or DEEP_RESEARCH_JWT_SECRET)")
    if "DEEP_RESEARCH_REPORT_LINK_SECRET" not in env:
        problems.append("deploy.env does not set DEEP_RESEARCH_REPORT_LINK_SECRET (replicas must share it)")
    if not env.get("DEEP_RESEARCH_PUBLIC_URL", "").startswith("https://"):
        problems.append("deploy.env does not set DEEP_RESEARCH_PUBLIC_URL to an https address")
    if "DEEP_RESEARCH_REPORT_STORE" in env:
        problems.append("deploy.env sets DEEP_RESEARCH_REPORT_STORE: replicas share the server's own store")
    if not set(LICENSE_VARS) & set(env):
        problems.append(f"deploy.env sets no license variable ({' or '.join(LICENSE_VARS)})")
    return problems


def check_compose(text: str) -> list[str]:
    import yaml

    compose = yaml.safe_load(block(text, "# compose.yaml"))
    services = compose.get("services") or {}
    problems = []
    db = [n for n, s in services.items() if str(s.get("image", "")).startswith("postgres")]
    cache = [n for n, s in services.items() if str(s.get("image", "")).startswith("redis")]
    apps = {n: s for n, s in services.items() if n not in db + cache}
    if len(db) != 1 or len(cache) != 1:
        return [f"compose.yaml must run one PostgreSQL and one Redis (found {db} and {cache})"]
    images = {str(s.get("image")) for s in apps.values()}
    replicas = sum(int((s.get("deploy") or {}).get("replicas", 1)) for s in apps.values())
    if len(images) != 1 or replicas < 2:
        problems.append(f"compose.yaml must run two or more replicas of one image (images {sorted(images)}, "
                        f"{replicas} replica(s))")
    for name, service in apps.items():
        environment = service.get("environment") or {}
        if service.get("env_file") != "deploy.env":
            problems.append(f"compose.yaml: {name} does not read deploy.env")
        if f"@{db[0]}:" not in str(environment.get("DATABASE_URI", "")):
            problems.append(f"compose.yaml: {name}'s DATABASE_URI is not the {db[0]} service")
        if not str(environment.get("REDIS_URI", "")).startswith(f"redis://{cache[0]}:"):
            problems.append(f"compose.yaml: {name}'s REDIS_URI is not the {cache[0]} service")
        if set(service.get("depends_on") or ()) != {db[0], cache[0]}:
            problems.append(f"compose.yaml: {name} does not wait for {db[0]} and {cache[0]}")
    return problems


def check_image(text: str) -> list[str]:
    section = text[text.index("**The image.**"):text.index("Run the image with")]
    documented = set(re.findall(r"`((?:lib|fonts-)[a-z0-9.+-]+|fontconfig)`", section))
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).parent / "langgraph"
        subprocess.run([str(exe if exe.exists() else "langgraph"), "dockerfile", "-c", str(ROOT / "langgraph.json"),
                        f"{tmp}/Dockerfile"], check=True, capture_output=True,
                       env={**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1"})
        dockerfile = Path(tmp, "Dockerfile").read_text()
    installed: set[str] = set()
    for line in dockerfile.splitlines():
        if line.startswith("RUN ") and "apt-get install" in line:
            words = shlex.split(line[4:].split("apt-get install", 1)[1].split("&&", 1)[0])
            installed |= {w for w in words if not w.startswith("-")}
    problems = [f"the document lists {p}, which the image does not install" for p in sorted(documented - installed)]
    problems += [f"the image installs {p}, which the document does not list" for p in sorted(installed - documented)]
    return problems


def curl_checks(text: str) -> list[tuple[str, str, int]]:
    """(method, path, expected status) of each ``curl … URL  # STATUS`` line."""
    out = []
    for _, body in blocks(text):
        for line in body.splitlines():
            m = re.match(r"curl (.*?)\s+#\s*(\d{3})\s*$", line.strip())
            if not m:
                continue
            words = shlex.split(m.group(1))
            url = next(w for w in words if w.startswith(EXAMPLE_HOST))
            method = words[words.index("-X") + 1] if "-X" in words else "GET"
            out.append((method, url[len(EXAMPLE_HOST):], int(m.group(2))))
    return out


def check_live(text: str, base: str, token: str | None) -> list[str]:
    import httpx

    problems = []
    checks = curl_checks(text)
    if not checks:
        problems.append("the document has no curl check")
    for method, path, status in checks:
        got = httpx.request(method, base + path, timeout=30).status_code
        if got != status:
            problems.append(f"{method} {path} answered {got}, the document says {status}")
    if token:
        auth = {"Authorization": f"Bearer {token}"}
        got = httpx.post(base + "/threads/search", json={"limit": 1}, headers=auth, timeout=30).status_code
        if got != 200:
            problems.append(f"POST /threads/search with the token answered {got}, not 200")
        got = httpx.get(base + "/reports/00000000-0000-0000-0000-000000000000", headers=auth, timeout=30).status_code
        if got != 404:
            problems.append(f"GET /reports/<a thread that does not exist> with the token answered {got}, not 404")
    return problems


def run_checks(live: str | None = None, token: str | None = None) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    problems = check_variables(text) + check_deploy_env(text) + check_compose(text) + check_image(text)
    if live:
        problems += check_live(text, live.rstrip("/"), token)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", metavar="URL", help="also run the curl checks against the server at URL")
    parser.add_argument("--token-env", default="DEEP_RESEARCH_SERVER_TOKEN",
                        help="variable holding a token for --live (optional)")
    args = parser.parse_args()
    problems = run_checks(args.live, os.environ.get(args.token_env) or None)
    for p in problems:
        print(f"[check_deployment_doc] {p}")
    print(f"[check_deployment_doc] {'FAILED' if problems else 'OK'}: {DOC.relative_to(ROOT)}"
          + (f" ({len(problems)} problem(s))" if problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
