"""Reading that a statement's arrangement has ended (beliefgraph/language/lapsed.py)."""

from __future__ import annotations

from datetime import date

import pytest

from beliefgraph.language.lapsed import term_ended

TODAY = date(2026, 12, 5)


@pytest.mark.parametrize(
    "text",
    [
        "Harbourside Hotel: corporate rate HQ-22 ran until October 2024 and was not renewed.",
        "Ghent handling was €14.20 a pallet under the 2022 deal. That deal ran out at the end "
        "of 2024; the figure is kept only for the records.",
        "Brightwater Marine one-way NDA from 2022 has expired; nothing more may go out under it.",
        "Licence L-2291 covers shipments to Shenzhen, valid until 31 Dec 2024.",
        "Temporary delete rights on the share, granted for the migration; valid until 31 Oct 2026.",
        "Guests used to stay at the Carnot on the lab's rate. That deal lapsed in 2023.",
        "Meridian Travel contract ended in December 2025.",
    ],
)
def test_an_ended_arrangement_is_read(text: str) -> None:
    assert term_ended(text, TODAY) is not None


@pytest.mark.parametrize(
    "text",
    [
        # still to come
        "Licence L-2291 covers shipments to Shenzhen, valid until 31 Dec 2031.",
        "The lease runs until March 2027.",
        # what holds now is said too
        "The 2023 contract expired in March; the new rate is 15% off list.",
        "Since the courier contract ended in June, customer returns go on our own fleet.",
        "Dana's blanket approval ran out on 30 November. From then on, every edit needs a ticket.",
        # only may end, or is to be ended
        "The car park licence can be ended on 30 days' notice.",
        "Let's get the stale escrow sub-accounts closed before year end.",
        # an account closed beside the new details
        "Our banking has changed: pay Harbour Bank 30-91-54 from now on; the old account closed.",
        # no arrangement
        "The van ran out of fuel on the ring road.",
        "The office move finished in March 2025.",
        # said not to have ended, or asked
        "The contract has not expired.",
        "The licence hasn't lapsed.",
        "Has the contract expired?",
        "The lease hasn't been renewed yet.",
        # ended, then renewed or extended: it holds
        "The contract expired in 2024 and was renewed on the same terms.",
        "The lease ran to 2024 and was extended by three years.",
        # one runs on, whatever ended before
        "Licence valid until 2031; the 2019 licence expired in 2020.",
        # other senses of the verb
        "Our contract with Acme ended up costing more than planned.",
        "The deal finished second in the tender.",
        "The licence server logs expired sessions nightly.",
        # a condition or a rule's reach, not an ending
        "Drivers whose licence has expired may not take out the delivery vans.",
        "No purchase orders to suppliers whose framework agreement has lapsed.",
        "Treat any rate that has lapsed as void; quote list price.",
    ],
)
def test_what_is_not_an_ended_arrangement_is_not(text: str) -> None:
    assert term_ended(text, TODAY) is None


def test_a_date_this_year_ends_it_once_its_month_is_past() -> None:
    text = "Fast-track pre-clearance FT-71550 valid through November 2026."
    assert term_ended(text, date(2026, 12, 1)) is not None
    assert term_ended(text, date(2026, 11, 1)) is None


def test_the_trace_says_the_ending_in_whole_words() -> None:
    said = term_ended(
        "Northfield Timber trade terms: 12% off list under the 2023 framework agreement, "
        "which ran to 31 Dec 2024 and was never renewed.",
        TODAY,
    )
    assert said == "ran to 31 Dec 2024 and was never renewed"
    said = term_ended("Farms supply deal (2019-2023). Ran out in March 2023, not renewed.", TODAY)
    assert said is not None
    assert not said.startswith((",", "and"))
