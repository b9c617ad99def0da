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


@pytest.mark.parametrize("url, kept", [
    # a name that is a secret's only sometimes, with a value no key, grant or session id is: kept
    ("https://law.example/display?code=CIV&section=1714", "https://law.example/display?code=CIV&section=1714"),
    ("https://stats.example/t?country_code=US&zip_code=94103", "https://stats.example/t?country_code=US&zip_code=94103"),
    ("https://un.example/doc?session=78&sort_key=date", "https://un.example/doc?session=78&sort_key=date"),
    # the same names with a secret's value, and the names that are always secrets: masked
    ("https://h.example/cb?code=4/0AfJohXnLw9q2&state=x", "https://h.example/cb?code=***&state=x"),
    ("https://maps.example/api?key=AIzaSyD-9tSrke72PouQ", "https://maps.example/api?key=***"),
    ("https://h.example/x?api_key=abc&token=t&sig=s", "https://h.example/x?api_key=***&token=***&sig=***"),
    ("https://alice:pw@h.example/?session=78", "https://alice:***@h.example/?session=78"),
])
def test_a_pages_url_keeps_a_short_value_of_a_name_only_sometimes_secret(url, kept):
    """A search result's or a named page's URL was masked as every URL is: ``?code=CIV``
    (a legal code), ``?country_code=US`` or ``?session=78`` lost its value, and the report
    linked a page that did not open, for nothing secret. A page's URL keeps such a short
    value now; every other URL (an error, a log line) is masked as before."""
    from deep_research.errors import mask_page_url

    assert mask_page_url(url) == kept
    assert mask_page_url(kept) == kept
    assert has_masked_url_credentials(kept) == (kept != url)
    assert "CIV" not in mask_url_credentials("https://law.example/display?code=CIV")  # elsewhere as before
