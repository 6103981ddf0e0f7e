"""The values a statement names, each in one spelling, so two statements can be compared.

:func:`values` finds the numbers, times, dates, days, percentages and amounts of a text and
writes each one way:

- "4:00 pm" and "16:00" are ``16:00``; a time without am or pm ("8:00", "at 6") may be
  either, and is kept as ``~08:00``, which :func:`same_values` lets stand for both;
- "Oct 10" and "10 October" are ``10-10``, and "Sept 9-11" is ``09-09`` and ``09-11``;
- "Tuesdays" and "Tue" are ``tue``, "the first Tuesday" ``1st-tue``; "in October" and
  "every oct" are ``month-10``; "due on the 1st" is ``day-01``;
- "six percent" and "6%" are ``6%``; "48.5k" and "48,500" are ``48500``, "forty dollars" and
  "$40" are ``40``, "$1.2M" is ``1200000``, "1¼" is ``1.25`` and "v3.2" ``3.2``;
- phone and serial numbers are their digits ("(415) 555-0142");
- names made of letters and digits, hosts and addresses are themselves ("Bin A-14" and
  "A14" are ``a14``).

>>> sorted(values("Offsite: Denver, 9-11 September, from 8:00"))
['09-09', '09-11', '~08:00']
>>> same_values(values("Bedtime is 8:00."), values("In bed by 8 pm."))
True
"""

from __future__ import annotations

import re
from decimal import Decimal

from beliefgraph.text import fold, word_set

#: each month's name, then its short forms
_MONTH_SPELLINGS = (
    ("january", "jan"),
    ("february", "feb"),
    ("march", "mar"),
    ("april", "apr"),
    ("may",),
    ("june", "jun"),
    ("july", "jul"),
    ("august", "aug"),
    ("september", "sep", "sept"),
    ("october", "oct"),
    ("november", "nov"),
    ("december", "dec"),
)
MONTH_NAMES = tuple(names[0] for names in _MONTH_SPELLINGS)
_MONTHS = {m: i + 1 for i, names in enumerate(_MONTH_SPELLINGS) for m in names}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
#: a regex alternation of every month's spellings, longest first
MONTH_SPELLINGS = _MONTH
#: a year of this century or the last, written out: "2024", "1998"
YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def month_number(spelling: str) -> int:
    """1 for "January" or "Jan", 9 for "Sept": a spelling of :data:`MONTH_SPELLINGS`."""
    return _MONTHS[spelling.lower()]


_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_TENS = {
    w: str(10 * i)
    for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty"], 2)
} | {"ninety": "90"}
#: numbers written as words, up to twenty, with their digits ("one" is also a pronoun: "this
#: one", so whoever reads it decides)
NUMBER_WORDS = _NUMBER_WORDS | {"twenty": "20"}
#: number words from two up, as digits ("forty dollars", "two chipotles"); "one" is left
#: alone ("one of them", "the one on the left")
_NUMERALS = re.compile(
    r"\b(?:("
    + "|".join(_TENS)
    + r")(?:[- ]("
    + "|".join(list(_NUMBER_WORDS)[1:10])
    + r"))?|("
    + "|".join(list(_NUMBER_WORDS)[2:])
    + r"))\b"
)
#: the ordinal words, first to tenth, in order
ORDINAL_WORDS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)
_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
#: ordinals from the second, in words and in figures, with their digits ("first" is left
#: out: it is as often first in time, "the first line manager", as first of a row)
ORDINAL_NUMBERS = {
    form: str(n)
    for n, word in enumerate(ORDINAL_WORDS[1:], 2)
    for form in (word, f"{n}{_SUFFIXES.get(n, 'th')}")
}
#: ordinal words before a day or "of" ("the first of the month", "first Tuesday")
_ORDINALS = {w: f"{n}{_SUFFIXES.get(n, 'th')}" for n, w in enumerate(ORDINAL_WORDS[:5], 1)}
_ORDINAL_WORD = re.compile(
    r"\b(" + "|".join(_ORDINALS) + r")(?=\s+(?:of\b|mon|tue|wed|thu|fri|sat|sun|week|weekend))"
)
#: days of the week, as written out, in the plural ("Tuesdays") or cut short ("Tue", "Thurs");
#: "sat" and "sun" only with a capital (lower case they are other words)
_DAY_SPELLINGS = (
    ("monday", "mon"),
    ("tuesday", "tue tues"),
    ("wednesday", "wed weds"),
    ("thursday", "thu thur thurs"),
    ("friday", "fri"),
    ("saturday", "Sat"),
    ("sunday", "Sun"),
)
DAY_NAMES = tuple(day for day, _ in _DAY_SPELLINGS)
_DAYS = {
    name: day[:3] for day, short in _DAY_SPELLINGS for name in [day, day + "s", *short.split()]
}
_WEEKDAYS = frozenset(_DAYS.values())
#: numbers and ordinals written out, and how often or how much: part of a value, not a topic
VALUE_WORDS = (
    frozenset(_NUMBER_WORDS)
    | frozenset(_TENS)
    | frozenset(_ORDINALS)
    | word_set("every each per thru am pm percent dollar dollars buck bucks")
)
#: a day or a month however written, in one spelling ("Tuesdays" and "Tue" are "tue", "Sept"
#: and "September" are "september"): a topic word
SPELLED = {name.lower(): day for name, day in _DAYS.items()} | {
    name: names[0] for names in _MONTH_SPELLINGS for name in names if name != "may"
}
_DAY = re.compile(
    r"(?<!')\b(?:(1st|2nd|3rd|4th|5th|first|second|third|fourth|fifth|last)\s+)?("
    + "|".join(sorted((d for d in _DAYS if d.islower()), key=len, reverse=True))
    + r"|(?-i:Sat|Sun))\b\.?",
    re.IGNORECASE,
)
#: a phone or serial number, in digit groups however written ("(415) 555-0142",
#: "97/441,208"): seven digits or more, compared as digits only
_DIGITS = re.compile(
    # digit groups joined by one space, dot, hyphen, slash or bracket, or a thousands comma;
    # not a list ("10, 20, 30"), a range ("9.30 - 10.30") or a span of years ("2019-2021")
    r"(?<![\w.])(?!(?:19|20)\d\d[-/](?:19|20)\d\d\b)\+?\(?\d+\)?"
    r"(?:(?:[ .\-/]|\) ?|,(?=\d{3}\b))\(?\d+\)?)+(?![\w])"
)
#: letters between digits that make a date, a time range or a phrase, not a code: "12-Jan-2025",
#: "10am-2pm", "2-for-1", "9-to-5"
_NOT_CODE = rf"(?!(?:{_MONTH}|am|pm|to|for|on|in|of|by|and|or|x)\b)"
#: a name made of letters and digits ("A-14", "PG15", "bluefern-88"), a host or an address
_IDENTIFIER = re.compile(
    r"(?<![\w.@-])(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|[a-z][\w-]*(?:\.[\w-]+)*\.[a-z]{2,}|"
    r"[a-z][a-z-]*\d[\w-]*|"
    # a code that opens with digits: "4B-12", "2A5", "24-CV-1187" (not "10am", "5k", "3rd")
    rf"\d+-?{_NOT_CODE}[a-z]+-?\d[\w-]*)(?![\w@-])"
)
_DATE_MD = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?")
_DATE_DM = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\b\.?(?:,?\s+(\d{{4}}))?"
)
#: "2 may" with no ordinal and nothing after it that a date has: "two may attend"
_COUNTED_MAY = re.compile(r"\d{1,2}\s+may\b(?!\s*(?:\d|$|[^\w\s]))", re.IGNORECASE)
_ORDINAL_SUFFIX = r"(?:st|nd|rd|th)?"
_UNTIL = r"\s*(?:-|\u2013|\u2014|to|thru|through|until|till)\s*"
#: "Sept 9-11", "March 24 to 28": two dates of one month
_RANGE_MD = re.compile(
    rf"\b({_MONTH})\.?\s+(\d{{1,2}}){_ORDINAL_SUFFIX}{_UNTIL}(\d{{1,2}}){_ORDINAL_SUFFIX}\b(?!\s*(?:am|pm|:))"
)
#: "9-11 September", "the 7th thru 11th of April"
_RANGE_DM = re.compile(
    rf"\b(\d{{1,2}}){_ORDINAL_SUFFIX}{_UNTIL}(\d{{1,2}}){_ORDINAL_SUFFIX}\s+(?:of\s+)?({_MONTH})\b"
)
#: a month named alone ("renews in October", "due every oct"); not "may", a verb as often
_MONTH_ALONE = re.compile(
    r"\b(" + "|".join(sorted((m for m in _MONTHS if m != "may"), key=len, reverse=True)) + r")\b\.?"
)
#: a day of the month with no month named ("due on the 1st", "Fri 14th", "the 15th and
#: 30th"), not an ordinal before its noun ("the 3rd floor") nor after a name ("APA 7th")
_MONTH_DAY = re.compile(
    r"(?:\b(?:the|on|by|from|until|till|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?)|:)\s*"
    r"(\d{1,2})(?:st|nd|rd|th)\b"
    r"(?=\s*(?:$|[^\w\s]|(?:and|or|at|by|to|through|till|until)\b|of (?:each|every|the) month\b))"
)
#: a version number written with a "v" ("v3.2", "v10.4.1")
_VERSION = re.compile(r"\bv(\d+(?:\.\d+)+)\b")
#: a number with a fraction written as one character ("1¼", "½")
_FRACTIONS = {"¼": ".25", "½": ".5", "¾": ".75"}
_FRACTION = re.compile(r"(\d*)([¼½¾])")
_DATE_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DATE_SLASH = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")
_TIME = re.compile(
    r"(?P<at>\b(?:at|by|until|till|before|after)\s+)?\b(?P<hour>\d{1,2})(?:(?P<stop>[:.])"
    r"(?P<minute>\d{2}))?"
    r"\s*(?:o'?clock\s*)?(?P<meridiem>am\b|pm\b|a\.m\.|p\.m\.|(?:in the )?(?:morning|evening|"
    r"afternoon|night)\b)?(?=\W|$)",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"\b(\d+(?:\.\d+)?|[a-z]+)\s*(?:%|percent\b|per cent\b)", re.IGNORECASE)
#: what may follow a bare hour ("at 6", "at 6 on Mondays"): not a unit ("at 6 months")
_CLOCK_AFTER = re.compile(
    r"\s*(?:$|[^\w\s]|(?:on|in|every|each|sharp|and|to|till?|until|for|with)\b)"
)
_AMOUNT = re.compile(
    r"(?<![\w:/.-])(\$)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k\b|m\b|million\b)?", re.IGNORECASE
)


def values(text: str) -> frozenset[str]:
    """The times, dates, days, percentages and amounts ``text`` names, each in one spelling.

    A time written without am or pm ("8:00", "at 6") could be either: it is kept as
    ``~08:00``, which :func:`same_values` lets stand for ``08:00`` or ``20:00``.
    """
    days = _DAY.finditer(text)  # before folding: "Sat" and "Sun" need their capital
    text = _FRACTION.sub(_decimal_fraction, text)  # "1¼" is 1.25, not "11/4" once folded
    text = fold(text)
    text = re.sub(r"(\d)\(k\)", r"\1k", text)  # "401(k)" is "401k"
    text = _NUMERALS.sub(_numeral, text)
    text = _ORDINAL_WORD.sub(lambda m: _ORDINALS[m.group(1)], text)
    found: set[str] = set()
    spans: list[tuple[int, int]] = []

    def taken(m: re.Match[str]) -> bool:
        return any(a < m.end() and m.start() < b for a, b in spans)

    def keep(m: re.Match[str], *value: str) -> None:
        found.update(value)
        spans.append((m.start(), m.end()))

    for m in _VERSION.finditer(text):  # "v3.2" is the 3.2 of "release 3.2"
        keep(m, m.group(1))
    for m in _IDENTIFIER.finditer(text):
        if not taken(m):
            keep(m, m.group(0).rstrip(".-").replace("-", ""))
    for m in _DATE_ISO.finditer(text):
        keep(m, f"{int(m.group(2)):02d}-{int(m.group(3)):02d}")
    for m in _RANGE_MD.finditer(text):
        if not taken(m) and _day(m.group(2)) and _day(m.group(3)):
            month = _MONTHS[m.group(1)]
            keep(m, f"{month:02d}-{int(m.group(2)):02d}", f"{month:02d}-{int(m.group(3)):02d}")
    for m in _RANGE_DM.finditer(text):
        if not taken(m) and _day(m.group(1)) and _day(m.group(2)):
            month = _MONTHS[m.group(3)]
            keep(m, f"{month:02d}-{int(m.group(1)):02d}", f"{month:02d}-{int(m.group(2)):02d}")
    for m in _DATE_MD.finditer(text):
        if not taken(m) and _day(m.group(2)):
            keep(m, f"{_MONTHS[m.group(1)]:02d}-{int(m.group(2)):02d}")
    for m in _DATE_DM.finditer(text):
        # "two may attend" is a count and a verb ("two" is written "2" by now), not 2 May
        if not taken(m) and _day(m.group(1)) and not _COUNTED_MAY.match(text, m.start()):
            keep(m, f"{_MONTHS[m.group(2)]:02d}-{int(m.group(1)):02d}")
    for m in _DATE_SLASH.finditer(text):
        if not taken(m):
            first, second = int(m.group(1)), int(m.group(2))
            month, day = (second, first) if first > 12 else (first, second)
            if month <= 12 and _day(str(day)):
                keep(m, f"{month:02d}-{day:02d}")
    for m in _MONTH_ALONE.finditer(text):
        if not taken(m):
            keep(m, f"month-{_MONTHS[m.group(1)]:02d}")
    for m in days:  # found in the text before folding: its spans are not this text's
        weekday = _DAYS.get(m.group(2).lower(), m.group(2).lower()[:3])
        nth = m.group(1) and _ORDINALS.get(m.group(1).lower(), m.group(1).lower())
        found.add(f"{nth}-{weekday}" if nth else weekday)
    for m in _MONTH_DAY.finditer(text):
        if not taken(m) and _day(m.group(1)):
            keep(m, f"day-{int(m.group(1)):02d}")
    for m in _DIGITS.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 7 and not taken(m):
            # the last ten digits: a country code may be written or left out ("+1 415 ...")
            keep(m, digits[-10:])
    for m in _PERCENT.finditer(text):
        if not taken(m):
            share = _NUMBER_WORDS.get(m.group(1), m.group(1))
            keep(m, f"{share}%")
    for m in _TIME.finditer(text):
        if taken(m):
            continue
        hour, minute = int(m.group("hour")), int(m.group("minute") or 0)
        if hour > 23 or minute > 59:
            continue
        if m.group("stop") == "." and not (m.group("at") or m.group("meridiem")):
            continue  # "3.50" is an amount; "at 3.30" and "7.15pm" are times
        said = (m.group("meridiem") or "").replace(".", "").lower()
        bare = said.isalpha() and said not in ("am", "pm")  # "morning", not "in the morning"
        if bare and not (m.group("at") or m.group("minute")):
            continue  # "2 afternoon workshops": a count, not a time
        meridiem = said.removeprefix("in the ")
        if meridiem in ("pm", "evening", "afternoon", "night") and hour < 12:
            hour += 12
        elif meridiem in ("am", "morning") and hour == 12:
            hour = 0
        elif not meridiem:
            if m.group("minute") is None and not (
                m.group("at") and hour <= 12 and _CLOCK_AFTER.match(text, m.end())
            ):
                continue  # a bare number ("at 58 degrees"), not a time
            if 1 <= hour <= 12 and not m.group("hour").startswith("0"):
                keep(m, f"~{hour:02d}:{minute:02d}")  # am or pm: either
                continue
        keep(m, f"{hour:02d}:{minute:02d}")
    for m in _AMOUNT.finditer(text):
        if taken(m):
            continue
        scale = {"k": 1000, "m": 1_000_000, "million": 1_000_000}.get(m.group(3) or "", 1)
        if m.group(3) == "m" and not m.group(1):
            scale = 1  # "4m" is metres or minutes; "$1.2M" is money
        amount = Decimal(m.group(2).replace(",", "")) * scale
        keep(m, f"{amount.normalize():f}")
    # "the first Tuesday" is 1st-tue: its "1" is no amount of its own
    nths = {nth.group(1) for v in found if (nth := re.fullmatch(r"(\d+)(?:st|nd|rd|th)-\w+", v))}
    return frozenset(found - nths)


def _decimal_fraction(m: re.Match[str]) -> str:
    return f"{m.group(1) or '0'}{_FRACTIONS[m.group(2)]}"


def weak(found: frozenset[str]) -> bool:
    """Whether values are only days of the week, months or days of the month: many things
    share those."""
    return all(kind(v) in ("weekday", "month", "monthday") for v in found)


def kind(value: str) -> str:
    """What a value of :func:`values` is: ``time``, ``date``, ``weekday``, ``month``,
    ``monthday`` (the 1st, with no month), ``share``, ``number`` (seven digits or more: a
    phone, an account), ``amount`` or ``name`` (a code, a host, an address).

    >>> [kind(v) for v in sorted(values("Tue 9 May, 10:30, 6%, $40, (415) 555-0142, A-14"))]
    ['date', 'amount', 'number', 'share', 'name', 'weekday', 'time']
    """
    if re.fullmatch(r"~?\d\d:\d\d", value):
        return "time"
    if re.fullmatch(r"\d\d-\d\d", value):
        return "date"
    if value.startswith("month-"):
        return "month"
    if value.startswith("day-"):
        return "monthday"
    if value.endswith("%"):
        return "share"
    if value.split("-")[-1] in _WEEKDAYS:
        return "weekday"
    if re.fullmatch(r"\d{7,}", value):
        return "number"
    if re.fullmatch(r"\d+(?:\.\d+)?", value):
        return "amount"
    return "name"


def has_digit(token: str) -> bool:
    """Whether a word holds a digit ("A1C", "5k")."""
    return any(c.isdigit() for c in token)


def _day(number: str) -> bool:
    """Whether a number can be a day of a month."""
    return 1 <= int(number) <= 31


def _numeral(m: re.Match[str]) -> str:
    if m.group(3):
        return _NUMBER_WORDS[m.group(3)]
    return str(int(_TENS[m.group(1)]) + int(_NUMBER_WORDS.get(m.group(2) or "", "0")))


def same_values(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two statements name the same values: a time of one without am or pm
    (``~08:00``) stands for the other's ``08:00`` or ``20:00``."""
    return _settled(a, b) == _settled(b, a)


def _settled(ours: frozenset[str], theirs: frozenset[str]) -> frozenset[str]:
    settled = set()
    for value in ours:
        if value.startswith("~"):
            hour, minute = value[1:].split(":")
            either = {f"{int(hour) % 12:02d}:{minute}", f"{int(hour) % 12 + 12:02d}:{minute}"}
            value = next(iter(sorted(either & theirs)), value[1:])
        settled.add(value)
    return frozenset(settled)


#: kinds of value another of which, for the same subject, replaces the old one
_CALENDAR_KINDS = frozenset({"time", "date", "weekday", "month", "monthday"})


def another_value(new: frozenset[str], old: frozenset[str]) -> bool:
    """Whether ``new`` gives another time, date, day or month than ``old`` gives, of only
    kinds ``old`` gives, one of the old values gone: "10am" for "9am", "Thursday 4:30" for
    "Wednesday 4:30", "May 10-17" for "May 3-10"; not "Monday and Tuesday" for "Monday" (more,
    not another), not "8am on 1 May" for "6am" (a date added: an exception, perhaps), not "3
    years old" for "5 kg" (numbers alone do not say what they measure)."""
    if not new or not old or any(kind(v) not in _CALENDAR_KINDS for v in new):
        return False
    ours, theirs = by_kind(new), by_kind(old)
    if not ours.keys() <= theirs.keys():
        return False
    # some value the old one gave is gone: not only more of the same kind
    return any(
        not any(same_values(frozenset({a}), frozenset({b})) for a in ours[k])
        for k in ours
        for b in theirs[k]
    )


def other_kinds(new: frozenset[str], old: frozenset[str]) -> bool:
    """Whether both give values and none of one kind: another attribute, not another value."""
    return bool(new and old) and not {kind(v) for v in new} & {kind(v) for v in old}


def by_kind(found: frozenset[str]) -> dict[str, frozenset[str]]:
    """The values of ``found`` by their :func:`kind`."""
    kinds: dict[str, set[str]] = {}
    for value in found:
        kinds.setdefault(kind(value), set()).add(value)
    return {k: frozenset(v) for k, v in kinds.items()}


def telling(found: frozenset[str]) -> bool:
    """Whether values name one thing by themselves, whatever words surround them: a number
    of seven digits or more (a phone, an account, a traveller number), an address or host
    ("vpn.northwind.io"), a code of five letters and digits or more ("K7Q229XB")."""
    return any(
        kind(v) == "number"
        or (kind(v) == "name" and ("@" in v or len(v) >= 5) and not v.replace(".", "").isdigit())
        for v in found
    )
