"""The shape of benchmarks/data/claims-fresh16 (hand-written pairs over the libvirt 9.0
documentation): well formed, balanced, every quote verbatim on its stored page. Nothing here runs
the claim check: the group is unseen until it is measured once (see its README)."""

from __future__ import annotations

import collections
from pathlib import Path

from tests.benchmarks._fresh_support import BENCH, load_module

HERE = BENCH / "data" / "claims-fresh16"
check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check_fresh16")
build_pages = load_module(BENCH / "data" / "claims-hand" / "build_pages.py", "claims_hand_build_pages_fresh16")


def test_pairs_are_well_formed_holdout_only_and_balanced():
    rows = check.load(HERE)
    assert len(rows) >= 500
    assert check.problems(rows, HERE) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["dataset"] for r in rows} == {"libvirt"}
    assert [r["id"] for r in rows] == [f"lv{n:04d}" for n in range(1, len(rows) + 1)]
    labels = collections.Counter(r["label"] for r in rows)
    assert labels["supported"] == labels["unsupported"]
    for r in rows:
        assert r["class"] in (check.SUPPORTED if r["label"] == "supported" else check.UNSUPPORTED), r["id"]
        assert bool(r.get("note")) == (r["label"] == "unsupported"), r["id"]
        assert r["claim"] != r["quote"], r["id"]


def test_every_quote_is_verbatim_on_its_page_and_every_page_is_used():
    rows = check.load(HERE)
    pages = (HERE / "pages.txt").read_text(encoding="utf-8").split()
    assert {r["page"] for r in rows} == set(pages)
    texts = {p: (HERE / "pages" / f"{p}.txt").read_text(encoding="utf-8") for p in pages}
    missing = [r["id"] for r in rows if r["quote"] not in texts[r["page"]]]
    assert missing == []


def test_pages_come_from_the_libvirt_root_of_build_pages():
    pages = (HERE / "pages.txt").read_text(encoding="utf-8").split()
    assert {p.split("/", 1)[0] for p in pages} == {"libvirt"}
    assert Path(build_pages.ROOTS["libvirt"]) == Path("usr/share/doc/libvirt-doc/html")
