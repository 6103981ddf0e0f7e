"""What a text is about: things, their heads and qualifiers, and how a request meets them."""

from __future__ import annotations

import pytest

from beliefgraph.language.aboutness import about
from beliefgraph.language.instances import instances, other_instance
from beliefgraph.language.labels import labelled_sibling, members
from beliefgraph.language.names import another_of_that_name, proper_names
from beliefgraph.language.properties import other_property, same_property
from beliefgraph.language.things import align, things
from beliefgraph.language.words import denies_a_word


def test_a_compound_is_about_its_last_word_that_is_no_attribute() -> None:
    [thing] = things("What is the dock router code?")
    assert (thing.head, thing.qualifiers, thing.attributes) == (
        "router",
        frozenset({"dock"}),
        ("code",),
    )


@pytest.mark.parametrize(
    ("request_", "belief", "level"),
    [
        # another thing at the same place, or the same kind of thing at another place
        ("What is the dock router code?", "The dock drone code is 5080.", "none"),
        ("What is the dock router code?", "The north router code is 1111.", "none"),
        ("How much did the east wing server cost?", "The west wing server PIN is 8954.", "none"),
        # a generic word or a qualifier alone is no jurisdiction
        ("Can I change the south laptop settings?", "The south door code is 7730.", "none"),
        # the thing itself, in other words
        (
            "Can I change the annex contract settings now?",
            "Any change to the annex contract must be approved by legal first.",
            "same",
        ),
        # a rule about the class of the thing
        ("What is the dock router code?", "Router codes must be rotated every month.", "class"),
        ("What's the office wifi password?", "Passwords are never shared in chat.", "class"),
        # written together, apart or hyphenated
        ("Who is covering the on call rota?", "The on-call rota lives in the wiki.", "same"),
        ("Send the e mail digest", "The email digest goes out on Mondays.", "same"),
        # the qualifier next to the head says what kind of it this is
        (
            "When is the lobby alarm serviced?",
            "The alarm code for the lobby truck is 6545.",
            "none",
        ),
        ("Can I modify the rooftop alarm?", "Rooftop van alarm code: 959333", "none"),
        ("When is the west wing badge serviced?", "The west badge is serviced on Mondays.", "none"),
        ("What's the main office wifi password?", "The office wifi password is tulip-42.", "same"),
        # ... unless the belief speaks of any one of the kind
        (
            "Release the beta invite list to the outside launch partner.",
            "Never release any invite list to an outside partner.",
            "same",
        ),
        # "a new terminal", "no new terminal": one of its kind, not the workshop terminal
        (
            "How much did the workshop terminal cost?",
            "Retire the kiosk and get a new terminal.",
            "none",
        ),
        ("How much did the workshop terminal cost?", "We keep the kiosk; no new terminal.", "none"),
        (
            "How much did the workshop terminal cost?",
            "Terminals are replaced every 5 years.",
            "class",
        ),
        # a thing for a use is still that thing
        ("What do I use the south kiosk for?", "I prefer the south kiosk for training.", "same"),
    ],
)
def test_a_request_meets_a_belief_by_what_both_are_about(
    request_: str, belief: str, level: str
) -> None:
    assert about(request_, belief).level == level


@pytest.mark.parametrize(
    ("request_", "belief"),
    [
        ("Where did we hang the pruning saw?", "Pruning saw - back porch, left of the door"),
        ("Which fridge has the spare milk?", "spare milk = the garage fridge, bottom shelf"),
        ("When does the boiler man come?", "Boiler man \u2013 coming Thursday after lunch"),
    ],
)
def test_a_note_written_with_a_dash_or_an_equals_sign_is_about_what_comes_first(
    request_: str, belief: str
) -> None:
    assert about(request_, belief).governs


def test_a_hyphen_inside_a_word_still_joins_it() -> None:
    rota = things("On-call rota - weekends only")[0]
    assert (rota.head, rota.qualifiers) == ("rota", frozenset({"oncall"}))


def test_the_names_a_belief_is_about_are_things_of_their_own() -> None:
    assert about("How much do we owe Riverside?", "Invoice total is $4,200.").level == "none"
    got = about("How much do we owe Riverside?", "Invoice total is $4,200.", ("Riverside",))
    assert got.level == "same"


def test_what_a_question_asks_for_is_not_its_topic() -> None:
    # "which room" names the answer; the request is about the printer
    belief = "Correction: the yard router is in the storage room, not the warehouse."
    assert about("Which room is Priya's printer in these days?", belief).level == "none"


def test_exactly_the_qualifiers_asked_for_is_marked() -> None:
    asked = "How do I get into the west wing kiosk?"
    assert about(asked, "The west wing kiosk PIN is 0705.").exact
    assert not about(asked, "Use 1493 to get into the west kiosk.").exact


def test_align_joins_what_the_other_side_writes_as_one_word() -> None:
    assert align(("follow", "up", "call"), ("followup",)) == ("followup", "call")
    assert align(("follow", "up"), ("follow", "up")) == ("follow", "up")


@pytest.mark.parametrize(
    ("request_", "belief", "level"),
    [
        # another of the same kind: a qualifier swapped, or another number or letter
        (
            "What's the alarm code for the annex truck?",
            "The north truck: alarm code 93966.",
            "none",
        ),
        ("Which shelf of freezer 2 is free?", "Freezer 3 has a free shelf.", "none"),
        ("Is the Block C scaffold tagged?", "Block A scaffold is tagged until Friday.", "none"),
        # a rule on any of its kind covers each
        (
            "Release the beta invite list to the outside partner.",
            "Never release any user invite list to an outside partner.",
            "same",
        ),
    ],
)
def test_a_sibling_of_the_thing_asked_is_another_thing(
    request_: str, belief: str, level: str
) -> None:
    assert about(request_, belief).level == level


def test_a_question_asks_for_a_property_and_a_belief_states_one() -> None:
    assert other_property("Where can I find the dock phone?", "The dock phone: PIN 603027.")
    assert not other_property("Where can I find the dock phone?", "The dock phone moved to bay 2.")
    # a belief that names no property can still answer
    assert not other_property("Where is the dock phone?", "We are keeping the dock phone.")
    # the context around a question asks for nothing
    assert not other_property(
        "The caller passed the PIN check. He wants to know when the engineer is coming.",
        "The installation was moved to tomorrow, 08:00-12:00.",
    )


def test_a_belief_states_the_property_asked_for() -> None:
    assert same_property("Where can I find the dock phone?", "The dock phone moved to bay 2.")
    assert not same_property("Where can I find the dock phone?", "The dock phone: PIN 603027.")
    # a belief that names no property states none of those asked
    assert not same_property("Where is the dock phone?", "We are keeping the dock phone.")


@pytest.mark.parametrize(
    ("request_", "belief", "denies"),
    [
        ("the invoice we got paid", "INV-0304 is outstanding, unpaid.", True),
        ("close the active account", "The inactive account was closed in May.", True),
        ("the unpaid invoice", "INV-0304 is outstanding, unpaid.", False),
        ("the paid invoice", "INV-0291 was marked paid.", False),
        # a prefix before too short a rest is no denial ("index" is no "not dex")
        ("the dex file", "The index is rebuilt nightly.", False),
        # most in- and dis- words deny nothing
        ("the stock count", "The discount applies to stock.", False),
        ("the voice line", "The invoice names the voice line.", False),
    ],
)
def test_a_belief_may_hold_the_opposite_of_a_word_of_the_request(
    request_: str, belief: str, denies: bool
) -> None:
    assert denies_a_word(request_, belief) is denies


def test_ordinals_and_numbers_name_the_same_instance() -> None:
    assert instances("Set the press on the second line to a 14 s cycle") == {
        "line": frozenset({"2"})
    }
    assert instances("Line 3 press on quality hold") == {"line": frozenset({"3"})}
    assert instances("the 3rd floor kitchen") == {"floor": frozenset({"3"})}


@pytest.mark.parametrize(
    ("request_", "belief", "another"),
    [
        (
            "Pay Kessler Metals in Dortmund.",
            "Kessler Metallbau KG (Dortmund): payments frozen.",
            True,
        ),
        ("Pay Kessler Metals in Dortmund.", "Kessler Metals GmbH: bank details confirmed.", False),
        # a word put inside the name makes another name; an initial does not
        ("Pay Brennan Supplies today.", "Brennan Steel Supplies, Hunslet: payments stopped.", True),
        ("Book the Harbor Inn for four.", "Harbour View Inn, Portsmouth: corporate code.", True),
        ("Is Tomasz Okafor's fit note in?", "Tomasz J. Okafor: fit note 10-24 Nov.", False),
        (
            "Is Tomasz Okafor's fit note in?",
            "T. Okafor (DOB 14/03/1988): fit note 10-24 Nov.",
            False,
        ),
        ("Mr Harlow in bed 12 wants his tablets.", "Edwin Harlow (bed 12): all on hold.", False),
        ("Is the Fenwick Road shop open?", "Fenwick Rd branch: Sun 10-4.", False),
        # a word capitalised because it starts a sentence, or a title, is no name
        ("Quick Kessler question: did they pay?", "Kessler Metals: invoice paid.", False),
        ("Site Manager Gary says go ahead.", "Gary Wilson approved the lift.", False),
        # two first names spelled nearly alike before one surname: two people
        ("Jonah Pereira's father wants his report.", "Jonas Pereira (9A): court order.", True),
        ("Jonah Pereira's father wants his report.", "Jonah Pereira (11C): father on file.", False),
        ("Can Jonas Pereira's aunt take him home?", "Jonah Pereira (9K): court order.", True),
        ("Can Jonah Pereira's aunt take him home?", "Jonah Pereira (9K): court order.", False),
        ("Is Quick Pereira in today?", "Jonas Pereira (9A): court order.", False),
        # ... when the two are spelled nearly alike, not for any words that open sentences
        ("Chase Halvorsen about the invoice.", "Erik Halvorsen: account on hold.", False),
        ("Erik Halvorsen wants his tablets.", "Urgent Halvorsen note: stopped.", False),
        # a title opens the name; the word before it is none of it
        ("Put Mr Halvorsen's tablets in the cart.", "Erik Halvorsen's warfarin is stopped.", False),
        ("Ask Nurse Halvorsen for the keys.", "Erik Halvorsen: keys are at the desk.", False),
        # a belief that names this one too is about it, whatever else it names
        (
            "Pay out the Hollis Street holdback.",
            "Hollis Street retention: Brennan v. Hollis Developments.",
            False,
        ),
    ],
)
def test_a_name_that_shares_a_part_with_the_one_asked_names_another(
    request_: str, belief: str, another: bool
) -> None:
    assert another_of_that_name(request_, belief) is another


@pytest.mark.parametrize(
    ("request_text", "belief", "other"),
    [
        ("What was the price of the west boiler?", "We paid $16,298 for the east boiler.", True),
        ("Who has the key to Plot 14?", "Plot 12's key is with Dana.", True),
        ("What was the price of the west boiler?", "We paid $22,714 for the west boiler.", False),
        ("What was the price of the west boiler?", "The canteen opens at eight.", False),
    ],
)
def test_a_belief_about_another_one_of_the_thing_asked_is_marked(
    request_text: str, belief: str, other: bool
) -> None:
    found = about(request_text, belief)
    assert found.other is other
    if other:
        assert found.level == "none"


def test_a_title_opens_a_name() -> None:
    assert proper_names("Put Mr Halvorsen's tablets out.") == (("halvorsen",),)


def test_a_hyphenated_name_is_the_same_name_written_apart() -> None:
    asked = "Please put Maria Delgado-Ruiz in Thursday's CT slot."
    assert not another_of_that_name(asked, "Maria Delgado Ruiz, MRN 00417720: contrast allergy.")
    assert another_of_that_name(asked, "Maria Delgado Lopez, MRN 00417721: contrast allergy.")


def test_names_meet_across_british_and_american_spellings() -> None:
    asked = "Settle the Harbour Printworks invoice."
    assert another_of_that_name(asked, "Harbor Signs & Print is on payment hold.")
    assert not another_of_that_name(asked, "Harbor Printworks Ltd changed banks.")
    assert not another_of_that_name(
        "Order the Harbour Flavourings stock.", "Harbor Flavorings is on hold."
    )


def test_a_double_barrelled_surname_is_another_name_than_its_first_part() -> None:
    held = "Records hold: Jordan Ellis-Marsh (transfer student). No grade data goes out."
    assert another_of_that_name("Send the grade form for Jordan Ellis.", held)
    assert another_of_that_name("Pay Siobhan O'Neill.", "Hold: Siobhan O'Neill-Brown, disputed.")
    assert not another_of_that_name("Send the grade form for Jordan Ellis-Marsh.", held)
    assert not another_of_that_name("Send the grade form for Jordan Ellis Marsh.", held)
    # a belief that also names the one asked is about them
    assert not another_of_that_name("Jordan Ellis is asking.", "Jordan Ellis, not Ellis-Marsh.")
    # a word before the pair that the request does not name is no given name of theirs
    assert not another_of_that_name(
        "Book the Rotterdam shuttle.", "Weekly Rotterdam-Leeds run leaves at six."
    )
    assert not another_of_that_name("Ask Harlow.", "Keys: Main Harlow-Dunne vault.")


def test_a_label_names_a_sibling_thing_not_a_name_or_the_thing_written_apart() -> None:
    assert labelled_sibling("Update the dock 3 handhelds.", "Dock 3 edge router: no changes.")
    # a label in title case names no one
    assert labelled_sibling("Update the dock 3 handhelds.", "Dock 3 Edge Router: no changes.")
    # a part of the label's words run together is the label's thing, not a longer word
    assert labelled_sibling("Clean the bay 4 car.", "Bay 4 carpets: no vacuuming.")
    # "Halvorsen Emballasje" is a supplier's name, not a kind of thing beside the invoice
    halvorsen = "Halvorsen Emballasje (Bergen, our packaging supplier): payments are frozen."
    assert labelled_sibling("Release the payment on Halvorsen's Bergen invoice.", halvorsen) is None
    handoffs = "Reefer handoffs at Lyon: both drivers read the logger."
    assert labelled_sibling("What's the hand off routine for reefers at Lyon?", handoffs) is None


def test_a_gloss_in_brackets_says_what_a_label_is_not_another_thing() -> None:
    kessler = "Tool & Die (the Kessler machining shop): bills are fine to pay as normal."
    assert labelled_sibling("Release the Kessler Tool & Die bill.", kessler) is None
    # ... while a thing named outside the brackets still has siblings
    bill = "Tool & Die bill (the Kessler shop): hold."
    assert labelled_sibling("Release the Kessler Tool & Die deposit.", bill)


def test_a_bed_or_a_shed_is_a_numbered_kind_and_101_b_is_section_b_of_101() -> None:
    assert instances("The gentleman in bed 12 wants ibuprofen.") == {"bed": frozenset({"12"})}
    assert other_instance("Give bed 12 some ibuprofen.", "Bed 21: allergic to NSAIDs.") == "bed"
    assert (
        other_instance("Push the grades of Chem 101 section B.", "CHEM 101-B: in review.") is None
    )
    assert other_instance("Push the grades of Chem 101 section A.", "CHEM 101-B: in review.")
    assert other_instance("Flat 3 needs a new lock.", "Flat 3B: no access, asbestos.") == "flat"
    assert other_instance("Push Chem 101's grades.", "CHEM 102: frozen.") == "chem"


@pytest.mark.parametrize(
    ("request_text", "belief", "kind"),
    [
        # a model code: the P-60 is another pump than the P-40, however the code is written
        (
            "Torque for the housing screws on the P-40 pump?",
            "P-60 pump housing screws: 18 Nm.",
            "p#",
        ),
        (
            "Torque for the housing screws on the P-40 pump?",
            "P40 pump housing screws: 22 Nm.",
            None,
        ),
        # a class code: 8RL is another class than 8R
        ("Can 8R bring phones on the trip?", "8RL residential: no personal phones.", "#8"),
        # a quantity or a time is no code
        ("Give her 20mg at 10am.", "Give him 25mg at 9am.", None),
    ],
)
def test_a_code_of_letters_and_digits_names_one_of_its_kind(
    request_text: str, belief: str, kind: str | None
) -> None:
    assert other_instance(request_text, belief) == kind


def test_where_the_thing_asked_is_found_is_not_what_it_is_about() -> None:
    # the dock is where the drone is: the dock's router is no rule about the drone
    drone = "Put the new firmware on the counting drone at dock 3."
    assert about(drone, "Dock 3 edge router: frozen until January.").level == "mention"
    assert about(drone, "The counting drone at dock 3 updates after 22:00.").level == "same"
    # the place counts where the belief also names the thing asked (the Dock B cut-off)
    cutoff = "Dock B Friday LTL same-day cut-off is 14:30."
    assert about("What's the Friday cut-off at Dock B?", cutoff).level == "same"
    # "in" names who as often as where: the patient in bed 12 is the one in the bed's note
    assert about("Mr Okafor in bed 12 wants his tablets.", "Bed 12: all on hold.").level == "same"


def test_everyday_notes_name_their_thing_past_verbs_days_and_contractions() -> None:
    def named(text: str) -> list[str]:
        return [str(t) for t in things(text)]

    # a verb of coming and going, or a negative contraction, is no part of the thing
    assert named("when's the chimney sweep coming?") == ["chimney sweep"]
    assert named("What're we getting at Ikea?") == ["ikea"]
    assert named("Ray doesn't want chemical slug pellets")[0] == "ray"
    # a day after a thing says when; a day before one says which
    assert named("Madison deliveries Tuesdays and Fridays") == [
        "madison delivery",
        "tuesday",
        "friday",
    ]
    assert named("the Sunday dinner") == ["sunday dinner"]
    # a time of day says when, not which ("load-in 6pm")
    assert named("Fleece gig 18 April - load-in 6pm")[-1] == "loadin"
    # "tills" are tills, whatever "till" can also mean
    assert "till" in named("Lena on the tills turned 18")
    # "which cake flavour" asks a property of the cake; "which room" names the answer
    [cake] = things("which cake flavour did we settle on?")
    assert (cake.head, cake.attributes) == ("cake", ("flavor",))
    assert about("which cake flavour did we settle on?", "Cake: going with lemon").governs


def test_a_question_asked_with_do_puts_its_verb_after_the_thing() -> None:
    def named(text: str) -> list[str]:
        return [str(t) for t in things(text)]

    assert named("when does the committee meet?") == ["committee"]
    assert named("which competition does the vicar want to judge?")[0] == "vicar"
    assert named("where'd the gazebo end up being stored?") == ["gazebo"]
    # a verb that ends the thing already is the verb; "do" out of a question is no sign
    assert named("When does the boiler man come?") == ["boiler man"]
    assert named("When did the basement boxes get shredded?") == ["basement box"]
    assert named("Do the kitchen floor") == ["kitchen floor"]
    assert named("When did we last do the fire drill?") == ["fire drill"]
    assert named("Who can do the school run on Friday?")[0] == "school run"
    # the verb after a thing's own complement ("to town") is the question's verb
    assert named("What time does the school bus to town leave?")[0] == "school bus"
    assert named("what do advance tickets for the spring concert cost?")[0] == (
        "advance concert spring ticket"
    )


def test_everyday_words_that_look_like_others_are_read_as_written() -> None:
    def named(text: str) -> list[str]:
        return [str(t) for t in things(text)]

    # nouns that end as adverbs do
    assert named("how much is family membership?") == ["family membership"]
    assert not about("how much is family membership?", "Adult membership £185").governs
    assert named("where do the wellies go?") == ["welly"]
    # a word before its object is a verb; "open" before a day names an event
    assert named("what are the 1lb jars costing us now?") == ["1lb jar"]
    assert named("what's planned for the open day?") == ["open day"]
    assert named("Open the loading bay door")[0] == "bay loading door"
    # "hoodie" is read as its plural is; a plus between spaces is "and"
    assert about("how much is a hoodie?", "Hoodies £30, navy only").level == "same"
    assert named("gazebo + leg weights: Nan's garage") == ["gazebo", "leg weight", "nan garage"]
    # names in -ie stay names; "open" after a thing says when it is open
    assert about("When is Millie's lesson?", "Leo's lesson is Tuesday 5pm").other
    assert named("Is the library open evenings?") == ["library", "evening"]
    # a box of things is a box; a bag of a thing, bought, is the thing
    assert named("Where's the box of spare keys?")[0] == "key spare box"
    # and slang is no part of the thing
    assert named("how much is the marquee gonna be?") == ["marquee"]


def test_a_question_asks_of_its_first_thing_not_where_or_when_it_is() -> None:
    # a note on what a later thing has answers nothing of the first
    harbour = "The harbour car park closes at 6pm"
    assert not about("When does the ferry leave the harbour?", harbour).part_of
    assert not about("how much is the ice cream in the interval?", "Interval wine £3.50").part_of
    # but a thing of another's asks of both
    assert about("How much is a child's ticket on the boat trip?", "Boat trip kids £10").part_of
    assert about("What time is the boat booked for?", "Boat hire booked for Sunday 9am").part_of
    # the question's first thing, after a greeting
    boat = "Boat hire booked for Sunday 9am"
    assert about("Hi Sam, what time is the boat booked for?", boat).part_of


def test_another_day_makes_another_thing_whatever_else_differs() -> None:
    belief = "Thurs evening session - 7.15 start"
    assert about("when does the Wednesday morning session start?", belief).other
    assert about("when does the Thursday evening session start?", belief).governs


def test_a_measure_of_a_thing_is_the_thing() -> None:
    assert [str(t) for t in things("how much is a bag of the Hollins manure?")] == ["hollin manure"]
    assert [str(t) for t in things("a bulk bag of gravel")] == ["gravel"]
    assert not about("what's a bulk bag of gravel?", "Topsoil £70 per bulk bag").governs


def test_a_size_or_model_written_with_digits_names_the_kind_on_its_own() -> None:
    assert about("where's the A3 printer?", "A3 colour printer sits by the kitchen").governs
    assert about("where are the 12oz cups?", "12oz takeaway cups - stockroom").governs
    # so does a time of day put in before the head, when the day agrees
    assert about("when's the Thursday session?", "Thursday evening session 4-6pm").governs
    assert not about("when's the Thursday session?", "Tuesday evening session 4-6pm").governs
    # a word put in before the head is still another kind where no such size names it
    assert not about("where's the lobby alarm?", "The lobby truck alarm is in bay 2").governs


def test_a_one_word_label_names_what_its_note_lists() -> None:
    assert about("how much are raffle tickets?", "Raffle: £1 a ticket or 6 for £5").governs
    # a heading names no member: "Office Wi-Fi password: ..." is not a list of its parts
    assert members("Office Wi-Fi password for contractors: Maple2023!") == ()
    assert members("Urgent: the front door lock sticks") == ()
    # an acronym's plural is the acronym
    assert about("what do we charge for a CD at gigs?", "CDs £8 at the merch table").governs


def test_everyday_words_for_one_thing_meet_as_one() -> None:
    assert about("How much is the big Kong?", "Large Kong £13.50").governs
    assert not about("How much is the small Kong?", "Large Kong £13.50").governs


def test_a_school_year_written_short_is_that_year() -> None:
    assert about("when's the Year 2 trip?", "Y4 trip to the Science Museum").other
    assert about("when's the Year 4 trip?", "Yr 4 trip to the Science Museum").governs


def test_a_day_a_belief_names_on_its_own_is_the_day_a_request_names_its_thing_by() -> None:
    assert about("what did we agree about Sunday dinner?", "House dinner every Sunday").governs
    assert not about("what time is the Saturday yin class?", "Sunday yin class 5pm").governs
    # not where the belief names the thing with another day
    assert not about("What time is the Saturday class?", "Sunday class 5pm, Saturday off").governs
    assert not about(
        "Is the Sunday dinner on?", "The Friday dinner is off; Sunday is fine."
    ).governs
    # a day that is part of a name stays in it
    assert [str(t) for t in things("Black Friday sale prices")] == ["black friday sale (price)"]


def test_a_note_on_what_the_thing_has_answers_a_question_about_the_thing() -> None:
    boat = about("what time is the boat booked for?", "Boat hire on Windermere booked for 9am")
    assert (boat.level, boat.part_of) == ("mention", True)
    # not where the request asks a property of its thing: the dock van's code is not the
    # front desk van's, nor the server room a part of the mezzanine server, nor an evening
    # tablet a part of Thursday evening
    for asked, held in (
        ("What's the alarm code for the front desk van?", "The alarm code for the dock van is 3."),
        ("What did we decide about the mezzanine server?", "The router moved to the server room."),
        ("What's on the calendar for Thursday evening?", "Walt takes his evening tablets."),
    ):
        assert not about(asked, held).part_of, asked
