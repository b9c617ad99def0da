"""Number shapes that flagged correct claims (issue 25, fresh19 first sight, Debian Reference): a
manual page's section, a rounded number, an integer inside a quote's range and an approximate
duration in another unit now stay grey (unchecked), and the mismatches of each shape still flag."""

from __future__ import annotations

from tests.citations.claim_status import FLAG, GREY, status

# --- a manual page's section ("find(1)") ------------------------------------------------------

def test_a_manual_section_is_no_quantity():
    """(dr0251) "find(1) evaluates ..." / a quote without "(1)"."""
    quote = "The tool copies only the files that changed since the last run."
    assert status("rsync(1) copies only the files that changed since the last run.", quote) is GREY
    assert status("The apt-get(8) tool copies only the files that changed since the last run.", quote) is GREY
    assert status("sources.list(5) copies only the files that changed since the last run.", quote) is GREY

    # the mismatches of the shape still flag
    quote = "The crontab(5) file lists the jobs cron runs."
    assert status("The crontab(1) file lists the jobs cron runs.", quote) is FLAG
    # a call, not a manual page: its argument is a value
    assert status("On failure the program calls process.exit(1).", "On failure the program calls process.exit(0).") \
        is FLAG
    assert status("On failure the program calls exit(1).", "On failure the program calls exit(0).") is FLAG

    # list markers and years are no manual sections
    quote = "Keep the old kernel until the new one boots."
    assert status("In step(2), keep the old kernel until the new one boots.", quote) is FLAG
    assert status("Since (2019), keep the old kernel until the new one boots.", quote) is FLAG


# --- a rounded number ("about 69 thousand" / "68980") -------------------------------------------

def test_a_rounded_number_against_the_exact_one():
    """(dr0427) "about 69 thousand (68,980) packages" / "68980 packages"."""
    quote = "The mirror currently holds 41720 source files."
    assert status("The mirror's source files currently number about 42 thousand.", quote) is GREY
    assert status("The mirror's source files currently number roughly 41,700.", quote) is GREY
    assert status("The mirror's source files currently number 42 thousand.", quote) is GREY

    # the mismatches of the shape still flag
    assert status("The mirror's source files currently number about 30 thousand.", quote) is FLAG
    assert status("The mirror's source files currently number about 41 thousand.", quote) is FLAG
    assert status("The mirror's source files currently number 41 thousand.", quote) is FLAG
    # a decimal before a scale word with no bound is exact to its last digit
    assert status("Revenue was $3.8 billion.", "Revenue was $3.82 billion.") is FLAG
    # one significant digit: within 10 % as well, not merely rounding to it
    assert status("The queue holds around 10 jobs.", "The queue holds 8 jobs.") is FLAG


def test_a_rounded_number_of_another_thing():
    """(hp0433) the quote's 1024 is of descriptors; its own "about 500" is of connections."""
    quote = "A limit of 1024 descriptors allows about 500 sessions."
    assert status("A limit of 1024 descriptors allows about 1000 sessions.", quote) is FLAG
    assert status("The 1024 descriptors allow about 1000.", "The 1024 descriptors allow 500 sessions.") is GREY


# --- an integer inside a quote's range ("runlevels 2, 3 and 4" / "runlevel 2 to 4") -------------

def test_listed_integers_inside_a_quote_range():
    """(dr0113)."""
    quote = "Priority 3 to 6 are all mapped to the same queue."
    assert status("Priorities 3, 4, 5 and 6 are all mapped to the same queue.", quote) is GREY
    assert status("Priorities 3, 4, 5 and 6 are all mapped to the same queue.",
                  "Priority 3-6 are all mapped to the same queue.") is GREY

    # the mismatches of the shape still flag
    quote = "Priority 3 to 6 are all mapped to the same queue."
    assert status("Priorities 3, 7 and 6 are all mapped to the same queue.", quote) is FLAG
    assert status("Levels 1 through 9 are accepted.", "Levels 0 through 9 are accepted.") is FLAG


# --- an approximate duration in another unit ("roughly four weeks" / "about a month") -----------

def test_an_approximate_duration_converted():
    """(dr0441)."""
    quote = "Wait for about a month before you upgrade."
    assert status("Wait for roughly four weeks before you upgrade.", quote) is GREY
    assert status("Wait for around 7 days before you upgrade.", "Wait for about a week before you upgrade.") is GREY

    # the mismatches of the shape still flag
    quote = "Wait for about a month before you upgrade."
    assert status("Wait for roughly two weeks before you upgrade.", quote) is FLAG
    # the claim states an exact duration: not approximate on both sides
    assert status("Wait for exactly 28 days before you upgrade.", quote) is FLAG
