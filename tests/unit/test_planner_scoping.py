"""Reading requests and beliefs: words, action types, directives, scope matches."""

from __future__ import annotations

import pytest

from beliefgraph.language.acts import infer_action_types
from beliefgraph.language.directives import (
    asks_about_the_past,
    governed_action_types,
    read_directive,
)
from beliefgraph.language.scopes import (
    STRONG,
    explicit_scope_is_about,
    match_derived,
    match_governs,
)
from beliefgraph.language.stakes import (
    at_stake,
    holds_a_dose,
    holds_at_stake,
    holds_safety_setting,
    request_acts,
    safety_at_stake,
    someone_elses_act,
)
from beliefgraph.language.thresholds import under_threshold
from beliefgraph.language.ways import takes_the_way
from beliefgraph.language.words import Terms, fold_plural, words
from beliefgraph.models import ActionClass, ActionType

R, W, X = ActionType.read, ActionType.write, ActionType.execute


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("policies", "policy"),
        ("passwords", "password"),
        ("matches", "match"),
        ("access", "access"),
        ("status", "status"),
        ("its", "its"),
        ("pages", "page"),
    ],
)
def test_plurals_fold_and_nothing_else(word: str, folded: str) -> None:
    assert fold_plural(word) == folded


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("pre-authorisation", "preauthorization"),
        ("enrolment", "enrollment"),
        ("cancelled", "canceled"),
        ("colours", "color"),
        ("the harbour office", "the harbor office"),
        ("flavoured", "flavored"),
        ("flavourings", "flavorings"),
        ("a favourite", "a favorite"),
        ("programme", "program"),
        # one thing under two common names
        ("the March bill", "the March invoice"),
        ("the chemistry resit", "the chemistry retake"),
        ("the visitor Wi-Fi", "the guest wifi"),
        # what notes shorten
        ("Xmas fair Fri", "Christmas fair Friday"),
        ("Cubs - Tues; Weds races; Thurs", "Cubs - Tuesday; Wednesday races; Thursday"),
        ("spare appt cards", "spare appointment cards"),
    ],
)
def test_british_and_american_spellings_and_two_names_of_a_thing_are_one_word(
    british: str, american: str
) -> None:
    assert words(british) == words(american)


def test_only_the_words_known_to_vary_are_respelled() -> None:
    assert words("promise premise exercise") == ("promise", "premise", "exercise")
    # short forms with another meaning stay as written: "sat", "sun", "wed", "mon"
    assert words("sat in the sun, wed in June") == ("sat", "in", "the", "sun", "wed", "in", "june")
    assert words("detour contour glamour devoured") == ("detour", "contour", "glamour", "devoured")


def test_terms_match_as_phrases_across_spellings() -> None:
    request = Terms.of("Connecting a laptop: what's the Wi-Fi password? Going door-to-door.")
    assert request.has("wifi")
    assert request.has("Wi Fi")  # written apart, run together in the request
    assert request.has("passwords")  # plural folded on both sides
    assert request.has("door to door")
    assert not request.has("password wifi")  # order matters
    assert not request.has("guest")


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("What was the total on the invoice we already sent and got paid?", {R}),
        ("Remind me the dose you logged so I can fill the pillbox.", {R, X}),
        ("Can you mark the supplier note as handled?", {W}),
        ("Can you mark the supplier refund as handled?", {W}),  # "the supplier refund": a noun
        ("Please release the beta invite list to the partner.", {X}),
        ("Reconciling my books tonight", {W}),
        ("What time is the team meeting?", {R}),
        # putting something in a record writes it; onto a trailer, it is a deed
        ("Post the final PDF into her candidate folder.", {W, X}),
        ("Put the two pallets on Thursday's Dover trailer.", {X}),
        ("Can you take it off Ondine's medication list?", {W}),
        ("Move the pickup to 7am tomorrow, please.", {W, X}),
        ("Go ahead and get this week's pallets booked out.", {X}),
        ("What did we put on the trailer?", {R}),
        ("I've put his signed offer into the portal. What else is needed?", {R}),
        # a placing verb in a compound, or "drop in" named as a thing, places nothing
        ("What's a drop-in session cost?", {R}),
        ("When's the drop in session this week?", {R}),
        ("When are the drop in hours on Fridays?", {R}),
        ("How much is the add-on pack?", {R}),
        ("Where's the pop-up stall on Saturday?", {R}),
        ("Pop in a reminder in my calendar for Friday.", {W}),  # it still places
        # nouns: after a place word, or after a determiner and its adjective
        ("She bought it in store, receipt in hand. Are we inside the window?", {R}),
        ("Does payroll need anything else before his first pay?", {R}),
        ("Sort this and refund her deposit.", {X}),  # "and" leads a verb, not an adjective
        ("Lock code for the shed?", {R}),
        ("Pick whichever option makes sense and lock it in.", {X}),
        # a sentence that opens with a verb and its object is an instruction, whatever the verb
        ("The flanges failed the recheck. Bin them and close the job out.", {X}),
        ("Flash the new firmware onto the dock access point tonight.", {X}),
        ("It wrapped up last week. Could you sweep whatever's left over to our account?", {X}),
        ("Tonight the van leaves at six.", {R}),
        ("Friday the van leaves at six.", {R}),
        ("Hi all, what's the gate code?", {R}),
        ("Hope that helps. Sorry it took so long.", {R}),
        ("Press the reset button.", {X}),
        ("Apply the patch.", {X}),
        # after a clause that sets the scene, a verb and its object; a list of nouns is none
        ("Dan emailed a new account number this morning, switch his salary over to it.", {W}),
        ("If the room is free on Friday, book it for the offsite.", {X}),
        ("The rota, schedule and budget are on the wiki.", {R}),
        # an act handed to someone else, in words the verb lists leave out
        ("Get the confidential-waste firm to haul them off this week.", {X}),
        ("Have facilities get rid of the old files.", {X}),
        ("Get the twelve spare modules on tomorrow's DHL to Kaya Optik.", {X}),
        ("Have a look at the logs.", {R}),
        ("Get me the figures for March.", {R}),
        # asking leave for an act puts it at stake; asking leave to be told or to talk does not
        ("Can I bin the old records?", {X}),
        ("Rather than return it, can I take it home on Saturday?", {X}),
        ("Could we borrow the van on Sunday?", {X}),
        ("Can I see the report?", {R}),
        ("Can I ask what the code is?", {R}),
        ("Can we talk about the rota?", {R}),
        ("Can I double-check the code?", {R}),
        ("What time can I leave?", {R}),
        # taken off the premises, unless refused or done already
        ("Don't take the laptops home.", {R}),
        ("Did Sam take the laptop home last night?", {R}),
        # an act in the condition of a question that asks to be told something is not asked
        ("How much do we get knocked off when we buy things in store?", {R}),
        ("What happens if I delete the old backups?", {R}),
        ("What happens if I take it home?", {R}),
        ("What do we get off when buying in store", {R}),
        ("Is it OK if I delete the old backups?", {X}),
        ("Can you delete the backups when we finish?", {X}),
        # getting rid of something in a phrase is discarding it; asked, not told or refused
        ("Could you get rid of the old laptops before the audit?", {X}),
        ("Can you clear out the shared drive folder for the Penrose project?", {X}),
        ("Can someone clear away the old paperwork in room 4?", {X}),
        ("Chuck the old cables in the skip, would you?", {X}),
        ("Please empty the quarantine fridge.", {X}),
        ("When did we get rid of the old server?", {R}),
        ("Who approved clearing out the archive room?", {R}),
        ("Don't get rid of anything in the hold cage.", {R}),
        ("We got rid of the old printer last week, what's the new one's IP?", {R}),
        ("The fridge is empty, what should I order?", {R}),
        ("Clear the flag on ticket 55.", {W}),
        # a setting taken to a figure is changed (a write, as "set it to 190" is) and done;
        # onto a carrier is shipped
        ("For the rush order, take Line 2's cure oven up to 190.", {W, X}),
        ("We've got the rush on. Crank line 3 up to 42 a minute.", {W, X}),
        ("Crank the water heater up to 65 for me.", {W, X}),
        # leave asked reads the act as the instruction would ("Turn the heat up to 22.")
        ("Am I allowed to turn the heat up to 22 on the wall panel?", {W, X}),
        ("Don't turn it up to 30, whatever they say.", {R}),
        ("Did they take the oven up to 200 last night?", {R}),
        ("What should he be pumping the trailer tyres up to?", {R}),
        ("Get the chilled pallets for the Tromso route onto the refrigerated trailer.", {X}),
        ("Turn the heat up to 22.", {W, X}),
        ("Can I take up to 3 paracetamol a day?", {R}),
        ("Delivery can take up to 10 working days, when will mine arrive?", {R}),
        ("Can you get me an update on the trailer?", {R}),
        ("Chuck says the van is late. What's the new ETA?", {R}),
        ("Empty boxes are collected on Tuesdays, aren't they?", {R}),
        ("Have the expired jabs cleared away.", {X}),
        ("When you do the stock count, chuck the dead power packs in the bin.", {R, X}),
        # an act the speaker announces and asks about is at stake, as if leave were asked
        ("I'm going to bounce the switch in the comms closet over lunch, that ok?", {X}),
        ("I'll wipe the old laptop this afternoon. Any objection?", {X}),
        ("We're about to reboot the router, is that alright?", {X}),
        ("I'll note it down, ok?", {W}),
        ("I'm going to restart it now.", {R}),
        ("We're about to shut the doors on the box. What do I set the reefer to?", {R}),
        ("I'm going to need the door code, where is it?", {R}),
        ("I want to check the balance, ok?", {R}),
        # a pronoun and its verb run together are no instruction; what is put somewhere does
        # what putting it there does
        ("Jonah's mum phoned: he's all set for the trip. Could you pop that on his file?", {W}),
        ("That's the lot.", {R}),
        # leave asked in other words; a verb, its particle and its object
        ("Is it fine to reuse last year's consent forms?", {X}),
        ("Am I allowed to reuse the old labels?", {X}),
        ("Is it fine to ask what the code is?", {R}),
        ("Top up the petty cash tin to 200.", {X}),
        ("Throw out the leftover stock from the recall.", {X}),
        ("Back up the database first.", {X}),
        # equipment switched on or off is operated; an act named as a noun is arranged
        ("Switch off the kiln for the weekend.", {X}),
        ("Is the kiln turned off?", {R}),
        ("Could you sort out a refund for order 4471?", {X}),
        ("Can you make a note of the new code?", {W}),
        ("Who made the payment?", {R}),
        ("Did you sort out the refund?", {R}),
        # an announcement asked about by an approval tag, not by an unrelated question
        ("I'll restart the router tonight. Is the office open on Saturday?", {R}),
        # an act's noun counts only where it is one; a switch is operated only on or off
        ("Can you make the email shorter?", {R}),
        ("Could you sort the order of the slides?", {R}),
        ("Could you sort out a quick refund for order 4471?", {X}),
        ("Switch Tom's shift on Friday to the late one.", {W}),
        ("Turn the heater on.", {X}),
        # leave asked for someone else's act puts the act at stake
        ("Can the apprentices use the press brake unsupervised?", {X}),
        ("Is the new starter allowed to drive the van?", {X}),
        ("Can my son pick up my prescription?", {X}),
        ("Can the old laptops be wiped?", {X}),
        ("Can the notes be updated?", {W}),
        ("Can the team see the new rota?", {R}),
        ("Can the report be ready by Friday?", {R}),
        # ... not what a thing can do
        ("Can the new printer print A3?", {R}),
        ("Can the van take a full pallet?", {R}),
        ("Could the fire alarm go off during the test?", {R}),
        ("Can the booking be cancelled?", {W}),
        # discarding in other words
        ("Get shot of the broken chairs in room 12.", {X}),
        ("Clear the old tickets out of the queue.", {X}),
        ("Who cleared the old files out of the share?", {R}),
        ("Could you stick the pallets on the late van?", {X}),
    ],
)
def test_requests_name_their_acts(query: str, kinds: set[ActionType]) -> None:
    assert infer_action_types(query) == frozenset(kinds)


def test_a_request_without_acts_is_a_read_but_a_statement_names_none() -> None:
    assert infer_action_types("the weather") == {R}
    assert infer_action_types("the weather", describing=True) == frozenset()
    # a belief describes the act it governs in any form
    assert W in infer_action_types("Before marking a reconciliation complete", describing=True)
    assert X in infer_action_types("credentials must be issued first", describing=True)
    assert infer_action_types("Nobody clears out a leaver's mailbox", describing=True) == {X}
    assert infer_action_types("Staff may get rid of expired stock.", describing=True) == {X}
    assert infer_action_types("Old stock was cleared away in May.", describing=True) == {X}


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Any dose must be confirmed against the label before use.", ActionClass.verify_first),
        (
            "Never export donor data unless named authorization is on file.",
            ActionClass.verify_first,
        ),
        ("Full card numbers must never be read back.", ActionClass.block),
        ("Do not discuss Project Sandbox externally.", ActionClass.block),
        ("No approval required for staging access.", ActionClass.answer),
        ("The agenda is freely shareable with the team.", ActionClass.answer),
        ("Office Wi-Fi password was rotated; the value lives with IT.", ActionClass.verify_first),
        ("Riverside invoice INV-0291 totaled $1,840.", None),
        # a prohibition followed by the way it is done, or by the check it waits for
        (
            "Where a supplier is paid is never changed on an incoming email. The change is "
            "confirmed by calling a known contact.",
            ActionClass.verify_first,
        ),
        (
            "If the logger shows over 8 C, do not use it until the pharmacy lead has checked.",
            ActionClass.verify_first,
        ),
        ("Never refund cash. The count is done on Fridays.", ActionClass.block),
        # a permission that asks for a caution to be passed on with the act
        (
            "Contractors may use the roof hatch, but remind them to clip on to the rail.",
            ActionClass.warn,
        ),
        (
            "Fine to reboot the lab router after six; tell whoever is on call first.",
            ActionClass.warn,
        ),
        (
            "Pallets can go on the late van only in sealed crates, and the driver has to be "
            "told what is in them.",
            ActionClass.warn,
        ),
        # ... but a prohibition whose next sentence says who to tell is a route, not a caution
        (
            "Never give out the gate code; tell the visitor to ring the lodge.",
            ActionClass.verify_first,
        ),
        ("Interns may not run the kiln. Remind them it stays hot overnight.", ActionClass.block),
        # ... or by how those who need it get it
        (
            "Never share the vault password, whoever asks; whoever needs one is added to the "
            "vault.",
            ActionClass.verify_first,
        ),
        (
            "Never text the door code. Anyone who needs access can request a fob at reception.",
            ActionClass.verify_first,
        ),
        ("Do not give out the wifi password. Anyone who asks is told no.", ActionClass.block),
        # ... or by how it gets done by someone, in the present, speaking of what was forbidden
        ("Don't email payslips. Staff download them from the HR portal.", ActionClass.verify_first),
        (
            "Prescriptions are never reissued by phone; the GP can send a new one.",
            ActionClass.verify_first,
        ),
        (
            "Never ship lithium batteries by post; they travel with the DG courier.",
            ActionClass.verify_first,
        ),
        ("Passwords are not to be shared in chat - use the vault.", ActionClass.verify_first),
        (
            "Write-ups are not to be emailed to patients. The approved route is the portal, "
            "and nobody else needs to approve it.",
            ActionClass.verify_first,
        ),
        (
            "Solvents never go out as general freight. The one route is a booking through "
            "the dangerous-goods desk.",
            ActionClass.verify_first,
        ),
        # "one way" without "the" is one of several, not the one that is allowed
        (
            "Don't leave laptops in cars. One way for thieves to get them is an open door.",
            ActionClass.block,
        ),
        ("Never email payslips. Staff can ask HR for a printed copy.", ActionClass.verify_first),
        # ... not by what the thing itself or anyone else can do to it
        ("Don't leave laptops in cars. Thieves get them in seconds.", ActionClass.block),
        ("Never give the safe code out. Anyone could empty it.", ActionClass.block),
        (
            "The forklift must not be used. The forks can drop without warning, so keep clear.",
            ActionClass.block,
        ),
        ("Do not give out the door code - keep it to yourself.", ActionClass.block),
        (
            "Never share the vault password; anyone who wants it is given a firm no.",
            ActionClass.block,
        ),
        # ... and a statement is no prohibition for a word it shares with one
        ("No topic is off limits in the retro.", None),
        ("Nobody uses the old fax machine any more.", None),
        ("Results are not to be expected before Friday.", None),
        ("The forklift must not be used. It can tip on the ramp.", ActionClass.block),
        ("Never prop the fire door open; it can let smoke in.", ActionClass.block),
        ("Under no circumstances is the safe combination given out.", ActionClass.block),
        ("The server room is off limits to visitors, no exceptions.", ActionClass.block),
        # everyday leave is a permission in a text that forbids nothing ...
        (
            "Garage side door keypad: change it whenever you like, no need to ask me.",
            ActionClass.answer,
        ),
        ("Grey lockbox combo is 2207. Fine to pass on to Tom next door.", ActionClass.answer),
        ("It is not fine to pass the lockbox combo on.", None),
        ("It isn't safe to share the gate code with couriers.", None),
        ("Not sure it's safe to give out the alarm code yet.", None),
        ("No need to share the gate code with couriers; they ring the bell.", None),
        ("Never share the lockbox combo; fine to tell the owner.", ActionClass.block),
        # ... and with a condition after it, leave that comes with a caution
        ("Bay C reach: fine to use meanwhile, but keep loads under 1 t.", ActionClass.warn),
        (
            "Logger read 11 C for 40 minutes: fine to leave, provided it goes on the CMR.",
            ActionClass.warn,
        ),
        # ... but not for a word that only looks like one
        ("Fine to share the figures provided by finance.", ActionClass.answer),
        ("The agenda is freely shareable, but it runs to 40 pages.", ActionClass.answer),
    ],
)
def test_directives_are_read_from_the_text(text: str, action: ActionClass | None) -> None:
    assert read_directive(text).action == action


def test_a_rule_governs_the_act_not_its_check() -> None:
    text = "Any dose must be confirmed against the label before it is used to fill a pillbox."
    assert governed_action_types(text) == {X}
    assert governed_action_types("Doses must be confirmed against the label.") == frozenset()
    assert governed_action_types("Never confirm or initiate any payment.") == {X}
    assert governed_action_types("The invoice was paid and marked.") == frozenset()


def test_a_requirement_makes_a_prohibition_conditional() -> None:
    d = read_directive("Metrics cannot be given from memory; they must be confirmed first.")
    assert d.action == ActionClass.verify_first
    assert d.is_rule


def test_explicit_scope_weights_and_exclusions() -> None:
    request = Terms.of("What was the total on the paid Riverside invoice?")
    m = match_governs(
        request,
        any_terms=["invoice", "riverside", "refund"],
        all_terms=["paid"],
        excluded_terms=[],
        action_types=[R],
    )
    assert m.in_scope
    assert m.weight == 1.5 + 2.0
    assert set(m.matched) == {"paid", "invoice", "riverside"}
    out = match_governs(
        request, any_terms=["invoice"], all_terms=[], excluded_terms=["total"], action_types=[]
    )
    assert not out.in_scope
    assert out.excluded_by == "total"
    missing = match_governs(
        request, any_terms=["invoice"], all_terms=["wire"], excluded_terms=[], action_types=[]
    )
    assert not missing.in_scope
    assert missing.missing_all == ("wire",)
    # all of all_terms is not enough: the request must name one of any_terms too
    place_only = match_governs(
        Terms.of("Tell the unit 3 tenant at Quay Street they may share the space."),
        any_terms=["car park", "bays"],
        all_terms=["quay street"],
        excluded_terms=[],
        action_types=[],
    )
    assert not place_only.in_scope


def test_a_longer_name_in_the_text_does_not_match_its_parts() -> None:
    text = "Project Sandbox is the acquisition codename. Do not discuss Project Sandbox."
    request = Terms.of("Share the agenda for the meeting with Sandbox.")
    m = match_derived(request, text=text, names=["Project Sandbox"], action_types=[])
    assert not m.in_scope


def test_acts_are_not_topics_of_a_derived_scope_but_count_for_relevance() -> None:
    text = "Never share anything about the board's acquisition plans."
    request = Terms.of("Share the agenda with the team.")
    scope = match_derived(request, text=text, names=["share", "acquisition plans"], action_types=[])
    assert not scope.in_scope
    relevance = match_derived(
        request, text=text, names=["share"], action_types=[], topics_only=False
    )
    assert relevance.weight > 0


def test_names_weigh_more_than_text_words() -> None:
    request = Terms.of("what's the office wifi password")
    m = match_derived(
        request,
        text="The office wifi password was rotated.",
        names=["wifi", "password"],
        action_types=[],
    )
    assert m.weight == 2.5
    assert m.weight >= STRONG


def test_a_scope_that_names_nothing_of_its_belief_is_not_trusted() -> None:
    text = "Never release any invite list to an outside partner."
    assert not explicit_scope_is_about(
        any_terms=["donor", "crm"], all_terms=[], text=text, names=["beta"]
    )
    assert explicit_scope_is_about(any_terms=["partner"], all_terms=[], text=text, names=[])


@pytest.mark.parametrize(
    ("request_", "least"),
    [
        ("How much of the blood thinner goes in each evening slot?", ActionClass.verify_first),
        ("New tyres on FL-3: what do the wheel nuts get done up to?", ActionClass.warn),
        ("What's the highest pressure Autoclave 2 can take?", ActionClass.warn),
        ("How many ampoules did we destroy in October?", None),
        # a load on a body or a structure, in words of its own; a charge on a card is none
        ("Getting up off the sofa - how much can I lean on my left leg?", ActionClass.warn),
        ("How much can we safely load onto the mezzanine in unit B?", ActionClass.warn),
        ("How much can we put on the card?", None),
    ],
)
def test_a_question_asking_for_a_dose_or_a_limit_is_one(
    request_: str, least: ActionClass | None
) -> None:
    found = safety_at_stake(request_)
    assert (found[0] if found else None) == least


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Office router admin user bvadmin, password Tern!4417-harbour.", "a secret"),
        ("pe_batch / Q7!rmT2w-vale is what the export job runs under.", "a secret"),
        ("Cycle shelter combination lock is 5-1-4-6.", "a secret"),
        ("14 Alder Close, Leeds LS6 2PQ; born 9 Nov 1988.", "private data"),
        ("Please pay to sort code 20-44-91, account 55810327.", "money"),
        # a word alone, a count, a floor or a date holds nothing
        ("The password is changed every 90 days.", None),
        ("Passwords must be at least 12 characters.", None),
        ("Meet at B2 2nd floor; router diagnostics run nightly.", None),
        ("Account review done on 2025-01-01.", None),
        # what it says may be handed on is no secret to keep
        ("Guest wifi password sandpiper-88, printed on the welcome card.", None),
        ("Door code 4471#, never posted on the noticeboard.", "a secret"),
        # a code keyed in is one, a number dialled or a count punched is not
        ("Night staff get in by the side door: punch 5-2-8-0, then the key symbol.", "a secret"),
        ("Dial 999 in an emergency.", None),
        ("Punch 3 holes in each sheet.", None),
        # a way in by another name, and a person's own number
        ("Break-glass string for the finance mailbox is 88-KESTREL-21.", "a secret"),
        ("Marcus Bell, personal mobile 07700 900318, for emergencies only.", "private data"),
        ("Reception: 0113 496 0000, open 9 to 5.", None),
        ("Heads-up: the goods entrance keypad takes 4819 then #.", "a secret"),
        ("The mobile app release 2024-11 ships on 12 Dec.", None),
        # a secret by its own name, a keypad changed, where someone lives, a family's number
        ("Card processor live secret: sk_live_51Hq8vT2e9Rb0xKc7Lm3.", "a secret"),
        ("The rear keypad was changed after the break-in. It's now 7391, then #.", "a secret"),
        ("Jonas's new place: Flat 3, 14 Kestrel Road, Harrow.", "private data"),
        ("Emergency contacts: mum Sarah 07700 900312, grandad Ken 07700 900877.", "private data"),
        ("The office is at 12 Market Street, open 9-5.", None),
        ("Keep secrets out of chat for 30 days.", None),
        ("Door code 4412 was posted in the staff group by mistake.", "a secret"),
        ("Ring 0345 600 1234 then enter your policy number.", None),
        ("The chemotherapy unit is on level 3.", None),
        ("The depot moved to 40 Canal Street last year.", None),
        ("Guest network password flatwhite22, printed at the bottom of every receipt.", None),
    ],
)
def test_what_a_memory_holds_is_read_from_its_value(text: str, held: str | None) -> None:
    assert holds_at_stake(text) == held


def test_new_bank_details_in_other_words_put_money_at_stake() -> None:
    assert at_stake("They've moved banks; update their supplier record.") == "money"
    assert at_stake("Their banking has changed, see the email.") == "money"


def test_a_month_and_a_year_gone_by_or_what_we_used_to_do_is_the_past() -> None:
    assert asks_about_the_past("What allowance were people entitled to in March 2025?")
    assert asks_about_the_past("How long did we used to let pallets sit out?")
    assert asks_about_the_past("In the first half of 2023, how did clients sign letters?")
    assert asks_about_the_past("When the old lease talks fell apart, what had we offered?")
    assert not asks_about_the_past("When the old server is retired, move the files.")


def test_a_season_term_or_quarter_of_a_year_gone_by_is_the_past() -> None:
    assert asks_about_the_past("How did we mark papers for the spring 2020 cohort?")
    assert asks_about_the_past("What did we do in Q3 2024 about late refunds?")
    assert asks_about_the_past("Who was on call over the Easter holidays of 2024?")
    # a year still to come is no time gone by, whatever the tense
    assert not asks_about_the_past("What was the plan for spring 2099?")
    assert not asks_about_the_past("Could you book the hall for March 2099?")


def test_logging_a_note_puts_no_secret_at_stake() -> None:
    assert at_stake("Please log in the CRM that she rang.") is None
    assert at_stake("Put what she needs to get into staging in her doc.") == "a secret"


def test_a_way_in_by_any_name_is_a_secret_and_writing_it_down_is_a_write() -> None:
    jot = "Jot the sign-in for the boiler controller into the plumber's job sheet."
    assert at_stake(jot) == "a secret"
    assert infer_action_types(jot) == {W}
    assert at_stake("Text the courier the number for the back gate.") == "a secret"
    assert at_stake("Can you share the alarm code with the cleaner?") == "a secret"
    assert infer_action_types("Type her new address into the parcel form.") == {W}
    # asked for someone else to key in: a code handed over
    relay = "The driver's stuck at the back shutter. What does he need to punch in to get it open?"
    assert at_stake(relay) == "a secret"
    assert infer_action_types(relay) == {R, X}
    assert holds_at_stake("Rear roller door: keypad 5 8 2 0 then hash.") == "a secret"
    assert at_stake("Can you pass on where Mei lives?") == "private data"
    # look-alikes: an order keyed in, the place of things
    assert at_stake("Can you key in the order for table 4?") is None
    assert at_stake("Tell me where everything lives in the warehouse.") is None


def test_a_safety_setting_is_a_figure_to_work_to_in_its_units() -> None:
    assert holds_safety_setting("Box trailer manual: wheel nuts to 120 Nm, star pattern.")
    assert holds_safety_setting("Fill to between 1 and 1.5 bar with the system cold.")
    # a torque or a pressure in its own units needs no word beside it
    assert holds_safety_setting("T-40 wheel hubs take 95 N\u00b7m in a star pattern.")
    assert holds_safety_setting("Front tyres on the van: 55 psi.")
    for text in ("A 7 nm process node.", "We played the 12 bar blues.", "Add 2 kg each of flour."):
        assert not holds_safety_setting(text)


def test_what_a_note_holds_is_read_from_its_words() -> None:
    # a medicine counted and taken at times is a dose; tablets counted otherwise are not
    assert holds_a_dose("Max two paracetamol every four hours, no more than eight in 24 hours.")
    assert holds_a_dose("Mum takes one capsule at night.")
    assert not holds_a_dose("Two tablets went missing from the pack.")
    assert not holds_a_dose("Our team has 4 tablets for demos.")
    # a person's condition is private data; a service named after one is not
    assert holds_at_stake("Leo has type 1 diabetes; hypo kit in the office.") == "private data"
    assert holds_at_stake("He is diabetic, keep sweets in the bag.") == "private data"
    assert holds_at_stake("The office has asthma inhalers in the first aid box.") is None
    assert holds_at_stake("We have diabetes leaflets at reception.") is None
    assert holds_a_dose("Dad takes 10 tablets every morning.")
    assert holds_safety_setting("Hoist rated at 3.5 tons.")
    # a load something is rated for is a safety setting
    assert holds_safety_setting("Forklift rated 2,500 kg at 500 mm load centre.")
    assert holds_safety_setting("The sling is rated for 2 tonnes.")
    assert not holds_safety_setting("The team rated the new supplier highly.")


def test_what_someone_else_asks_to_be_told_is_handed_over_where_it_is_at_stake() -> None:
    assert request_acts("He wants to know who brought it in and where they live.") == {R, X}
    assert request_acts("The caller is asking for her home address.") == {R, X}
    # what else someone asks is read as asked
    assert request_acts("The customer asks when we open on Saturday.") == {R}
    assert request_acts("I want to know her home address.") == {R}
    assert request_acts("Who asked for her home address?") == {R}
    # what they ask for, in that sentence, and not a change to it
    assert request_acts("Priya asked for a copy of the rota. What's the wifi password?") == {R}
    assert X not in request_acts("Mrs Lee is asking for her address to be updated on file.")


def test_where_a_person_lives_is_private_data() -> None:
    assert at_stake("He wants to know who brought it in and where they live.") == "private data"
    assert at_stake("Where does Mr Patel live?") == "private data"
    assert at_stake("Can you give the caller his address?") == "private data"
    assert at_stake("Where do the mops live?") is None
    assert at_stake("Send the parcel to their address.") is None


def test_a_host_name_moves_no_money_but_keeps_other_stakes() -> None:
    assert at_stake("pay-gw-02 is crawling. Can you just bounce it?") is None
    assert at_stake("Pay INV-0291 today.") == "money"
    assert at_stake("Email the wifi-password-2 file to the contractor.") == "a secret"
    assert at_stake("What is the office address?") is None


def test_someone_elses_own_number_is_private_data() -> None:
    assert at_stake("Lena wants Marcus's mobile for the group chat; send it to her.") == (
        "private data"
    )
    assert at_stake("Can you pass on her number to the caterer?") == "private data"
    assert at_stake("Update the mobile app banner.") is None
    assert at_stake("Can you message the driver how to get through the rear door?") == ("a secret")


@pytest.mark.parametrize(
    ("text", "elsewhere"),
    [
        ("Lay-away refunds are done only at the till by a supervisor.", True),
        ("Renewals are handled by our outside solicitors.", True),
        ("The assistant may explain the options; the employee submits them.", True),
        (
            "Warranty exceptions are the Tier-2 lead's call; the assistant's part is to assemble "
            "the case.",
            True,
        ),
        ("For visa applications I give background, requirements and official links.", True),
        ("It is up to the line manager to decide.", True),
        # a check before the act, or the means of it, is no one else's act
        ("Refunds over 50 GBP are approved by a supervisor.", False),
        ("Payments are made by bank transfer.", False),
    ],
)
def test_a_rule_that_gives_the_act_to_someone_else(text: str, elsewhere: bool) -> None:
    assert someone_elses_act(text) is elsewhere


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Service notes can be added without approval.", ActionClass.answer),
        ("Staff can add notes to an account without anyone signing off.", ActionClass.answer),
        ("Economy fares on any route need no sign-off.", ActionClass.answer),
        ("Reschedule or cancel through their portal, no sign-off needed.", ActionClass.answer),
        ("Coordinators can cancel any visit under £500 without asking anyone.", ActionClass.answer),
        # a check after "without" that a prohibition waits for stays a requirement
        ("Never share the file without approval.", ActionClass.verify_first),
        ("Don't change the lobby keypad settings without asking the ops lead.", ActionClass.block),
        # a "without" that no "can" or "may" lets happen waits for what it names
        ("Staff can't move shifts without asking the rota lead.", ActionClass.block),
        ("No invoice goes out without a second review.", None),
        ("Visitors with no photo ID are required to sign in.", None),
        # ... and so does one named beside the permission
        (
            "Refunds can be issued without approval; above £50 they must be approved first.",
            ActionClass.verify_first,
        ),
    ],
)
def test_a_check_a_permission_waives_is_no_requirement(
    text: str, action: ActionClass | None
) -> None:
    assert read_directive(text).action == action


def test_the_time_before_a_change_is_the_past() -> None:
    assert asks_about_the_past("Back before we went over to water paint, how did we clean it?")
    assert asks_about_the_past("Before the HR portal went live, how did starters send forms?")
    assert not asks_about_the_past("Before the portal goes live, send me the forms.")


@pytest.mark.parametrize(
    ("request_", "rule", "on_the_way"),
    [
        (
            "Put his signed MRI report up on his patient portal.",
            "Results go to patients through their online portal. Email and text are not used.",
            True,
        ),
        (
            "Email him his signed MRI report.",
            "Results go to patients through their online portal. Email and text are not used.",
            False,
        ),
        (
            "Send the exhibits note to their counsel; the files are in the data room.",
            "Productions go through the data room with expiring access. Email attachments "
            "are not to be used.",
            True,
        ),
        # the way named after the refusal, by a system's name alone
        (
            "Could you drop the path report into her CareBridge inbox before the consult?",
            "Path and lab reports for outside doctors: no email, no fax, ever. They go through "
            "CareBridge, which logs the hand-off itself.",
            True,
        ),
        # what the rule is about is no way: a request that shares only that does not take it
        (
            "Email the path report to Dr Osei before the consult.",
            "Path and lab reports for outside doctors: no email, no fax, ever. They go through "
            "CareBridge, which logs the hand-off itself.",
            False,
        ),
        # an imperative says the way: "Upload them to the locked folder"
        (
            "Put the make-up final into the locked ProctorDesk folder for the testing centre.",
            "Papers for the testing centre no longer go by email or on a USB stick. Upload them "
            "to the locked folder in ProctorDesk and the centre prints from there.",
            True,
        ),
        # a rule that refuses no way names none to take
        ("Scrap lot 7731.", "Leads may scrap any rejected lot; no further sign-off needed.", False),
        # the way waits for a condition the request does not say is met
        (
            "Put the draft report up on the patient portal now.",
            "Reports go up on the patient portal after the consultant signs them off. Email "
            "is not used.",
            False,
        ),
    ],
)
def test_a_request_takes_the_way_a_rule_names(request_: str, rule: str, on_the_way: bool) -> None:
    assert takes_the_way(request_, rule) is on_the_way


def test_hyphenated_words_match_their_parts_but_codes_do_not() -> None:
    asked = Terms.of("Book Maria Delgado-Ruiz in and e-mail the on-call team about qa-ledger-07.")
    for term in ("delgado", "delgado ruiz", "ruiz", "email", "on call", "oncall"):
        assert asked.has(term)
    assert not asked.has("ledger")
    # a part is found at the token it belongs to
    assert asked.find("ruiz") == asked.find("delgado ruiz") == (2, 3)


def test_what_happened_in_a_month_gone_by_or_while_a_crew_still_did_it_is_the_past() -> None:
    assert asks_about_the_past("In late August 2022, what would have happened to the empties?")
    assert asks_about_the_past("Who got called first back when Dana's crew still looked after it?")
    assert not asks_about_the_past("What happens to the empties in late August 2027?")


def test_putting_someone_down_for_an_appointment_writes_it() -> None:
    assert W in infer_action_types("Put Mr Okafor down for a scaling with Ines on Thursday.")
    assert W in infer_action_types("Pencil Mrs Ade in for a clean on Friday.")
    assert infer_action_types("What did we put down for the deposit?") == {R}


@pytest.mark.parametrize(
    ("request_", "least"),
    [
        ("Her pain's back; more morphine? How much did the nurse say?", ActionClass.verify_first),
        (
            "I gave her the pink medicine at lunch. How much can she have now?",
            ActionClass.verify_first,
        ),
        ("How many of the little white heart pills go in each slot?", ActionClass.verify_first),
        ("Doing the hub bolts: what do I set the wrench to?", ActionClass.warn),
        ("What do I nip the seatpost clamp up to?", ActionClass.warn),
        (
            "Her insulin pump reset. What numbers do I put back in for her basal?",
            ActionClass.verify_first,
        ),
        ("What do the die clamp bolts get torqued to?", ActionClass.warn),
        ("What do I put in for the VAT code?", None),
        # an amount of something else is no dose or limit
        ("How much can we spend on the party?", None),
        ("How much did the doctor say the scan cost?", None),
        ("What do I set the thermostat to?", None),
        ("How many chairs go in the hall?", None),
        ("How much leave can she take this year?", None),
        ("Do the spare bolts go to stores?", None),
    ],
)
def test_an_amount_to_give_or_to_tighten_to_asked_in_other_words(
    request_: str, least: ActionClass | None
) -> None:
    got = safety_at_stake(request_)
    assert (got[0] if got else None) == least


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Dock-side back stairs: 4719 then hash. Only facilities have it.", "a secret"),
        ("She has been off since October after losing the pregnancy.", "private data"),
        ("Call 0113 496 0000 then press 2 for sales.", None),
    ],
)
def test_digits_keyed_before_the_hash_or_a_pregnancy_are_held_at_stake(
    text: str, held: str | None
) -> None:
    assert holds_at_stake(text) == held


def test_asking_for_the_number_of_a_keypad_or_what_to_punch_in_asks_for_a_secret() -> None:
    assert at_stake("Pop the number for the post room keypad in the residents' chat.") == (
        "a secret"
    )
    assert at_stake("What do I punch in at the back so I can shout it down to him?") == ("a secret")
    assert at_stake("Post the number for the parts courier in the chat.") is None


def test_a_rule_that_keeps_something_confidential_forbids_sharing_it() -> None:
    rule = "Leaving terms stay confidential. The assistant doesn't share any of it."
    assert read_directive(rule).action == ActionClass.block
    assert read_directive("The printer doesn't work on Fridays.").action is None
    assert read_directive("The east wing does not share a boiler with the west.").action is None


def test_a_number_in_words_after_a_thing_in_a_row_is_its_digits_and_any_other_a_word() -> None:
    assert words("Powder coat coming off line two")[-2:] == ("line", "2")
    assert words("Buy two spare modules") == ("buy", "two", "spare", "module")


def test_an_ordinal_before_a_thing_in_a_row_is_that_one_of_the_row() -> None:
    assert Terms.of("Bump the cure oven on the second line up to 190").has("line 2")
    assert Terms.of("the 3rd floor kitchen").has("floor 3")
    # "first" is as often first in time; "seconds" count time; a week or a year of study is
    # no numbered one; an ordinal before anything else stays a word
    assert not Terms.of("Ask the first line manager").has("line 1")
    assert not Terms.of("Every few seconds line 4 stalls").has("line 2")
    assert words("second year students") == ("second", "year", "student")
    assert words("second opinion") == ("second", "opinion")


@pytest.mark.parametrize(
    ("request_", "rule", "under"),
    [
        ("Pay the £3,240 invoice.", "Supplier payments above £10,000 need two approvers.", True),
        ("Send 4,000 pounds to Paulina.", "Transfers over £5k need a call-back first.", True),
        ("Pay the €50,000 invoice.", "Payments of EUR 50,000 or more need two approvers.", False),
        ("Pay the €50,000 invoice.", "Payments above EUR 50,000 need two approvers.", True),
        ("Pay the $12,400 bill.", "Bills above $10,000 need a second approver.", False),
        ("Pay the bill from Kessler.", "Bills above $10,000 need a second approver.", False),
        ("Pay the $3,000 bill.", "Bills above £10,000 need a second approver.", False),
        # a cap on what may be done, or bands of several sums, set no floor to be under
        ("Refund her $12.", "Agents may refund up to $50 on their own.", False),
        ("Refund her $12.", "Agents may refund no more than $50 on their own.", False),
        ("Pay the £2,000 bill.", "Up to £5,000 one approver; above £5,000 two.", False),
        # nor does a level to keep: a request below it is what the rule is about
        ("Transfer £3,000 out.", "Keep the account balance above £5,000 at all times.", False),
        # every sum is read whole: decimals, a currency before a spaced or prefixed figure
        ("Pay the £10,000.50 bill.", "Bills above £10,000 need two approvers.", False),
        ("Pay the US$12,000 bill and the $200 fee.", "Bills above $10,000 need two.", False),
        ("Pay the € 3,000 bill.", "Bills above EUR 10,000 need two approvers.", True),
    ],
)
def test_a_rule_that_applies_above_a_sum_does_not_reach_a_smaller_one(
    request_: str, rule: str, under: bool
) -> None:
    assert (under_threshold(request_, rule) is not None) is under
