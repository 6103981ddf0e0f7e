"""Quantities with a unit, and one quantity written in two units.

People restate a weight, a temperature or a pressure in another unit: "Biscuit weighs 22 lbs"
is "biscuit is ~10 kg", "bake bread at 230C" is "oven for bread: 450°F", "36 psi" is "2.5 bar".
:func:`quantities` reads each number with a unit it knows, in the unit its dimension is
measured in here (kilograms, metres, litres, bar, degrees Celsius, seconds);
:func:`same_quantities` says whether two texts give the same quantities, within what rounding
to another unit loses (4%), at least one of them in another unit.

>>> same_quantities("Biscuit weighs 22 lbs", "biscuit is ~10 kg")
True
>>> same_quantities("tyre pressure 36 psi", "tyres: 2.8 bar")
False
>>> in_other_units("water heater: 50 gal, installed 2019", "water heater: 189 L, from 2021")
False
>>> sorted(numbers_beside("water heater: 50 gal, installed 2019"))
['2019']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

#: a unit as written -> its dimension and how many of the dimension's unit it is (a
#: temperature in Fahrenheit is converted on its own)
_UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("kg", "kgs", "kilo", "kilos"), ("mass", 1.0)),
    **dict.fromkeys(("g", "grams"), ("mass", 0.001)),
    **dict.fromkeys(("lb", "lbs", "pound", "pounds"), ("mass", 0.45359)),
    "oz": ("mass", 0.02835),
    **dict.fromkeys(("km", "kms"), ("length", 1000.0)),
    **dict.fromkeys(("mi", "mile", "miles"), ("length", 1609.34)),
    **dict.fromkeys(("m", "metre", "metres", "meter", "meters"), ("length", 1.0)),
    "cm": ("length", 0.01),
    "mm": ("length", 0.001),
    **dict.fromkeys(("inch", "inches"), ("length", 0.0254)),  # not "in": "2 in stock"
    **dict.fromkeys(("ft", "feet", "foot"), ("length", 0.3048)),
    **dict.fromkeys(("l", "litre", "litres", "liter", "liters"), ("volume", 1.0)),
    "ml": ("volume", 0.001),
    "floz": ("volume", 0.02957),
    **dict.fromkeys(("cup", "cups"), ("volume", 0.2366)),
    **dict.fromkeys(("gal", "gallon", "gallons"), ("volume", 3.785)),
    "psi": ("pressure", 0.06895),
    "bar": ("pressure", 1.0),
    **dict.fromkeys(("c", "°c"), ("temperature", 1.0)),
    **dict.fromkeys(("f", "°f"), ("temperature", 1.0)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), ("time", 60.0)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("time", 3600.0)),
}
#: a number and the word or sign after it ("22 lbs", "230C", "450°F", "5 fl oz")
_QUANTITY = re.compile(
    r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)\s?(°\s?[cf]|fl\.?\s?oz|[a-z]+)\b", re.I
)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
#: how far two amounts may differ and be one quantity rounded in another unit
_ROUNDING = 0.04


@dataclass(frozen=True)
class Quantity:
    """A number with a unit: its dimension, its amount in the dimension's unit, the unit."""

    dimension: str
    amount: float
    unit: str
    span: tuple[int, int]


@lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Quantity, ...]:
    """The quantities ``text`` gives with a unit of :data:`_UNITS`."""
    found = []
    for m in _QUANTITY.finditer(text):
        unit = re.sub(r"[\s.]", "", m.group(2).lower())
        if unit not in _UNITS:
            continue
        dimension, factor = _UNITS[unit]
        number = float(m.group(1).replace(",", ""))
        amount = (number - 32) * 5 / 9 if unit in ("f", "°f") else number * factor
        found.append(Quantity(dimension, amount, unit.strip("°").rstrip("s"), m.span()))
    return tuple(found)


def same_quantities(a: str, b: str) -> bool:
    """Whether two texts give the same quantities, one at least in another unit: each
    quantity of each has one of the same dimension and amount in the other."""
    ours, theirs = quantities(a), quantities(b)
    if not ours or not theirs:
        return False
    converted = any(x.unit != y.unit for x in ours for y in theirs if _same(x, y))
    return (
        converted
        and all(any(_same(x, y) for y in theirs) for x in ours)
        and all(any(_same(y, x) for x in ours) for y in theirs)
    )


def in_other_units(a: str, b: str) -> bool:
    """Whether two texts say the same in other units: the same quantities
    (:func:`same_quantities`), and otherwise the same numbers (:func:`numbers_beside`)."""
    return same_quantities(a, b) and numbers_beside(a) == numbers_beside(b)


def numbers_beside(text: str) -> frozenset[str]:
    """The numbers of ``text`` outside its quantities (a year, a count, a code)."""
    spans = [q.span for q in quantities(text)]
    return frozenset(
        m.group(0)
        for m in _NUMBER.finditer(text)
        if not any(start <= m.start() < end for start, end in spans)
    )


def _same(x: Quantity, y: Quantity) -> bool:
    if x.dimension != y.dimension:
        return False
    larger = max(abs(x.amount), abs(y.amount))
    return larger == 0 or abs(x.amount - y.amount) <= _ROUNDING * larger
