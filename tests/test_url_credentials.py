"""The credentials of URLs in text (errors.py): a password, a user name standing alone and
the value of a secret-named query or fragment parameter are masked; anything else is kept
as written (a report's source URLs, a corpus link)."""

from __future__ import annotations

import time

import pytest

from deep_research.errors import has_masked_url_credentials, mask_url_credentials, mask_url_passwords, redact


@pytest.mark.parametrize("text, masked", [
    ("https://host/v1?api_key=S1", "https://host/v1?api_key=***"),
    ("at https://h/x?key=a&token=b&sig=c&model=m#access_token=z, then", "at https://h/x?key=***&token=***&sig=***&model=m#access_token=***, then"),
    ("https://h/?Api-Key=S&X-Amz-Signature=abc&client_secret=c&Password=p&pwd=q&auth=r&code=s&credentials=t",
     "https://h/?Api-Key=***&X-Amz-Signature=***&client_secret=***&Password=***&pwd=***&auth=***&code=***"
     "&credentials=***"),
    ("(see https://h/?key=abc.def).", "(see https://h/?key=***)."),
    ("https://alice:pw@h/?token=t", "https://alice:***@h/?token=***"),
    # not secrets: kept as written
    ("https://h/?monkey=1&keyboard=us&postcode=1&q=token&key=", "https://h/?monkey=1&keyboard=us&postcode=1&q=token&key="),
    ("no URL ?key=x", "no URL ?key=x"),
])
def test_the_secret_values_of_a_urls_query_are_masked(text, masked):
    assert mask_url_credentials(text) == masked
    assert mask_url_credentials(masked) == masked  # masking twice changes nothing
    assert has_masked_url_credentials(masked) == (masked != text)
    assert mask_url_passwords(text).count("***") == masked.count("***")  # the CLI's error line
    assert redact(f"ConnectError: {text}").endswith(masked)  # log lines


def test_a_long_value_is_masked_in_linear_time():
    text = "https://h/?key=a" + "." * 200_000 + "b"
    start = time.perf_counter()
    assert mask_url_credentials(text) == "https://h/?key=***"
    assert time.perf_counter() - start < 2  # a pattern that backtracked took minutes


def test_what_a_masked_url_lost_is_said_as_it_was():
    """A message asking for a URL again names what was not kept: a ?sig= or ?code= value is
    not "a password or token" (the words every such message used)."""
    from deep_research.errors import masked_credentials

    assert masked_credentials("https://alice:***@models.example/v1") == "a password"
    assert masked_credentials("https://***@git.example/repo") == "a user name or token"
    assert masked_credentials("https://blob.example/c?sv=1&sig=***") == "the value of its secret parameter sig="
    assert masked_credentials("https://h.example/cb?code=***&state=x#access_token=***") == \
        "the value of its secret parameters code=, access_token="
    assert masked_credentials("https://bob:***@h.example/?X-Amz-Signature=***") == \
        "a password and the value of its secret parameter X-Amz-Signature="
