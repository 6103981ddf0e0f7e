"""Sums of money, and the threshold a rule sets on them: "payments above £10,000 need a
second approver" says nothing of a £3,240 invoice (:func:`under_threshold`)."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

#: each way of writing a currency, as its code (a bare "$" is taken for US dollars)
_CODES = {
    "£": "gbp",
    "pounds": "gbp",
    "quid": "gbp",
    "$": "usd",
    "us$": "usd",
    "dollars": "usd",
    "a$": "aud",
    "ca$": "cad",
    "nz$": "nzd",
    "€": "eur",
    "euro": "eur",
    "euros": "eur",
}
#: currency codes written as letters, before or after the figure ("EUR 500", "5,000 GBP")
_LETTERS = "usd|gbp|eur|aud|cad|nzd|chf|sek|nok|dkk|inr|jpy|zar"
#: a currency before the figure ("£", "US$", "€ ", "EUR ")
_BEFORE = rf"((?:us|a|ca|nz)?\$|[£€]|(?:{_LETTERS})\b)\s?"
#: the figure, with thousands separators and decimals, and a multiplier ("10k", "2 million");
#: not the start of a longer number ("$1,2345")
_FIGURE = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d,.]*\d)\s?(k|m|million|thousand)?\b"
#: a currency after the figure ("4,000 pounds", "5,000 GBP")
_AFTER = rf"\s?(pounds|dollars|euros?|quid|{_LETTERS})\b"
_MONEY = re.compile(rf"(?<![\w.]){_BEFORE}{_FIGURE}|(?<![\w.,$£€]){_FIGURE}{_AFTER}", re.IGNORECASE)
_MULTIPLIERS = {"k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}
#: words before a sum that make it a floor the rule applies above ("over £5,000"), unless
#: denied ("no more than £50" is a cap)
_ABOVE = re.compile(
    r"(?<!\bno )(?<!\bnot )(?<!\bnever )"
    r"\b(?:over|above|more than|greater than|exceeding|in excess of|upwards of|higher than)\s*$",
    re.IGNORECASE,
)
#: words that make it a floor the sum itself reaches ("at least £5,000", "£5,000 or more")
_FROM_BEFORE = re.compile(r"(?<!\bnot )\bat least\s*$", re.IGNORECASE)
_FROM_AFTER = re.compile(
    r"^\s*(?:or (?:more|above|over|higher|greater)\b|and (?:above|over|up(?:wards)?)\b|\+)",
    re.IGNORECASE,
)
#: a level to keep rather than a size of act ("keep the balance above £5,000"): a request
#: below it is what such a rule is about
_LEVEL = re.compile(
    r"\b(?:balances?|reserves?|floats?|maintain(?:ed|s)?|keep|kept|remains?|minimum"
    r"|at all times)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def sums(text: str) -> tuple[tuple[str, Decimal], ...]:
    """The sums of money ``text`` names, each with its currency's code.

    >>> [f"{c} {v}" for c, v in sums("Pay the £3,240.50 invoice and the US$2k deposit")]
    ['gbp 3240.50', 'usd 2000']
    >>> sums("Invoice 2291 from bay 4, 5,000 kg")
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
    """The sum a rule applies from, as its currency and value, and whether the sum itself
    is in (``True`` for "£10,000 or more", ``False`` for "above £10,000"), or ``None``.

    ``None`` when the rule sets no floor: a cap ("up to", "no more than"), a level to keep
    ("keep the balance above £5,000"), or bands of several sums ("one approver up to £5,000,
    two above it").

    >>> floor_of("Supplier payments above £10,000 need a second approver.")
    ('gbp', Decimal('10000'), False)
    >>> floor_of("Payments of £10k or more need two approvers.")
    ('gbp', Decimal('10000'), True)
    >>> floor_of("Refunds up to $50 are approved automatically.") is None  # a cap
    True
    """
    found = list(_MONEY.finditer(rule))
    if len(found) != 1 or _LEVEL.search(rule):
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
    ``None``: when the rule sets no floor, or the request names no sum, or one in another
    currency, it may still reach.

    >>> rule = "Payments above £10,000 need two approvers."
    >>> under_threshold("Pay the £3,240 invoice today.", rule)
    'it applies above 10000 gbp, and the request is for 3240 gbp'
    >>> under_threshold("Pay the £12,000 invoice.", rule) is None
    True
    >>> under_threshold("Pay the invoice.", rule) is None
    True
    """
    floor = floor_of(rule)
    if floor is None:
        return None
    currency, limit, inclusive = floor
    named = sums(request)
    asked = [value for code, value in named if code == currency]
    if not asked or len(asked) < len(named):
        return None
    if all(s < limit or (s == limit and not inclusive) for s in asked):
        words = "from" if inclusive else "above"
        return (
            f"it applies {words} {_plain(limit)} {currency}, "
            f"and the request is for {_plain(max(asked))} {currency}"
        )
    return None


def _plain(value: Decimal) -> str:
    """A sum as people write it: no exponent, no trailing zeros ("1200000", "3240.5")."""
    return format(value.normalize(), "f")
