"""Tallies as they are stored and merged (ladder/games/scorecard.py says what a tally is).

Stored form (JSON): a rate, mean or total tally is [numerator, denominator]; a median tally is the
samples as [[value, count], ...] sorted by value, each value rounded to two significant figures, so
that a version's or an opponent's merged samples stay a few hundred pairs however many matches
they hold (a median read from them is within 5% of the exact one, and exact for whole numbers
under 100: rounds, tokens, most counts).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import Any

from ladder.games.scorecard import Kind, Tally

Stored = list[Any]  # [num, den] or [[value, count], ...]


def round2(value: float) -> float:
    """`value` to two significant figures (whole numbers under 100 unchanged)."""
    if value == 0 or not math.isfinite(value):
        return 0.0
    digits = 1 - math.floor(math.log10(abs(value)))
    return float(round(value, digits))


def encode(kind: Kind, tally: Tally) -> Stored:
    if kind == "median":
        counts: dict[float, int] = {}
        for sample in tally:
            key = round2(float(sample))
            counts[key] = counts.get(key, 0) + 1
        return [[value, counts[value]] for value in sorted(counts)]
    num, den = tally
    return [_number(num), _number(den)]


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 6)


def merge(kind: Kind, a: Stored | None, b: Stored | None) -> Stored | None:
    if a is None or b is None:
        return a if b is None else b
    if kind == "median":
        return _merge_samples(a, b)
    num, den = a[0] + b[0], a[1] + b[1]
    if num == 0 and den == 0:
        return None
    # whole numbers stay ints; a float sum is kept to 6 decimals, so that sums merged in any order
    # store the same figure
    return [round(num, 6) if type(num) is float else num, round(den, 6) if type(den) is float else den]


def _merge_samples(a: Stored, b: Stored) -> Stored | None:
    """Two sorted [[value, count], ...] as one, counts of equal values added, zeros dropped. A sum's
    samples run to hundreds of pairs and a match adds a few: each of the smaller side's pairs is
    placed by bisection into a shallow copy of the larger (neither input is changed; a pair whose
    count changes is replaced, not updated), rather than every pair counted again and sorted."""
    if len(b) > len(a):
        a, b = b, a
    out = list(a)
    for value, count in b:
        i = bisect_left(out, value, key=_value)
        if i < len(out) and out[i][0] == value:
            total = out[i][1] + count
            if total:
                out[i] = [out[i][0], total]
            else:
                del out[i]
        elif count:
            out.insert(i, [value, count])
    return out or None  # a voided match taken back out (negated) can leave nothing


_value = itemgetter(0)


def merge_all(kinds: Mapping[str, Kind], rows: Iterable[Mapping[str, Stored]]) -> dict[str, Stored]:
    """Measure name -> the tallies of every row merged (a name missing from a row adds nothing).
    `merge` inlined: a result merges two dozen sums of a hundred measures or more each, and the
    call per measure was most of that (issue #45); the figures are merge's, to the digit."""
    rows = iter(rows)
    first = next(rows, None)
    # the first row is copied whole (a sum: a hundred measures or more, against a card's few dozen)
    out: dict[str, Stored] = {} if first is None else {
        name: stored for name, stored in first.items() if stored is not None and name in kinds}
    for row in rows:
        for name, stored in row.items():
            kind = kinds.get(name)
            if kind is None or stored is None:
                continue
            have = out.get(name)
            if have is None:
                out[name] = stored
                continue
            if kind == "median":
                total = _merge_samples(have, stored)
            else:
                num, den = have[0] + stored[0], have[1] + stored[1]
                total = None if num == 0 and den == 0 else [
                    round(num, 6) if type(num) is float else num, round(den, 6) if type(den) is float else den]
            if total is None:
                del out[name]
            else:
                out[name] = total
    return out


def value(kind: Kind, stored: Stored | None) -> float | None:
    """The figure a merged tally shows: num/den for rate, mean and total, the median of the
    samples; None when there is nothing to show."""
    if not stored:
        return None
    if kind == "median":
        return quantile(stored, 0.5)
    num, den = stored
    return num / den if den else None


def quantile(counts: Stored, q: float) -> float | None:
    """The q-quantile of [[value, count], ...] (the lower middle value for an even count)."""
    total = sum(count for _value, count in counts)
    if total == 0:
        return None
    rank = max(1, math.ceil(q * total))
    seen = 0
    for sample, count in counts:
        seen += count
        if seen >= rank:
            return float(sample)
    return float(counts[-1][0])


def negated(kinds: Mapping[str, Kind], tallies: Mapping[str, Stored]) -> dict[str, Stored]:
    """What merging takes a match's tallies back out of a sum (a voided match)."""
    out: dict[str, Stored] = {}
    for name, stored in tallies.items():
        kind = kinds.get(name)
        if kind == "median":
            out[name] = [[value, -count] for value, count in stored]
        elif kind is not None:
            out[name] = [-stored[0], -stored[1]]
    return out


def lean_kinds(kinds: Mapping[str, Kind]) -> dict[str, Kind]:
    """The kinds but the medians: merged with these, tallies keep no samples (the sums per table size
    and per opponent), as merge_all leaves out every name it has no kind for."""
    return {name: kind for name, kind in kinds.items() if kind != "median"}
