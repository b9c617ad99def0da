"""A fresh PostgreSQL database for a test, on the server DEEP_RESEARCH_TEST_POSTGRES names
(`.ci/run` starts one; locally, skipped without it)."""

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest


@pytest.fixture()
def postgres_db():
    """A fresh database on the server DEEP_RESEARCH_TEST_POSTGRES names, dropped afterwards."""
    url = os.environ.get("DEEP_RESEARCH_TEST_POSTGRES")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("DEEP_RESEARCH_TEST_POSTGRES must name a PostgreSQL server in CI")
        pytest.skip("set DEEP_RESEARCH_TEST_POSTGRES=postgresql://user@host:port/db to run")
    import psycopg

    name = f"dr_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(url)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))
    finally:
        with psycopg.connect(url, autocommit=True) as conn:  # connections a killed run left behind
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
