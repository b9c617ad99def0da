"""Helpers shared by the tests of the fresh groups (``bench_claims.py --fresh2`` ... ``--fresh15``):
load a benchmark script as a module, build a throwaway git repository standing in for a snapshot
of a public data set, and the checks every group's ``fetch_factver.py --freshN`` and
``bench_claims.py --freshN`` wiring must pass."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


def git_repo(root: Path, files: dict[str, str | bytes]) -> str:
    """A git repository at ``root`` holding ``files`` (text, or bytes as they are); returns its
    commit."""
    for rel, content in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            (root / rel).write_bytes(content)
        else:
            (root / rel).write_text(content, encoding="utf-8")
    env = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), *env, "commit", "-qm", "data"], check=True)
    out = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def snapshot(fv, root: Path, monkeypatch, attr: str, files: dict[str, str | bytes]) -> None:
    """A git repository below ``root`` standing in for the snapshot of ``fv.<attr>`` (``fv``: a
    loaded ``fetch_factver.py``), its pinned commit pointed at it."""
    repo = getattr(fv, attr)
    commit = git_repo(root / repo.name.replace("/", "+") / "repo", files)
    monkeypatch.setattr(fv, attr, fv.Repo(repo.name, commit))


Mirrors = Callable[[Path, object], None]


def build_group(fv, group: str, mirrors: Mirrors, tmp_path: Path, monkeypatch) -> Path:
    """``fetch_factver.py --<group>`` over the synthetic snapshots ``mirrors`` makes; its output
    folder."""
    root = tmp_path / "mirrors"
    mirrors(root, monkeypatch)
    out = tmp_path / f"factver-{group}"
    assert fv.main([f"--{group}", "--mirrors", str(root), "--out", str(out)]) == 0
    return out


def check_builds_byte_for_byte(fv, group: str, mirrors: Mirrors, tmp_path: Path, monkeypatch,
                               sets: list[str]) -> tuple[Path, str]:
    """``fetch_factver.py --<group>`` writes holdout-only ``sets`` and its README.md, the same
    bytes when run again; the README names the flag, the sample cap, the sets looked at and not
    used and a section a set. Returns the output folder and the README's text."""
    out = build_group(fv, group, mirrors, tmp_path, monkeypatch)
    assert sorted(p.name for p in out.iterdir()) == ["README.md", *sorted(sets)]
    assert not list(out.glob("*/dev.jsonl"))
    first = {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    assert fv.main([f"--{group}", "--mirrors", str(tmp_path / "mirrors"), "--out", str(out)]) == 0
    assert {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()} == first  # byte for byte
    readme = (out / "README.md").read_text()
    assert f"--{group}" in readme and "cut to 1000 by a sample" in readme and "Looked at and not used" in readme
    for name in sets:
        assert f"## {name} (" in readme
    return out, readme


def check_samples_per_class(fv, mirrors: Path, tmp_path: Path, dataset, head: str, classes: list[str]) -> None:
    """More rows than the cap (12): ``build_fresh`` keeps a seeded per-class sample in the source's
    proportions (``classes``, sorted), the same bytes when built again."""
    out, again = tmp_path / "out", tmp_path / "again"
    assert fv.build_fresh(mirrors, out, [dataset], head, cap=12) == 0
    kept = [json.loads(line) for line in (out / dataset.name / "holdout.jsonl").read_text().splitlines()]
    assert len(kept) == 12
    assert sorted(r["class"] for r in kept) == classes
    assert fv.build_fresh(mirrors, again, [dataset], head, cap=12) == 0
    assert (again / dataset.name / "holdout.jsonl").read_bytes() == (out / dataset.name / "holdout.jsonl").read_bytes()


def check_defaults_and_verdict_group(bench_claims, group: str):
    """``bench_claims.py``'s defaults for ``group`` (also under their old per-group names) and
    ``claims_verdicts.py`` knowing it; returns the group's settings."""
    g = bench_claims.FRESH_GROUPS[group]
    up = group.upper()
    assert g.hand_dir == getattr(bench_claims, f"{up}_HAND_DIR") and g.hand_dir.name == f"claims-{group}"
    assert g.factver_root == getattr(bench_claims, f"{up}_FACTVER_ROOT") == Path(f"/tmp/factver-{group}")
    verdicts = load_module(BENCH / "claims_verdicts.py", f"claims_verdicts_{group}")
    assert group in verdicts.GROUPS
    assert verdicts._FRESH[group] == (g.hand_dir, g.factver_root)
    return g


class _Loaded(Exception):
    pass


def bench_main_pairs(bench_claims, monkeypatch, argv: list[str]) -> list:
    """``bench_claims.main()`` (the module given) up to the point where it would run the claim
    check: the pairs it loaded (the check itself is replaced, so nothing is measured - an
    unseen group stays unseen)."""
    import pytest

    seen: list = []

    def stop(pairs):
        seen.extend(pairs)
        raise _Loaded

    monkeypatch.setattr(bench_claims, "run_code", stop)
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", *argv])
    with pytest.raises(_Loaded):
        bench_claims.main()
    return seen


def check_optional_hand_half(bench_claims, monkeypatch, tmp_path: Path, group: str, root: Path,
                             public: list[str]) -> None:
    """``bench_claims.py --<group>`` for a group whose hand-written half is optional: without
    it, the public sets alone (``public``: their data set names, sorted); with one, both."""
    flag = f"--{group}"
    got = bench_main_pairs(bench_claims, monkeypatch, [flag, f"{flag}-hand-dir", str(tmp_path / "no-hand"),
                                                      f"{flag}-factver-root", str(root)])
    assert sorted(p.dataset for p in got) == public
    hand = tmp_path / "hand"
    hand.mkdir()
    row = {"id": "x0001", "dataset": "somedoc", "page": "somedoc/a.html", "quote": "Q.", "claim": "C.",
           "label": "supported", "class": "paraphrase_synonyms", "split": "holdout"}
    (hand / "holdout.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    got = bench_main_pairs(bench_claims, monkeypatch, [flag, f"{flag}-hand-dir", str(hand),
                                                      f"{flag}-factver-root", str(root)])
    assert [p.dataset for p in got][:1] == ["hand/somedoc"] and len(got) == len(public) + 1


def check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path: Path, group: str, only: str) -> None:
    """No public half (and no hand half): exit 2 naming the rebuild command, or (``--only
    hand``) the missing hand-written file."""
    import pytest

    flag = f"--{group}"
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", flag, f"{flag}-hand-dir", str(tmp_path / "no-hand"),
                                      f"{flag}-factver-root", str(tmp_path / "none"), "--only", only])
    with pytest.raises(SystemExit) as exc:
        bench_claims.main()
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (f"fetch_factver.py {flag} --out" in err) if not only else ("holdout.jsonl not found" in err)
