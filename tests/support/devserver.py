"""Start a real `langgraph dev` server for a test (offline, free port, no reload)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def langgraph_dev(workdir: Path, graph: str | None, *, env: dict | None = None, auth: str | None = None,
                  auth_options: dict | None = None, extra_args: list[str] | None = None,
                  timeout_s: float = 120, env_file: str | None = None):
    """Yields the server's base URL and process; the log is in workdir/server.log.
    ``graph``: the graph served as ``deep_research`` (None: the project's graphs, as
    langgraph.json names them); ``env``: variables for the server (None removes one);
    ``auth_options`` override the project's auth settings (e.g. ``disable_studio_auth``);
    ``extra_args`` go to `langgraph dev` (e.g. ``["--n-jobs-per-worker", "20"]``);
    ``env_file`` is langgraph.json's "env" (a .env file, relative to workdir)."""
    workdir.mkdir(parents=True, exist_ok=True)
    project = json.loads((ROOT / "langgraph.json").read_text())
    # the project's own server settings (CORS; Studio requests through our auth) with the
    # test's graph and auth handler
    graphs = project["graphs"] if graph is None else {"deep_research": graph}
    config = {"dependencies": [str(ROOT)], "graphs": graphs, "python_version": "3.11",
              "http": project.get("http", {})}
    if env_file:
        config["env"] = env_file
    if auth:
        config["auth"] = {**project.get("auth", {}), **(auth_options or {}), "path": auth}
    cfg_path = workdir / "langgraph.json"
    cfg_path.write_text(json.dumps(config))
    port = free_port()
    exe = Path(sys.executable).parent / "langgraph"
    if not exe.exists():
        exe = Path(shutil.which("langgraph") or "langgraph")
    full_env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "LANGSMITH_TRACING": "false",
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        **(env or {}),
    }
    full_env = {k: v for k, v in full_env.items() if v is not None}
    log = open(workdir / "server.log", "w")
    proc = subprocess.Popen(
        [str(exe), "dev", "--config", str(cfg_path), "--port", str(port), "--host", "127.0.0.1",
         "--no-browser", "--no-reload", *(extra_args or [])],
        cwd=workdir, env=full_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError("langgraph dev exited:\n" + (workdir / "server.log").read_text()[-4000:])
            try:
                with urllib.request.urlopen(base + "/ok", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("langgraph dev did not start:\n" + (workdir / "server.log").read_text()[-4000:])
            time.sleep(0.5)
        yield base, proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
        log.close()
