"""What a game's scorecard part provides (issue #45): the measures a bot page, the API and the
export show per bot version, per opponent and per table size, and one pure pass over a finished
match's replay that gives each seat its share of them.

A game names its part once (`Game.scorecard`, e.g. "view.scorecard"); the module holds
`MEASURES: tuple[Measure, ...]` and `measure(replay: Replay) -> dict[int, dict[str, Tally]]`
(seat index -> measure name -> that seat's tally in this match; a measure absent from a seat's
dict had nothing to count in this match, e.g. a deal rate when the seat joined no split).

Why tallies and not finished figures: a measure over many matches is aggregated from the
matches' tallies without reading the replays again. `rate` and `mean` tallies add up
((numerator, denominator) summed over matches, shown as numerator / denominator: a deal rate is
(agreed, joined), a mean share is (sum of shares, count)); a `median` tally is the match's samples,
merged (rounds to agreement, milliseconds per decision); `total` is a count shown per match
(numerator summed over matches, divided by the matches counted).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["rate", "mean", "median", "total"]
# rate/mean/total: (numerator, denominator); median: the match's samples
Tally = tuple[float, float] | tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Measure:
    """One measure: its key, its column header, its one-line definition (shown on the page), how
    its tallies aggregate, and its unit for display ("%" shows a rate as a percentage)."""

    name: str
    label: str
    definition: str
    kind: Kind
    unit: str = ""
    # the docs section with the formula (docs/scorecard.md#<anchor>), "" = the name
    anchor: str = ""
