"""Sums of money, and the threshold a rule sets on them: "payments above £10,000 need a
second approver" says nothing of a £3,240 invoice (:func:`under_threshold`)."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

#: a currency before the figure ("£", "$", "€", "EUR ", "GBP")
_CURRENCY = r"([£$€]|(?:usd|gbp|eur|aud|cad|nzd|chf|sek|nok|dkk|inr|jpy|zar)\s?)"
#: the figure, with thousands separators, and a multiplier ("10k", "2 million")
_FIGURE = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|m|million|thousand)?\b"
#: a sum: a currency then a figure, or a figure then the currency named after it
_MONEY = re.compile(
    rf"(?<![\w.]){_CURRENCY}{_FIGURE}"
    rf"|(?<![\w.,]){_FIGURE}\s?(pounds|dollars|euros|quid|usd|gbp|eur)\b",
    re.IGNORECASE,
)
_MULTIPLIERS = {"k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}
#: each way of writing a currency, as its code
_CODES = {"£": "gbp", "pounds": "gbp", "quid": "gbp", "$": "usd", "dollars": "usd", "€": "eur"}
_CODES |= {"euros": "eur"}

#: words before a sum that make it a floor the rule applies above ("over £5,000")
_ABOVE = re.compile(
    r"\b(?:over|above|more than|greater than|exceeding|in excess of|upwards of|higher than)\s*$",
    re.IGNORECASE,
)
#: words that make it a floor the sum itself reaches ("at least £5,000", "£5,000 or more")
_FROM_BEFORE = re.compile(r"\bat least\s*$", re.IGNORECASE)
_FROM_AFTER = re.compile(
    r"^\s*(?:or (?:more|above|over|higher|greater)\b|and (?:above|over|up(?:wards)?)\b|\+)",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def sums(text: str) -> tuple[tuple[str, Decimal], ...]:
    """The sums of money ``text`` names, each with its currency's code.

    >>> [f"{c} {v}" for c, v in sums("Pay the £3,240 invoice, and the EUR 2k deposit")]
    ['gbp 3240', 'eur 2000']
    >>> sums("Invoice 2291 from bay 4")
    ()
    """
    return tuple(_sum(m) for m in _MONEY.finditer(text))


def _sum(m: re.Match[str]) -> tuple[str, Decimal]:
    if m.group(1):
        currency, figure, multiplier = m.group(1), m.group(2), m.group(3)
    else:
        figure, multiplier, currency = m.group(4), m.group(5), m.group(6)
    code = currency.strip().lower()
    value = Decimal(figure.replace(",", ""))
    return _CODES.get(code, code), value * _MULTIPLIERS.get((multiplier or "").lower(), 1)


@lru_cache(maxsize=4096)
def floor_of(rule: str) -> tuple[str, Decimal, bool] | None:
    """The sum a rule applies from (its currency and value), and whether the sum itself is
    in (``True`` for
    "£10,000 or more", ``False`` for "above £10,000"); ``None`` when it sets no floor, or
    names other sums beside it (bands: "one approver up to £5,000, two above it").

    >>> floor_of("Supplier payments above £10,000 need a second approver.")
    ('gbp', Decimal('10000'), False)
    >>> floor_of("Payments of £10k or more need two approvers.")
    ('gbp', Decimal('10000'), True)
    >>> floor_of("Refunds up to $50 are approved automatically.")
    """
    found = list(_MONEY.finditer(rule))
    if len(found) != 1:
        return None
    [m] = found
    before, after = rule[max(0, m.start() - 25) : m.start()], rule[m.end() : m.end() + 20]
    if _ABOVE.search(before):
        return (*_sum(m), False)
    if _FROM_BEFORE.search(before) or _FROM_AFTER.search(after):
        return (*_sum(m), True)
    return None


def under_threshold(request: str, rule: str) -> str | None:
    """Why a rule that applies from a sum ("payments above £10,000 need a second approver")
    does not reach a request whose every sum is below it ("pay the £3,240 invoice"), or
    ``None``: when the rule sets no floor, or the request names no sum, it may still reach.

    >>> rule = "Payments above £10,000 need two approvers."
    >>> under_threshold("Pay the £3,240 invoice today.", rule)
    'it applies above 10000, and the request is for 3240'
    >>> under_threshold("Pay the £12,000 invoice.", rule)
    >>> under_threshold("Pay the invoice.", rule)
    """
    floor = floor_of(rule)
    if floor is None:
        return None
    currency, limit, inclusive = floor
    # a sum in another currency is not compared: the rule may yet reach it
    asked = [value for code, value in sums(request) if code == currency]
    if not asked or len(asked) < len(sums(request)):
        return None
    if all(s < limit or (s == limit and not inclusive) for s in asked):
        words = "from" if inclusive else "above"
        return f"it applies {words} {limit}, and the request is for {max(asked)}"
    return None
