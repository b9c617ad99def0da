import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.support.chromium import chromium_available  # noqa: E402
from tests.support.postgres import postgres_db  # noqa: E402,F401 - a fixture for the PostgreSQL tests

# The CLI loads ./.env; a developer's .env (with real keys) must not leak into the tests'
# CLI runs, which set exactly the variables they mean to. Tests of .env loading set it back.
os.environ["DEEP_RESEARCH_ENV_FILE"] = "none"


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session. In CI a missing browser is a failure."""
    if not chromium_available():
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI (apt-get install chromium)")
        pytest.skip("Chromium not installed (apt-get install chromium)")
    from tests.support.chromium import Browser

    b = Browser()
    yield b
    b.close()


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return ROOT / "examples"
