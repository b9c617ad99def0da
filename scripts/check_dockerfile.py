#!/usr/bin/env python3
"""Check the image ``langgraph.json`` builds, on a plain Debian machine, without Docker.

There is no Docker engine here, so the image is not built. Instead:

1. ``langgraph dockerfile`` writes the Dockerfile ``langgraph build`` would use; each of
   ``langgraph.json``'s ``dockerfile_lines`` must be in it, and its base image must name a
   Debian release (``image_distro``), whose suite is taken from the tag.
2. A minimal Debian of that release is made with debootstrap (``--variant=minbase``: less
   than the base image has, so whatever the checks below need must come from the RUN steps).
3. Standing in for the base image: Debian's Python (the release's own, which must be the
   ``python_version`` of langgraph.json) and this project installed into a virtual
   environment as the image installs it (editable, from ``/deps/server``), with the locked
   versions of its dependencies.
4. Control: rendering the PDF fails there (no Pango), so the checks below measure the RUN
   steps, nothing else.
5. The Dockerfile's RUN steps from ``dockerfile_lines`` run in the chroot, as written.
6. Inside it, a report with Latin, Greek, Cyrillic, Chinese, Japanese and Korean text is
   published (HTML, PDF, Word) by the project's own publisher: no character may lack a
   font, the PDF's text must hold every sample and embed the expected fonts, and the Word
   file must open and hold every sample too.

Usage (as root; needs debootstrap and the Debian and PyPI registries)::

    uv run python scripts/check_dockerfile.py [--work DIR] [--keep] [--mirror URL]

``--work DIR`` keeps the chroot and downloads there, so a second run is faster (the control
is then skipped when Pango is already installed). Exit status 0 when every check passes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGE_ROOT = "/deps/server"  # where the image puts this project (langgraph dockerfile: ADD . /deps/server)
VENV = "/opt/venv"
HOST_CA = "/etc/ssl/host-ca.pem"  # the host's CA bundle, when it names one (SSL_CERT_FILE)
SAMPLES = {
    "Latin": "Heat pumps keep working in cold climates.",
    "Greek": "Οι αντλίες θερμότητας λειτουργούν και στο κρύο.",
    "Cyrillic": "Тепловые насосы работают и в холодном климате.",
    "Chinese": "热泵在寒冷气候中也能工作。",
    "Japanese": "ヒートポンプは寒冷地でも動作します。",
    "Korean": "히트 펌프는 추운 기후에서도 작동합니다.",
}
# font families the PDF must embed (names without hyphens): the report's serif and sans for
# Latin, Greek and Cyrillic (Liberation has all three; DejaVu too), Noto CJK for the rest
EXPECTED_FONTS = {"Latin, Greek and Cyrillic": ("LiberationSerif", "LiberationSans", "DejaVu"),
                  "Chinese, Japanese and Korean": ("NotoSansCJK", "NotoSerifCJK")}


def say(text: str) -> None:
    print(f"[check_dockerfile] {text}", flush=True)


def fail(text: str) -> None:
    say(f"FAILED: {text}")
    raise SystemExit(1)


# --- 1. the Dockerfile ----------------------------------------------------------------------
def generate_dockerfile(folder: Path) -> str:
    exe = Path(sys.executable).parent / "langgraph"
    target = folder / "Dockerfile"
    subprocess.run([str(exe if exe.exists() else "langgraph"), "dockerfile", "-c", str(ROOT / "langgraph.json"),
                    str(target)], check=True, cwd=ROOT, capture_output=True, text=True,
                   env={**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1"})
    return target.read_text()


def instructions(dockerfile: str) -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    out, current = [], ""
    for line in dockerfile.splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        continued = line.rstrip().endswith("\\")
        current += (line.rstrip().removesuffix("\\").strip() + " ") if continued else line.strip()
        if not continued:
            out.append(current.strip())
            current = ""
    return out


def system_steps(dockerfile: str, config: dict) -> tuple[str, list[str]]:
    """(base image, the shell commands of the RUN steps from dockerfile_lines)."""
    steps = instructions(dockerfile)
    base = next((s.split(None, 1)[1] for s in steps if s.upper().startswith("FROM ")), "")
    lines = config.get("dockerfile_lines") or []
    if not lines:
        fail("langgraph.json has no dockerfile_lines: the image gets no system packages for PDF rendering")
    wanted = [" ".join(instructions(line)) for line in lines]
    missing = [w for w in wanted if w not in steps]
    if missing:
        fail(f"the generated Dockerfile lacks these dockerfile_lines: {missing}")
    runs = [w.split(None, 1)[1] for w in wanted if w.upper().startswith("RUN ")]
    if not runs:
        fail("dockerfile_lines hold no RUN step")
    return base, runs


def suite_of(image: str) -> str:
    tag = image.rsplit(":", 1)[-1]
    for suite in ("bookworm", "trixie", "bullseye"):
        if tag.endswith("-" + suite):
            return suite
    fail(f"the base image {image} does not name a Debian release; set \"image_distro\" in langgraph.json "
         "(e.g. \"bookworm\") so the image is the one checked here")
    raise AssertionError  # (fail exits)


# --- 2. the chroot ---------------------------------------------------------------------------
def make_chroot(target: Path, suite: str, mirror: str) -> None:
    if (target / "etc" / "debian_version").exists():
        say(f"reusing the Debian {suite} chroot in {target}")
        return
    if not shutil.which("debootstrap"):
        fail("debootstrap is not installed (apt-get install debootstrap)")
    say(f"debootstrap --variant=minbase {suite} {target} {mirror}")
    subprocess.run(["debootstrap", "--variant=minbase", suite, str(target), mirror], check=True,
                   stdout=subprocess.DEVNULL)


@contextmanager
def mounted(chroot: Path, uv_cache: Path):
    """/proc, this project (read-only, where the image has it) and uv's cache, in the chroot."""
    mounts: list[Path] = []

    def bind(source: Path, where: str, read_only: bool = False) -> None:
        point = chroot / where.lstrip("/")
        point.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "--bind", str(source), str(point)], check=True)
        mounts.append(point)
        if read_only:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(point)], check=True)

    try:
        (chroot / "proc").mkdir(exist_ok=True)
        subprocess.run(["mount", "-t", "proc", "proc", str(chroot / "proc")], check=True)
        mounts.append(chroot / "proc")
        bind(ROOT, IMAGE_ROOT, read_only=True)
        bind(uv_cache, "/uv-cache")
        shutil.copy("/etc/resolv.conf", chroot / "etc" / "resolv.conf")
        host_ca = os.environ.get("SSL_CERT_FILE")
        if host_ca and Path(host_ca).is_file():  # a network that intercepts TLS: trust what the host trusts
            (chroot / HOST_CA.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(host_ca, chroot / HOST_CA.lstrip("/"))
        yield
    finally:
        for point in reversed(mounts):
            if subprocess.run(["umount", str(point)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", str(point)], check=False)


def mounts_under(folder: Path) -> list[str]:
    prefix = str(folder.resolve()) + "/"
    with open("/proc/mounts", encoding="utf-8") as f:
        return [line.split()[1] for line in f if (line.split()[1] + "/").startswith(prefix)]


def remove(folder: Path) -> None:
    """Delete the work folder, never through a mount that is still there (the project and
    uv's cache are bind-mounted into the chroot)."""
    left = mounts_under(folder)
    if left:
        say(f"left {folder} in place: still mounted there: {', '.join(left)}")
        return
    shutil.rmtree(folder, ignore_errors=True)


def in_chroot(chroot: Path, command: str, *, check: bool = True, quiet: bool = False) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
           "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive", "UV_CACHE_DIR": "/uv-cache",
           "UV_PYTHON_DOWNLOADS": "never", "UV_LINK_MODE": "copy"}
    if (chroot / HOST_CA.lstrip("/")).is_file():
        env["SSL_CERT_FILE"] = HOST_CA
    r = subprocess.run(["chroot", str(chroot), "/bin/sh", "-c", command], env=env, capture_output=True, text=True)
    if not quiet:
        for line in (r.stdout + r.stderr).strip().splitlines()[-8:]:
            print("    " + line)
    if check and r.returncode != 0:
        fail(f"in the chroot: {command[:200]} exited with {r.returncode}:\n{(r.stdout + r.stderr)[-3000:]}")
    return r


# --- 3. the base image's part ---------------------------------------------------------------
def install_python_and_project(chroot: Path, python_version: str, work: Path) -> None:
    in_chroot(chroot, "apt-get update -q && apt-get install -y -q --no-install-recommends python3 python3-venv "
                      "ca-certificates", quiet=True)
    version = in_chroot(chroot, "python3 -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])'",
                        quiet=True).stdout.strip()
    if version != python_version:
        fail(f"the chroot's Python is {version}, langgraph.json's python_version is {python_version}")
    say(f"Python {version} in the chroot, as langgraph.json's python_version")
    uv = shutil.which("uv")
    if not uv:
        fail("uv is not installed")
    shutil.copy(uv, chroot / "usr" / "local" / "bin" / "uv")
    requirements = work / "requirements.txt"
    subprocess.run(["uv", "export", "--frozen", "--no-dev", "--all-extras", "--no-emit-project", "--no-hashes",
                    "-o", str(requirements)], check=True, cwd=ROOT, capture_output=True)
    shutil.copy(requirements, chroot / "requirements.txt")
    in_chroot(chroot, f"uv venv -q --clear --python /usr/bin/python3 {VENV} && uv pip install -q --python {VENV}/bin/python "
                      f"-r /requirements.txt -e {IMAGE_ROOT}", quiet=True)
    say(f"the project installed in the chroot ({VENV}, editable from {IMAGE_ROOT}, locked versions)")


# --- 6. the report, rendered inside the chroot ------------------------------------------------
def render(out: Path) -> dict:
    """Publish a report with every sample script to ``out`` (HTML, PDF, Word) and read it back."""
    from docx import Document as WordDocument
    from pypdf import PdfReader

    from deep_research.publish import publish_report

    body = "\n\n".join(f"## {script}\n\n{text}" for script, text in SAMPLES.items())
    result = publish_report(f"# Scripts in the PDF\n\n{body}\n", [], out, pdf=True, docx=True)
    reader = PdfReader(str(result.files["pdf"]))
    text = "".join(page.extract_text() or "" for page in reader.pages)
    fonts = set()
    for page in reader.pages:
        for font in (page.get("/Resources", {}).get("/Font") or {}).values():
            fonts.add(str(font.get_object().get("/BaseFont", "")).split("+", 1)[-1].lstrip("/"))
    word = "\n".join(p.text for p in WordDocument(str(result.files["docx"])).paragraphs)
    squash = lambda s: re.sub(r"\s+", "", s)  # noqa: E731 - PDF text extraction may break lines
    return {"missing_glyphs": [f"{m.script}: {m.message}" for m in result.missing_glyphs],
            "pdf_bytes": result.files["pdf"].stat().st_size, "fonts": sorted(fonts),
            "pdf_has": {s: squash(t) in squash(text) for s, t in SAMPLES.items()},
            "docx_has": {s: t in word for s, t in SAMPLES.items()}}


def render_in_chroot(chroot: Path, out: str) -> tuple[subprocess.CompletedProcess, dict | None]:
    r = in_chroot(chroot, f"{VENV}/bin/python {IMAGE_ROOT}/scripts/check_dockerfile.py --render {out}",
                  check=False, quiet=True)
    match = re.search(r"^RESULT (\{.*\})$", r.stdout, re.M)
    return r, json.loads(match.group(1)) if match else None


def verdict(result: dict) -> list[str]:
    problems = [f"no font for {m}" for m in result["missing_glyphs"]]
    problems += [f"the PDF's text lacks the {s} sample" for s, ok in result["pdf_has"].items() if not ok]
    problems += [f"the Word file lacks the {s} sample" for s, ok in result["docx_has"].items() if not ok]
    for script, families in EXPECTED_FONTS.items():
        if not any(f.replace("-", "").startswith(families) for f in result["fonts"]):
            problems.append(f"no {'/'.join(families)} font embedded for {script} (fonts: {result['fonts']})")
    return problems


# --- all of it -------------------------------------------------------------------------------
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="folder for the chroot (kept; reused by the next run)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary chroot")
    parser.add_argument("--mirror", default="http://deb.debian.org/debian")
    parser.add_argument("--render", metavar="DIR", help=argparse.SUPPRESS)  # inside the chroot
    args = parser.parse_args()
    if args.render:
        print("RESULT " + json.dumps(render(Path(args.render))), flush=True)
        return 0
    if os.geteuid() != 0:
        fail("run as root (debootstrap, chroot and mount need it)")
    config = json.loads((ROOT / "langgraph.json").read_text())
    with ExitStack() as stack:
        work = args.work or Path(tempfile.mkdtemp(prefix="check-dockerfile."))
        if args.work is None and not args.keep:
            stack.callback(remove, work)
        work.mkdir(parents=True, exist_ok=True)
        dockerfile = generate_dockerfile(work)
        base, runs = system_steps(dockerfile, config)
        suite = suite_of(base)
        say(f"langgraph dockerfile: FROM {base}; {len(runs)} RUN step(s) from dockerfile_lines")
        chroot = work / f"debian-{suite}"
        make_chroot(chroot, suite, args.mirror)
        uv_cache = Path(subprocess.run(["uv", "cache", "dir"], capture_output=True, text=True,
                                       check=True).stdout.strip())
        stack.enter_context(mounted(chroot, uv_cache))
        install_python_and_project(chroot, str(config.get("python_version", "3.11")), work)
        fresh = in_chroot(chroot, "dpkg -s libpango-1.0-0", check=False, quiet=True).returncode != 0
        if fresh:
            r, result = render_in_chroot(chroot, "/tmp/control")
            if r.returncode == 0:
                fail("control: the PDF rendered before the RUN steps, so this check cannot tell what they add")
            why = (re.findall(r"(?:OSError|ImportError|Error)[^\n]*", r.stderr) or ["failed"])[-1]
            say("control: before the RUN steps the PDF cannot be rendered (" + why.split(".  ")[0][:160] + ")")
        else:
            say("control skipped: this chroot already has Pango (a reused --work folder)")
        for i, command in enumerate(runs, 1):
            say(f"RUN step {i}: {shlex.split(command)[:4]} ...")
            in_chroot(chroot, command, quiet=True)
        r, result = render_in_chroot(chroot, "/tmp/report")
        if result is None:
            fail(f"rendering in the chroot failed:\n{(r.stdout + r.stderr)[-3000:]}")
        say(f"rendered: PDF {result['pdf_bytes']:,} bytes; fonts {', '.join(result['fonts'])}")
        problems = verdict(result)
        if problems:
            fail("; ".join(problems))
        say("OK: every sample (" + ", ".join(SAMPLES) + ") is in the PDF and the Word file, drawn with "
            "installed fonts, no character without a font")
    return 0


if __name__ == "__main__":
    sys.exit(main())
