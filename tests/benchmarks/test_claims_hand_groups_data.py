"""The shape of the hand-written pairs of the groups written over one documentation set each
(benchmarks/data/claims-fresh13: Varnish Cache 7.1; claims-fresh16: libvirt 9.0;
claims-fresh17: Mutt 2.2; claims-fresh18: rsyslog 8.2302;
claims-fresh19: Debian Reference 2.100;
claims-fresh20: SQLAlchemy 1.4.46;
claims-fresh21: GNU Octave 7.3; claims-fresh22: Vim 9.0;
claims-fresh23: Debian Administrator's Handbook 11; claims-fresh24: R 4.2.2 manuals;
claims-fresh25: ImageMagick 6.9.11;
claims-fresh26: GDB 13.1; claims-fresh27: BorgBackup 1.2.4;
claims-fresh28: Flask 2.2.2; claims-fresh29: pytest 7.2.1;
claims-fresh30: GnuTLS 3.7.9; claims-fresh31: Jinja 3.1.2;
claims-fresh32: pandas 1.5.3; claims-fresh33: Sphinx 5.3.0;
claims-fresh34: SciPy 1.10.1; claims-fresh43: lxml 4.9.2;
claims-fresh44: Python-Markdown 3.4.1), one table row
a group: well formed, balanced, every quote verbatim on its stored page. Nothing here runs the
claim check: a group is unseen until it is measured once (see its README)."""

from __future__ import annotations

import collections
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.benchmarks._fresh_support import BENCH, load_module

check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check_hand_groups")
build_pages = load_module(BENCH / "data" / "claims-hand" / "build_pages.py", "claims_hand_build_pages_hand_groups")


@dataclass(frozen=True)
class HandGroup:
    name: str  # the group, as bench_claims.py --<name> knows it
    dataset: str  # the one data set of its pairs, and its pages' build_pages.py root
    id_prefix: str  # its ids: <prefix>0001, <prefix>0002, ...
    root: str  # where build_pages.py reads that documentation
    min_pairs: int = 500  # the size it was written to (fresh19-fresh30: 450, 350, 400s, 300, 372, 398, 400, 390, 400, 400; shorter deadlines)


GROUPS = [
    HandGroup("fresh13", "varnish", "vn", "usr/share/doc/varnish/html"),
    HandGroup("fresh16", "libvirt", "lv", "usr/share/doc/libvirt-doc/html"),
    HandGroup("fresh17", "mutt", "mu", "usr/share/doc/mutt/html"),
    HandGroup("fresh18", "rsyslog", "rs", "usr/share/doc/rsyslog-doc/html"),
    HandGroup("fresh19", "debref", "dr", "usr/share/debian-reference", min_pairs=450),
    HandGroup("fresh20", "sqlalchemy", "sa", "usr/share/doc/python-sqlalchemy-doc/html", min_pairs=350),
    HandGroup("fresh21", "octave", "oc", "usr/share/doc/octave/octave.html", min_pairs=400),
    HandGroup("fresh22", "vim", "vm", "usr/share/doc/vim/html", min_pairs=400),
    HandGroup("fresh23", "handbook", "hb", "usr/share/doc/debian-handbook/html", min_pairs=400),
    HandGroup("fresh24", "rmanual", "rm", "usr/share/doc/r-doc-html/manual", min_pairs=400),
    HandGroup("fresh25", "imagemagick", "im", "usr/share/doc/imagemagick-6-common/html/www", min_pairs=400),
    HandGroup("fresh26", "gdb", "gd", "usr/share/doc/gdb-doc/html/gdb", min_pairs=400),
    HandGroup("fresh27", "borg", "bo", "usr/share/doc/borgbackup/html", min_pairs=400),
    HandGroup("fresh28", "flask", "fl", "usr/share/doc/python-flask-doc/html", min_pairs=300),
    HandGroup("fresh29", "pytest", "pt", "usr/share/doc/python-pytest-doc/html", min_pairs=360),
    HandGroup("fresh30", "gnutls", "gt", "usr/share/doc/gnutls-doc/html", min_pairs=390),
    HandGroup("fresh31", "jinja", "jj", "usr/share/doc/python-jinja2-doc/html", min_pairs=400),
    HandGroup("fresh32", "pandas", "pd", "usr/share/doc/python-pandas-doc/html", min_pairs=390),
    HandGroup("fresh33", "sphinx", "sx", "usr/share/doc/sphinx-doc/html", min_pairs=400),
    HandGroup("fresh34", "scipy", "sp", "usr/share/doc/python-scipy-doc/html", min_pairs=400),
    HandGroup("fresh36", "click", "ck", "usr/share/doc/python-click-doc/html", min_pairs=400),
    HandGroup("fresh35", "werkzeug", "wz", "usr/share/doc/python-werkzeug-doc/html", min_pairs=400),
    HandGroup("fresh37", "requests", "rq", "usr/share/doc/python-requests-doc/html", min_pairs=400),
    HandGroup("fresh38", "lighttpd", "lt", "usr/share/doc/lighttpd", min_pairs=400),
    HandGroup("fresh39", "attrs", "at", "usr/share/doc/python-attr-doc/html", min_pairs=400),
    HandGroup("fresh40", "curl", "cu", "usr/share/doc/libcurl4", min_pairs=400),
    HandGroup("fresh41", "babel", "bb", "usr/share/doc/python-babel-doc/html", min_pairs=400),
    HandGroup("fresh42", "mako", "mk", "usr/share/doc/python-mako-doc/html", min_pairs=400),
    HandGroup("fresh43", "lxml", "lx", "usr/share/doc/python-lxml/html", min_pairs=400),
    HandGroup("fresh44", "pymarkdown", "md", "usr/share/doc/python-markdown-doc/docs", min_pairs=400),
]
by_name = pytest.mark.parametrize("group", GROUPS, ids=[g.name for g in GROUPS])


def _here(group: HandGroup) -> Path:
    return BENCH / "data" / f"claims-{group.name}"


@by_name
def test_pairs_are_well_formed_holdout_only_and_balanced(group):
    here = _here(group)
    rows = check.load(here)
    assert len(rows) >= group.min_pairs
    assert check.problems(rows, here) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["dataset"] for r in rows} == {group.dataset}
    assert [r["id"] for r in rows] == [f"{group.id_prefix}{n:04d}" for n in range(1, len(rows) + 1)]
    labels = collections.Counter(r["label"] for r in rows)
    assert labels["supported"] == labels["unsupported"]
    for r in rows:
        assert r["class"] in (check.SUPPORTED if r["label"] == "supported" else check.UNSUPPORTED), r["id"]
        assert bool(r.get("note")) == (r["label"] == "unsupported"), r["id"]
        assert r["claim"] != r["quote"], r["id"]


@by_name
def test_every_quote_is_verbatim_on_its_page_and_every_page_is_used(group):
    here = _here(group)
    rows = check.load(here)
    pages = (here / "pages.txt").read_text(encoding="utf-8").split()
    assert {r["page"] for r in rows} == set(pages)
    texts = {p: (here / "pages" / f"{p}.txt").read_text(encoding="utf-8") for p in pages}
    missing = [r["id"] for r in rows if r["quote"] not in texts[r["page"]]]
    assert missing == []


@by_name
def test_pages_come_from_the_groups_root_of_build_pages(group):
    pages = (_here(group) / "pages.txt").read_text(encoding="utf-8").split()
    assert {p.split("/", 1)[0] for p in pages} == {group.dataset}
    assert Path(build_pages.ROOTS[group.dataset]) == Path(group.root)
