"""The collusion statistics: the tests' arithmetic, and the pair evidence on made-up facts."""

from __future__ import annotations

import math

import pytest

from ladder.ranking.collusion import (
    MatchFacts,
    Offer,
    Vote,
    binomial_upper,
    evidence,
    fisher,
    poisson_binomial_two_sided,
)


def test_binomial_tail_and_fisher_against_closed_forms():
    assert binomial_upper(0, 5, 0.3) == 1.0
    assert binomial_upper(5, 5, 0.5) == pytest.approx(1 / 32)
    assert binomial_upper(2, 3, 0.5) == pytest.approx(4 / 8)
    assert fisher([0.05]) == pytest.approx(0.05)
    # two p-values: sf of chi2(4) at x = -2 ln(p1 p2) is p1 p2 (1 - ln(p1 p2))
    assert fisher([0.1, 0.2]) == pytest.approx(0.02 * (1 - math.log(0.02)))
    assert poisson_binomial_two_sided([(True, 0.5)] * 10) == pytest.approx(2 / 1024)
    assert poisson_binomial_two_sided([(True, 0.5), (False, 0.5)]) == 1.0


def _match(i, bots, offers=(), votes=(), ranks=(1, 2, 3)):
    return MatchFacts(i, bots, list(ranks), [1500.0] * len(bots), list(offers), list(votes))


def test_a_pair_that_gifts_only_to_each_other_is_flagged_and_an_even_handed_one_is_not():
    matches = []
    for i in range(30):
        # seat 0 (bot 1) gives bot 2 everything, and accepts bot 2 taking everything; with bot 3 it is fair
        offers = [Offer(0, 1, 1.0, 0.5), Offer(0, 2, 0.3, 0.3), Offer(1, 0, 0.0, 0.5), Offer(2, 0, 0.4, 0.4)]
        votes = [Vote(0, 1, 0.0, 0.5, True), Vote(0, 2, 0.05, 0.5, False), Vote(2, 1, 0.0, 0.5, False)]
        ranks = [(1, 2, 3), (2, 3, 1), (3, 1, 2)][i % 3]  # each finishes above each other half the time
        matches.append(_match(i, [1, 2, 3], offers, votes, ranks=ranks))
    found = {(e.a, e.b): e for e in evidence(matches)}
    assert found[(1, 2)].flagged and found[(1, 2)].p_value < 1e-10
    assert not found[(1, 3)].flagged and not found[(2, 3)].flagged
    assert found[(1, 2)].matches[0] == 29  # newest first, for the report's links
    assert {t.name.split()[0] for t in found[(1, 2)].tests} == {"gifts", "concessions", "head"}


def test_skipped_pairs_are_not_tested():
    matches = [_match(i, [1, 2, 3], [Offer(0, 1, 1.0, 0.5)]) for i in range(5)]
    assert {(e.a, e.b) for e in evidence(matches, skip=lambda a, b: {a, b} == {1, 2})} == {(1, 3), (2, 3)}
