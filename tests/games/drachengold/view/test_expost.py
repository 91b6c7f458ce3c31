"""Ex-post worths: each token's worth to each seat is its marginal effect on that seat's score by
the rules' own scoring of every hoard, whatever shortcut the view takes to it."""

from __future__ import annotations

import random

import pytest

from ladder.games.drachengold.rules.data import DECK
from ladder.games.drachengold.rules.scoring import score_hoards
from ladder.games.drachengold.view.expost import Worths

COLOURS = (*DECK["gems"], "silver", "gold", "red", "black")


def _scored(counts, rules, seat):
    return score_hoards(counts, DECK["scoring"][rules], DECK["gems"])[seat]["total"]


def _worth(counts, rules, colour, holder, seat):
    """With the token taken out of its holder's hoard (None: the box), the seat's score with it
    given to the seat less its score without it: every hoard scored whole, twice."""
    without = [dict(c) for c in counts]
    if holder is not None:
        without[holder][colour] -= 1
    given = [dict(c) for c in without]
    given[seat][colour] = given[seat].get(colour, 0) + 1
    return _scored(given, rules, seat) - _scored(without, rules, seat)


@pytest.mark.parametrize("rules", sorted(DECK["scoring"]))
def test_every_tokens_worth_is_the_whole_scorings_difference(rules):
    rng = random.Random(rules)
    checked = 0
    for _ in range(60):
        n = rng.randint(3, 6)
        hoards = [[] for _ in range(n)]
        for i in range(rng.randint(0, 40)):
            colour = rng.choice(COLOURS[:5] * 3 + COLOURS[5:])  # gems often: majorities and sets in play
            hoards[rng.randrange(n)].append({"id": f"t{i}", "colour": colour})
        counts = [{} for _ in range(n)]
        for s, hoard in enumerate(hoards):
            for t in hoard:
                counts[s][t["colour"]] = counts[s].get(t["colour"], 0) + 1
        worths = Worths(hoards, rules, n)
        held = [(t, s) for s, hoard in enumerate(hoards) for t in hoard]
        boxed = [({"id": f"box-{c}", "colour": c}, None) for c in COLOURS]
        for token, holder in held + boxed:
            for seat in range(n):
                assert worths.of(token, seat) == _worth(counts, rules, token["colour"], holder, seat), \
                    (rules, counts, token, holder, seat)
                checked += 1
    assert checked > 1000
