"""False flags seen at fresh16's first sight (issue 25): shapes where a rule read a
difference that is none. Each test keeps the altered shape it must still catch."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

S, U, C = ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def test_with_or_without_names_both_branches_and_denies_neither():
    quote = ("virtqemud - the QEMU management daemon, for running virtual machines on UNIX platforms, "
             "optionally with KVM acceleration, in either system or session mode")
    r = check("QEMU virtual machines on UNIX platforms, with or without KVM acceleration, are run by the "
              "virtqemud daemon.", quote)
    assert r.status is C
    r = check("QEMU virtual machines run with or without KVM acceleration.",
              "QEMU virtual machines run with KVM acceleration.")
    assert r.status is C
    # a plain "without" still denies what the quote states
    assert check("QEMU virtual machines on UNIX platforms, without KVM acceleration, are run by the virtqemud "
                 "daemon.", quote).status is U


def test_a_negation_of_another_clause_is_not_dropped_by_a_claim_that_copies_the_unnegated_one():
    quote = ("The James Webb Space Telescope is not in orbit around the Earth, like the Hubble Space Telescope is - "
             "it actually orbits the Sun, 1.5 million kilometers (1 million miles) away from the Earth at what is "
             "called the second Lagrange point or L2. What is special about this orbit is that it lets the telescope "
             "stay in line with the Earth as it moves around the Sun.")
    r = check("The James Webb Space Telescope orbits the Sun, 1.5 million kilometers (1 million miles) away from "
              "Earth at what is called the second Lagrange point or L2.", quote)
    assert r.status is not U and r.status is not S
    # a claim that drops the negation of the clause it copies is still a flip
    assert check("The James Webb Space Telescope orbits the Earth.", quote).status is U
    assert check("The James Webb Space Telescope is in orbit around the Earth.", quote).status is U


_SUCCESSION = ("If the president dies, resigns or is removed from office, the vice president automatically becomes "
               "president. If the presidency and vice presidency both become vacant however, the statutory "
               "successor called upon would not become president, but would only be acting as president. No one "
               "lower in the line of succession has yet been called upon to act as president.")


def test_a_negation_moved_inside_its_sentence_is_not_dropped_though_the_quote_negates_elsewhere_too():
    r = check("If both the President and Vice President were to die, the statutory successor would become acting "
              "President and not the President.", _SUCCESSION)
    assert r.status is not U and r.status is not S
    # the copy that drops the negation, with none of its own, is still a flip
    assert check("If the presidency and vice presidency both become vacant however, the statutory successor called "
                 "upon would become president, but would only be acting as president.", _SUCCESSION).status is U


def test_ruled_out_denies_as_refused_to_does_on_either_side():
    quote = ("Credit Suisse's largest investor, Saudi National Bank, said it could not provide the Swiss bank with any "
             "further financial assistance, according to a Reuters report.")
    r = check("The Saudi National Bank, which is Credit Suisse's largest investor, ruled out providing further "
              "financial assistance to the Swiss bank.", quote)
    assert r.status is C and '"ruled out"' in r.note
    r = check("The bank said it could not provide further financial assistance to the Swiss bank.",
              "The bank ruled out providing further financial assistance to the Swiss bank.")
    assert r.status is not U and r.status is not S
    # without the particle "ruled" denies nothing, and a dropped negation is still a flip
    assert check("The bank said it could not provide further financial assistance to the Swiss bank.",
                 "The bank ruled on providing further financial assistance to the Swiss bank.").status is U
    assert check("The Saudi National Bank, which is Credit Suisse's largest investor, said it could provide further "
                 "financial assistance to the Swiss bank.", quote).status is U


def test_a_sentence_that_draws_so_avoid_from_what_it_names_denies_it():
    quote = ("Punishing or yelling at your cat for going outside the box can make those bad feelings worse, so avoid "
             "any negative reinforcements when accidents occur.")
    r = check("Do not punish the cat for going outside the box.", quote)
    assert r.status is C and '"avoid"' in r.note
    # a consequence that advises it, and a claim that avoids what the quote says to do, are not so read
    assert check("Do not punish your cat for going outside the box.",
                 "Punishing your cat for going outside the box works well, so use it when accidents occur.").status is U
    assert check("Avoid punishing your cat.", "Punish your cat when it goes outside the box.").status is not S


def test_a_dash_between_a_word_and_a_grouped_number_separates_a_range():
    quote = '"Smilodon" lived during the Pleistocene epoch (2.5 mya\u201310,000 years ago).'
    r = check("The Smilodon lived during the Pleistocene epoch, which was from 2.5 mya to 10,000 years ago.", quote)
    assert r.status is not U and "000" not in r.note
    assert check("The range is 5 km to 10,000 km.", "The range is 5 km-10,000 km.").status is not U
    # another end of the range is still another number, and a name's number stays a name's
    r = check("The Smilodon lived during the Pleistocene epoch, which was from 2.5 mya to 12,000 years ago.", quote)
    assert r.status is U and r.lacking
    assert check("The B-52 bomber flew 1,000 missions.", "The B-52 bomber flew 1,000 missions.").status is S


def test_a_negation_of_another_thing_in_the_claims_sentence_moved_nothing():
    assert check("The order of the attributes matters, and the policy server must reject attributes it does not "
                 "recognise.", "The order of the attributes does not matter. The policy server should ignore any "
                 "attributes that it does not care about.").status is U


def test_a_country_and_the_adjective_of_its_state_name_one_thing():
    quote = ("The Conservative Party, the Labour Party and the Liberal Democrats have, in modern times, been considered "
             "the UK's three major political parties, representing the British traditions of conservatism, socialism "
             "and liberalism, respectively.")
    claim = "These three parties represent the {} traditions of conservatism, socialism, and liberalism, respectively."
    assert check(claim.format("UK's"), quote).status is not U
    assert check("American troops left the base.", "US troops left the base.").status is not U
    # another country, or a part of the state, is still another name
    assert check(claim.format("French"), quote).status is U
    assert check(claim.format("English"), quote).status is U


_WRESTLING = ("When the First Modern Olympic Games held in Athens in 1896, Greco-Roman wrestling was introduced as an "
              "Olympic discipline. After not being featured in the 1900 Olympics, sports wrestling was seen again in "
              "1904 in St. Louis.",
              "It has been played at the Summer Olympics since the 1896 Olympics in Athens, and it has been a part of "
              "all modern Olympics except the 1900 Olympics in Paris.")


def test_a_name_the_quotes_state_beside_the_claims_neighbour_is_no_swap():
    r = check("Wrestling first showed up in the Olympics in 1896, when Greco-Roman wrestling was introduced as an "
              "Olympic discipline", *_WRESTLING)
    assert r.status is not U and r.status is not S
    # a name the quotes write beside another year is still a swap
    r = check("Wrestling first showed up in Paris in 1896, when Greco-Roman wrestling was introduced as an Olympic "
              "discipline", *_WRESTLING)
    assert r.status is U and r.rule == "near_copy:entity"


def test_less_of_one_word_is_no_opposite_of_more_of_another_the_claim_states():
    # fresh15 expertqa: "more moderate" / "moderate and less significant"
    quote = ("However, recent research also shows that these brain differences become more moderate over time, and by "
             "age 40 the difference between male brains and female brains is not so great.")
    r = check("Additionally, research has showed that these brain differences become moderate and less significant "
              "with age.", quote)
    assert r.status is C and '"more moderate"' in r.note
    # "less" of the very word the quote says "more" of is still the opposite
    assert check("Research has showed that these brain differences become less moderate over time.",
                 quote).status is U


def test_a_negated_adverb_in_ly_negates_its_adjective_too():
    # fresh15 expertqa: "could not have a lawful marriage" / "won't be lawfully recognised"
    quote = ("If a customary marriage is deemed lawful, then all spouses should be entitled to equal portions of the "
             "estate. Also, if a man is already married under the Marriage Act, he can't marry someone under the "
             "Customary Marriage Act as this won't be lawfully recognised.")
    r = check("A spouse who is married under the Marriage Act could not then also have a lawful marriage under the "
              "Customary Marriage Act.", quote)
    assert r.status is not U and r.status is not S
    # an adverb stated without negation negates nothing
    assert check("A customary marriage is not lawful.",
                 "A customary marriage is lawful and lawfully recognised.").status is U


def test_a_common_word_beside_a_name_ties_no_other_name_to_it():
    # fresh10 zs0128: "INT" stands beside "signals" in the quote, as any signal's name does
    assert check("The shell itself always ignores the INT signal.",
                 "The INT and QUIT signals for an invoked command are ignored if the command is followed by '&'. "
                 "The shell itself always ignores the QUIT signal.").status is U


def test_a_verb_denied_of_the_opposite_kind_is_not_denied_of_the_claims_kind():
    # fresh15 mufame: "Use positive reinforcement." / "Negative reinforcement ... shouldn't be used"
    quote = ("The more positive you are around the vacuum, the less scared the dog will be. Negative reinforcement may "
             "confuse or scare away your dog, and shouldn't be used when training it to be calm.")
    r = check("Use positive reinforcement.", quote)
    assert r.status is C and '"positive" / "Negative"' in r.note
    # the kind the quote denies it of is still a flip
    assert check("Use negative reinforcement.", quote).status is U


def test_a_view_the_text_reports_to_rebut_is_not_stated():
    # fresh15 mufame: "Do not multitask." / "Many people assume multitasking is ... However, ..."
    quote = ("Many people assume multitasking is a great way to get more done each day. However, focusing on "
             "multiple tasks at once actually makes you less productive.")
    r = check("Do not multitask.", quote)
    assert r.status is not U and r.status is not S
    # a view stated, or reported and left standing, is still denied by the claim
    assert check("Do not multitask.", "Multitasking is a great way to get more done each day. However, it tires "
                 "you.").status is U
    assert check("Do not multitask.", "Many people assume multitasking is a great way to get more done each "
                 "day.").status is U


def test_less_of_a_word_far_from_the_quotes_word_stays_an_opposite():
    # dev covidfact-561: "antibodies" stands in the claim, but "less" is said of another thing
    assert check("Rogue antibodies could be less severe covid-19.",
                 "The Covid-19 patients had more antibodies that had turned on them than people with lupus.",
                 "Those antibodies were not found in people with more mild cases of COVID-19.").status is U
