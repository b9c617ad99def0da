"""Output paths: sanitised names that always stay inside the output directory."""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from pathlib import Path

from ..errors import UserError

_UNSAFE = re.compile(r"[^\w.-]+")


def safe_name(name: str, *, default: str = "report", max_len: int = 80) -> str:
    """A file or folder name made from arbitrary text (a question, a title)."""
    s = unicodedata.normalize("NFKC", name).strip()
    s = _UNSAFE.sub("-", s).strip(".-_")
    s = re.sub(r"-{2,}", "-", s)[:max_len].strip(".-_")
    return s or default


def _resolve(path: Path, what: str) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError) as e:  # RuntimeError: a symlink loop (Python < 3.13)
        raise UserError(f"{what} {path} cannot be resolved: {e}") from None


def inside(out_dir: Path, name: str) -> Path:
    """out_dir/name, refusing any name that would leave out_dir."""
    root = _resolve(out_dir, "output directory")
    path = _resolve(root / name, "output path")
    if path != root and root not in path.parents:
        raise UserError(f"output path {name!r} would be outside the output directory {root}")
    return path


def prepare_out_dir(out_dir: str | Path, *, allowed_root: Path | None = None) -> Path:
    """Create the output directory; with allowed_root, refuse one outside it."""
    path = Path(out_dir).expanduser()
    resolved = _resolve(path, "output directory")
    if allowed_root is not None:
        root = allowed_root.resolve()
        if resolved != root and root not in resolved.parents:
            raise UserError(f"output directory {path} is outside {root}")
    if resolved.exists() and not resolved.is_dir():
        raise UserError(f"output path {path} exists and is not a directory")
    try:
        resolved.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create output directory {path}: {e.strerror or e}") from e
    try:  # fail here, with a clear message, rather than when the first file is written
        fd, probe = tempfile.mkstemp(dir=resolved, prefix=".write-test.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise UserError(f"output directory {path} is not writable: {e.strerror or e}") from e
    return resolved
