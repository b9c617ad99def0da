"""Flags that were false on correct claims (issue 25, fresh18 first sight): shapes in which the
negation, number, order or name rule cannot prove a contradiction now stay grey (unchecked),
and the shape each was read for still flags."""

from __future__ import annotations

from tests.citations.claim_status import FLAG, status

# --- negation -------------------------------------------------------------------------------

def test_difference_restates_a_negation():
    """(rs0177) "which differs from its size on the disk" / "NOT on the disk"."""
    quote = "A cached page is assumed to take 4096 bytes (in memory, NOT on the disk, this is a difference)."
    assert status("A cached page is assumed to take 4096 bytes in memory, which differs from its size on the disk.",
                  quote) is not FLAG
    assert status("A cached page is assumed to take 4096 bytes in memory, which is its size on the disk.",
                  quote) is FLAG


def test_an_elliptic_negation_in_a_condition_states_the_negated_case():
    """(rs0340) "must explicitly join a group. If they don't, ..." states the case of one that does
    not."""
    quote = "Workers must explicitly join a pool. If they don't, the default pool is used."
    assert status("A worker that does not explicitly join a pool gets the default pool.", quote) is not FLAG
    assert status("Workers do not explicitly join a pool.", "Workers must explicitly join a pool.") is FLAG


def test_only_in_a_case_against_a_default_denial():
    """(rs0364) "X get their own cache only when it is enabled" / "By default, X do not have their
    own cache. It must be enabled"."""
    quote = "By default, workers do not have their own cache. It must be enabled with the cache option."
    assert status("Workers have their own cache only when it is enabled with the cache option.", quote) is not FLAG
    assert status("By default, workers have their own cache.", quote) is FLAG


def test_inability_to_restates_could_not():
    """(rs0493) "because it could not be parsed" / "due to inability to parse it"."""
    quote = "A warning is logged each time a record is dropped due to inability to parse it."
    assert status("A warning is logged each time a record is dropped because it could not be parsed.",
                  quote) is not FLAG
    assert status("A warning is logged each time a record is dropped because it could not be parsed.",
                  "A warning is logged each time a record is dropped because it could be parsed.") is FLAG


def test_not_every_denies_only_every():
    """(rs0507) "Not every input module supports X" / "the input module must support X"."""
    quote = "As a first prerequisite, the output module must support batching. Not all do."
    assert status("Not every output module supports batching.", quote) is not FLAG
    assert status("Not every output module supports batching.", "Every output module supports batching.") is FLAG


def test_zero_counts_as_no():
    """(rs0542) "may have no rules at all" / "it is permitted to have zero rules"."""
    quote = "It is permitted to have zero rules inside a chain, although this makes little sense."
    assert status("A chain may have no rules inside it at all.", quote) is not FLAG
    assert status("A chain may have no rules inside it at all.", "It is required to have rules inside a chain.") is FLAG


def test_a_relative_clause_on_the_negated_noun():
    """(rs0579) "They have no side-effects with macros, which can be a major obstacle with old
    scripts" / "Side effects with macros can be a major obstacle with old scripts"."""
    quote = "They also have no side-effects with macros, which can be a major obstacle with old scripts."
    assert status("Side effects with macros can be a major obstacle with old scripts.", quote) is not FLAG
    assert status("They also have side-effects with macros.", quote) is FLAG


def test_an_open_question_denies_nothing():
    """(anli) "may or may not have been the first", "maybe not by the navy"."""
    quote = "The tower, which the city built for its port, is one of the first towers to be built in the city."
    assert status("The tower may or may not have been the first tower in the city.", quote) is not FLAG
    assert status("The tower was not built for the port by the city.", quote) is FLAG
    quote = ("The Falster class were ferries built for the Danish Navy in the 1960s. They were the first ferries "
             "designed and built in Denmark since the war.")
    assert status("The ferries were built for the Danish Navy, but maybe not by the Danish Navy.", quote) is not FLAG
    assert status("The ferries were built for the Danish Navy, but not by the Danish Navy.", quote) is FLAG


def test_a_negation_called_wrong_is_denied_again():
    """(anli) "It is wrong to say that X has no university"."""
    quote = ("When we made the case for the grant to the University of Utah, one had to say what it was about, but "
             "the best argument was the spin-off in industries in Utah.")
    assert status("It is wrong to say that Utah has no University.", quote) is not FLAG
    assert status("One had to say that Utah has no University.", quote) is FLAG


def test_an_identity_with_a_name_denied():
    """(anli) "The lead singer of the band is not Ann Lee" / "... Ann Lee (drums, vocals)"."""
    quote = "The band consists of Tom Kay (lead vocals, guitar), Ann Lee (drums, backing vocals) and Bo Dee (bass)."
    assert status("The lead singer of the band is not Ann Lee.", quote) is not FLAG
    assert status("The drummer of the band is not Ann Lee.", "The drummer of the band is Ann Lee.") is FLAG


def test_optional_is_not_needed():
    """(anli) "the pruning tool isn't needed" / "you will need ..., pruning tool (optional), ..."."""
    quote = "To dye the petals you will need dye, water, scissors, a pruning tool (optional) and a vase."
    assert status("The pruning tool isn't needed to dye the petals.", quote) is not FLAG
    assert status("Scissors aren't needed to dye the petals.", "To dye the petals you will need scissors.") is FLAG


def test_a_negation_said_of_others():
    """(cad) "Some others are not running" / "While two boys are running, others are sitting"."""
    quote = "While two boys are running, others in the yard are sitting or standing."
    assert status("Some others are not running.", quote) is not FLAG
    assert status("Two boys are not running.", quote) is FLAG


def test_a_privative_adjective_is_no_real_one():
    """(cad) "The man has no legs" / "a man ... with prosthetic legs"."""
    assert status("The man has no legs.", "A man is running on a track with prosthetic legs.") is not FLAG
    assert status("The man has no legs.", "A man is running on a track with strong legs.") is FLAG


def test_a_correction_not_a_but_b():
    """(anli) "was not released on May 2, 2001 but on May 3, 2002" / "was released on May 3, 2002"."""
    quote = "Their debut album, Blue Days, was released on May 3, 2002."
    assert status("Blue Days was not released on May 2, 2001 but on May 3, 2002.", quote) is not FLAG
    assert status("Blue Days was not released on May 3, 2002.", quote) is FLAG


def test_a_negated_value_where_the_other_side_writes_another():
    """(anli) "did not release a nine-track EP in the UK in 2002" / "released as a five-track EP in
    the UK in 2002 and a nine-track compilation in Australia in 2003"."""
    quote = ("Blue Days is a compilation album by the rock band Acme. It was released as a five-track EP in the UK "
             "on the Zed label in 2002 and a nine-track compilation in Australia on the Spunk label in 2003.")
    assert status("Acme did not release a nine-track compilation EP called Blue Days in the UK in 2002.", quote) \
        is not FLAG
    assert status("The band did not release a five-track EP in the UK in 2002.",
                  "The band released a five-track EP in the UK in 2002.") is FLAG


def test_a_negation_in_an_embedded_question():
    """(stanford-gensearch) "understand why they are not using it" / "retraining your dog to use
    the door"."""
    quote = "The first step in retraining your dog to use the door is to understand why your dog is barking."
    assert status("To retrain a dog to use the door, first understand why it is not using it.", quote) is not FLAG
    assert status("Retraining your dog does not use the door.", "Retraining your dog uses the door.") is FLAG


def test_cannot_against_must():
    """(control-test-id-223) "harm cannot be proven" / "harm must be proven"."""
    quote = "To prove negligence it is not necessary to prove harm, but for a claim in tort, harm must be proven."
    assert status("In some cases negligence can be proven but harm cannot be proven.", quote) is not FLAG
    assert status("Harm cannot be proven.", "Harm can be proven.") is FLAG


def test_a_negator_aligned_on_function_words_only():
    """(lfqa-208-0) "he cannot be charged a second time" / "you can still be put in jail": the
    alignment met on "can ... be"."""
    quote = "If someone is found not guilty of a crime, he cannot be charged a second time for that crime."
    assert status("Even if you are not guilty of a crime, you can still be put in jail.", quote) is not FLAG
    assert status("Once set, this value can be changed.", "Once set, this value cannot be changed.") is FLAG


# --- numbers --------------------------------------------------------------------------------

def test_a_date_by_is_a_bound():
    """(anli) "shut down by July 2017" / "shutting down in June 2017"."""
    assert status("The company was shut down by July 2017.",
                  "The company raised money before ultimately shutting down in June 2017.") is not FLAG
    assert status("The company was shut down by July 2017.",
                  "The company raised money before ultimately shutting down in August 2017.") is FLAG


def test_a_date_within_a_range():
    """(anli) "serving in the Navy on February 29th, 1984" / "(born March 14, 1927) ... served in the
    Navy from July 1, 1983 to June 1, 1986"."""
    quote = ("John Doe (born March 14, 1927) is a retired officer. His last assignment was as the commander of "
             "the Navy from July 1, 1983 to June 1, 1986.")
    assert status("John Doe was serving in the Navy on February 29th, 1984.", quote) is not FLAG
    assert status("John Doe was serving in the Navy on February 29th, 1988.", quote) is FLAG


# --- near copy: order, names ------------------------------------------------------------------

def test_after_it_in_a_sequence():
    """(rs0479) "tries A before B" / "try A first and after it B"."""
    quote = "So the default chain is to try the JSON parser first and after it the text parser."
    assert status("By default, the chain tries the JSON parser before the text parser.", quote) is not FLAG
    # "after it is received" is a clause of its own: a swap
    assert status("The parsers read the message before it is received.",
                  "The parsers read the message after it is received.") is FLAG


def test_a_region_and_a_weekday_are_other_kinds_of_name():
    """(anli) "an Asian film" / "a Malayalam film"; "on Monday" / "the day before, on August 27"."""
    assert status("Ravi Happy Aanu is an Asian film.", "Ravi Happy Aanu is a 2003 Malayalam film by Vinod.") \
        is not FLAG
    assert status("Ravi Happy Aanu is an Asian film.", "Ravi Happy Aanu is a 2003 European film by Vinod.") is FLAG
    quote = "The theft was reported on Tuesday, Aug. 28. The box was last seen the day before on August 27 at 5 p.m."
    assert status("The box was last seen on Monday at 5 p.m.", quote) is not FLAG
    assert status("The box was last seen on Monday at 5 p.m.",
                  "The box was last seen the day before on Sunday at 5 p.m.") is FLAG


def test_a_name_joined_to_the_quotes_name():
    """(lv0346) "over both IPv4 and IPv6" / "tcp/ipv6": the claim names the quote's name too."""
    quote = ("Supported protocols currently include mac, arp, ipv6, tcp/ip, udp/ip, tcp/ipv6, udp/ipv6. Each protocol "
             "defines what is valid inside the rule element.")
    claim = ("The supported protocols include mac, arp and ipv6, and tcp and udp over both {} and IPv6, each protocol "
             "setting what may go inside a rule.")
    assert status(claim.format("IPv4"), quote) is not FLAG
