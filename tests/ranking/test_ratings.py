import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.ranking.ratings import (
    INITIAL_RATING,
    K_ESTABLISHED,
    K_PROVISIONAL,
    MILLI,
    PROVISIONAL_GAMES,
    RankedSeat,
    RatedSeat,
    RatingBook,
    expected_score,
    is_rated,
    ranks_with_forfeits,
    rate_match,
    recompute,
)

ratings = st.integers(min_value=0, max_value=4000 * MILLI)
games = st.integers(min_value=0, max_value=2 * PROVISIONAL_GAMES)


@st.composite
def matches(draw, min_seats=2, max_seats=6):
    n = draw(st.integers(min_seats, max_seats))
    ranks = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    return [RatedSeat(draw(ratings), draw(games), r) for r in ranks]


@settings(max_examples=3000)
@given(matches())
def test_every_match_is_zero_sum(seats):
    assert sum(rate_match(seats)) == 0


@settings(max_examples=500)
@given(matches(), st.randoms(use_true_random=False))
def test_seat_order_does_not_change_anyones_delta(seats, rnd):
    order = list(range(len(seats)))
    rnd.shuffle(order)
    base = rate_match(seats)
    shuffled = rate_match([seats[i] for i in order])
    assert shuffled == [base[i] for i in order]


@given(ratings, st.integers(-800 * MILLI, 800 * MILLI), games, games)
def test_winner_gains_and_loser_loses(ra, gap, ga, gb):
    rb = ra + gap
    win = rate_match([RatedSeat(ra, ga, 1), RatedSeat(rb, gb, 2)])
    loss = rate_match([RatedSeat(ra, ga, 2), RatedSeat(rb, gb, 1)])
    assert win[0] > 0 > win[1]
    assert loss[0] < 0 < loss[1]


@given(matches(min_seats=3))
def test_a_sole_winner_never_loses_and_a_sole_last_never_gains(seats):
    # with huge gaps the expected result rounds to 0 milli-points, hence >= rather than >
    deltas = rate_match(seats)
    ranks = [s.rank for s in seats]
    best, worst = min(ranks), max(ranks)
    if ranks.count(best) == 1:
        assert deltas[ranks.index(best)] >= 0
    if ranks.count(worst) == 1 and worst != best:
        assert deltas[ranks.index(worst)] <= 0


@given(st.integers(3, 6), ratings, games)
def test_sole_winner_gains_and_sole_loser_loses_at_any_table(n, rating, g):
    seats = [RatedSeat(rating, g, 1)] + [RatedSeat(rating, g, 2)] * (n - 2) + [RatedSeat(rating, g, n)]
    deltas = rate_match(seats)
    assert deltas[0] > 0
    assert deltas[-1] < 0


@given(st.integers(2, 6), ratings, games)
def test_tie_between_equal_ratings_changes_nothing(n, rating, g):
    assert rate_match([RatedSeat(rating, g, 1)] * n) == [0] * n


def test_two_player_game_between_equals_moves_half_of_k():
    assert rate_match([RatedSeat(INITIAL_RATING, 99, 1), RatedSeat(INITIAL_RATING, 99, 2)]) == [
        K_ESTABLISHED * MILLI // 2,
        -K_ESTABLISHED * MILLI // 2,
    ]


@given(st.integers(2, 6))
def test_k_is_scaled_by_table_size(n):
    # first place at a table of equals wins about K/2, as in one two-player game
    top = rate_match([RatedSeat(INITIAL_RATING, 99, r) for r in range(1, n + 1)])[0]
    assert abs(top - K_ESTABLISHED * MILLI // 2) <= n  # per-pair rounding, at most 0.5 milli a pair


def test_provisional_k_is_bigger():
    est = rate_match([RatedSeat(INITIAL_RATING, PROVISIONAL_GAMES, 1), RatedSeat(INITIAL_RATING, PROVISIONAL_GAMES, 2)])
    new = rate_match([RatedSeat(INITIAL_RATING, 0, 1), RatedSeat(INITIAL_RATING, 0, 2)])
    mixed = rate_match([RatedSeat(INITIAL_RATING, 0, 1), RatedSeat(INITIAL_RATING, PROVISIONAL_GAMES, 2)])
    assert new[0] == K_PROVISIONAL * MILLI // 2 > est[0]
    assert est[0] < mixed[0] < new[0]  # the pair uses the mean K, so the exchange stays symmetric
    assert sum(mixed) == 0


def test_upset_moves_more_than_expected_win():
    strong, weak = INITIAL_RATING + 300 * MILLI, INITIAL_RATING
    expected_win = rate_match([RatedSeat(strong, 99, 1), RatedSeat(weak, 99, 2)])[0]
    upset = rate_match([RatedSeat(strong, 99, 2), RatedSeat(weak, 99, 1)])[1]
    assert 0 < expected_win < upset


def test_expected_score_matches_the_logistic():
    assert expected_score(0) == 0.5
    assert abs(float(expected_score(400 * MILLI)) - 1 / 11) < 1e-15
    with pytest.raises(ValueError):
        expected_score(-1)


@given(st.lists(st.tuples(st.integers(1, 6), st.booleans()), min_size=2, max_size=6))
def test_forfeiters_share_the_last_rank(seats):
    ranks, forfeited = zip(*seats, strict=True)
    out = ranks_with_forfeits(ranks, forfeited)
    playing = [r for r, f in zip(out, forfeited, strict=True) if not f]
    for r, f in zip(out, forfeited, strict=True):
        if f:
            assert r == len(playing) + 1
            assert all(p < r for p in playing)
    # players keep their relative order
    originals = [r for r, f in zip(ranks, forfeited, strict=True) if not f]
    for a, ra in zip(playing, originals, strict=True):
        for b, rb in zip(playing, originals, strict=True):
            assert (ra < rb) == (a < b)


def test_forfeiting_winner_is_ranked_last():
    assert ranks_with_forfeits([1, 2, 3, 4], [True, False, False, False]) == [4, 1, 2, 3]
    assert ranks_with_forfeits([1, 2, 2, 4], [False, True, False, True]) == [1, 3, 2, 3]


def test_which_matches_are_rated():
    assert is_rated("finished")
    assert is_rated("finished", forfeited=[True, False, False])
    assert not is_rated("failed")
    assert not is_rated("queued")
    assert not is_rated("running")
    assert not is_rated("finished", ranked=False)
    assert not is_rated("finished", forfeited=[True, True, True])


def random_history(seed, matches=400, players=30):
    rnd = random.Random(seed)
    out = []
    for m in range(matches):
        n = rnd.randint(2, 6)
        seated = rnd.sample(range(players), n)
        out.append((m, [(p, rnd.randint(1, n), rnd.random() < 0.05) for p in seated]))
    return out


def test_recompute_is_reproducible_and_order_defined():
    history = random_history(7)
    first, second = recompute(history), recompute(history)
    assert first == second
    assert sum(first.ratings.values()) == INITIAL_RATING * len(first.ratings)
    swapped = history[:]
    swapped[0], swapped[-1] = swapped[-1], swapped[0]
    assert recompute(swapped).ratings != first.ratings


def test_recompute_matches_live_updates():
    # the live path (a RatingBook fed one match at a time, as the worker will) and the replay agree
    history = random_history(11)
    book = RatingBook()
    live = [book.apply(mid, [RankedSeat(*s) for s in seats]) for mid, seats in history]
    replay = recompute(history)
    assert replay.matches == live
    assert replay.ratings == book.ratings
    for m in live:
        assert sum(c.delta for c in m.changes) == 0


def test_provisional_games_counted_per_player():
    history = random_history(3, matches=200, players=10)
    result = recompute(history)
    played = {}
    for _mid, seats in history:
        for p, _r, _f in seats:
            played[p] = played.get(p, 0) + 1
    assert result.games == played
    # the games_before recorded on each change counts up from zero
    seen = {}
    for m in result.matches:
        for c in m.changes:
            assert c.games_before == seen.get(c.player, 0)
            seen[c.player] = c.games_before + 1


def test_a_player_cannot_hold_two_seats():
    with pytest.raises(ValueError):
        recompute([(1, [("a", 1, False), ("a", 2, False)])])
