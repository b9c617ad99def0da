"""The graph's state: its records."""

from __future__ import annotations

from deep_research.research.state import error_record


def test_a_record_naming_a_signed_address_keeps_it_without_its_secret():
    """Search results' URLs were masked, but a page skipped because it "redirected to" a
    signed address (a presigned download) kept that address whole in its degradation: the
    state, notes.md, the terminal and the chat showed the signature."""
    r = error_record("researcher", "page skipped: redirects: redirected to "
                     "https://bucket.example/f.pdf?X-Amz-Signature=abc123secret&X-Amz-Expires=60: HTTP 403",
                     url="https://bob:pw-s3cret@intranet.example/x", query="q")
    assert "abc123secret" not in r["message"] and "X-Amz-Signature=***&X-Amz-Expires=60" in r["message"]
    assert r["url"] == "https://bob:***@intranet.example/x" and r["query"] == "q" and r["stage"] == "researcher"
    plain = "page https://example.org/a?page=2 read only in part: cut at 5,000,000 bytes"
    assert error_record("researcher", plain)["message"] == plain  # nothing to mask: as written
