"""Helpers shared by the tests of the fresh groups (``bench_claims.py --fresh2`` / ``--fresh3``):
load a benchmark script as a module, and build a throwaway git repository standing in for a
snapshot of a public data set."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
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
    import json

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
