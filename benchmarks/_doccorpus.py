"""Folders of real documentation pages from Debian doc packages (not part of the package).

The HTML docs of other projects, as Debian ships them: pages we did not write, each set
with its own stylesheets (Sphinx themes, the PostgreSQL and kernel docs' own CSS).
Fetched once into ``benchmarks/.cache/`` with the package manager's ordinary client::

    cd benchmarks/.cache/debs && apt-get download postgresql-doc-15 python3.11-doc \\
        linux-doc-6.1 python-scipy-doc python-django-doc          # the mixed folder
    apt-get download python-pandas-doc python-astropy-doc python-celery-doc \\
        python-sqlalchemy-doc sphinx-doc                          # more pages for 15,000
    dpkg -x <package>_*.deb ../x/<package>                        # for each

(:func:`html_root` runs exactly these commands when a set is missing.) A benchmark
folder holds hard links to the chosen pages, under ``<set>/<path in the set>``, and every
stylesheet of each set, so that pages find their CSS where the package put it.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

from _common import CACHE

# name -> (Debian package, folder of its HTML inside the package)
MIXED_SETS = {
    "postgresql": ("postgresql-doc-15", "usr/share/doc/postgresql-doc-15/html"),
    "python": ("python3.11-doc", "usr/share/doc/python3.11/html"),
    "linux": ("linux-doc-6.1", "usr/share/doc/linux-doc-6.1/html"),
    "scipy": ("python-scipy-doc", "usr/share/doc/python-scipy-doc/html"),
    "django": ("python-django-doc", "usr/share/doc/python-django-doc/html"),
}
MORE_SETS = {
    "pandas": ("python-pandas-doc", "usr/share/doc/python-pandas-doc/html"),
    "astropy": ("python-astropy-doc", "usr/share/doc/python-astropy-doc/html"),
    "celery": ("python-celery-doc", "usr/share/doc/python-celery-doc/html"),
    "sqlalchemy": ("python-sqlalchemy-doc", "usr/share/doc/python-sqlalchemy-doc/html"),
    "sphinx": ("sphinx-doc", "usr/share/doc/sphinx-doc/html"),
}
ALL_SETS = {**MIXED_SETS, **MORE_SETS}
DEBS = CACHE / "debs"
EXTRACTED = CACHE / "x"


def html_root(name: str) -> Path:
    """The HTML folder of a doc set, downloaded and unpacked on first use."""
    package, sub = ALL_SETS[name]
    target = EXTRACTED / package
    html = target / sub
    if html.is_dir():
        return html
    DEBS.mkdir(parents=True, exist_ok=True)
    if not glob.glob(str(DEBS / f"{package}_*.deb")):
        print(f"fetching {package} (apt-get download) ...", flush=True)
        subprocess.run(["apt-get", "download", package], cwd=DEBS, check=True)
    deb = max(glob.glob(str(DEBS / f"{package}_*.deb")))
    EXTRACTED.mkdir(parents=True, exist_ok=True)  # dpkg -x makes the target, not its parents
    subprocess.run(["dpkg", "-x", deb, str(target)], check=True)
    if not html.is_dir():
        raise SystemExit(f"{deb} has no {sub}")
    return html


def pages(name: str) -> list[str]:
    """The set's HTML pages (regular files, not links), sorted, relative to its root."""
    root = html_root(name)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                  if p.is_file() and not p.is_symlink())


def stride(items: list, n: int) -> list:
    """At most n items, evenly spread over the list (deterministic)."""
    if len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def mixed_selection(per_set: int) -> dict[str, list[str]]:
    """The mixed folder: each of the five named sets, at most ``per_set`` pages each."""
    return {name: stride(pages(name), per_set) for name in MIXED_SETS}


def large_selection(mixed: dict[str, list[str]], total: int, seed: int) -> dict[str, list[str]]:
    """The mixed pages plus pages of every set (seeded choice) up to ``total`` distinct pages;
    fewer when the sets run out (the caller prints the count)."""
    chosen = {name: list(mixed.get(name, [])) for name in ALL_SETS}
    rest = [(name, p) for name in ALL_SETS for p in pages(name) if p not in set(mixed.get(name, []))]
    random.Random(seed).shuffle(rest)
    need = max(0, total - sum(len(v) for v in chosen.values()))
    for name, p in rest[:need]:
        chosen[name].append(p)
    return {name: sorted(v) for name, v in chosen.items() if v}


def make_folder(dest: Path, selection: dict[str, list[str]]) -> Path:
    """``dest`` holding exactly the selected pages (hard links) and each set's stylesheets;
    rebuilt only when the selection changed."""
    digest = hashlib.sha256(json.dumps(selection, sort_keys=True).encode()).hexdigest()
    stamp = dest.parent / f".{dest.name}.selection"
    if dest.is_dir() and stamp.is_file() and stamp.read_text() == digest:
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    for name, rels in selection.items():
        root = html_root(name)
        files = list(rels) + [p.relative_to(root).as_posix() for p in root.rglob("*.css")]
        for rel in files:
            src = (root / rel).resolve()
            if not src.is_file():
                continue
            out = dest / name / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, out)
            except OSError:
                shutil.copy2(src, out)
    stamp.write_text(digest)
    return dest


def page_paths(folder: Path, selection: dict[str, list[str]]) -> list[Path]:
    """The selected pages' paths in ``folder``, in the order the index walks them."""
    return sorted((folder / name / rel for name, rels in selection.items() for rel in rels),
                  key=lambda p: p.relative_to(folder).parts)
