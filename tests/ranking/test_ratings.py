import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.ranking.ratings import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    K_ESTABLISHED,
    K_PROVISIONAL,
    MILLI,
    NOISE_FACTOR,
    PROVISIONAL_GAMES,
    UNCERTAIN_HALF_WIDTH,
    VERSION_DEVIATION,
    RankedSeat,
    RatedSeat,
    RatingBook,
    expected_score,
    half_width,
    is_rated,
    is_uncertain,
    next_deviations,
    next_version_deviation,
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


# --- the deviation (docs/ratings.md, "How sure a rating is") ------------------------------------


def _by_hand(seats: list[RatedSeat]) -> list[float]:
    """next_deviations' formula written again in floats, in Elo points (the test's own arithmetic)."""
    n = len(seats)
    out = []
    for i, me in enumerate(seats):
        gain = carried = noise = 0.0
        for j, other in enumerate(seats):
            if i == j:
                continue
            k = ((K_PROVISIONAL if me.games < PROVISIONAL_GAMES else K_ESTABLISHED)
                 + (K_PROVISIONAL if other.games < PROVISIONAL_GAMES else K_ESTABLISHED)) / 2 / (n - 1)
            e = 1 / (1 + 10 ** ((other.rating - me.rating) / MILLI / 400))
            ks = k * e * (1 - e) * math.log(10) / 400
            gain += ks
            carried += ks * ks * (other.deviation / MILLI) ** 2
            noise += k * k * e * (1 - e)
        out.append(math.sqrt((1 - gain) ** 2 * (me.deviation / MILLI) ** 2 + carried
                             + (n + 1) / 3 * NOISE_FACTOR * noise))
    return out


def test_two_new_bots_deviation_by_hand():
    # K 64, E 1/2: a = 64 * 0.25 * ln10/400 = 0.0921; P' = (1-a)^2 300^2 + a^2 300^2 + 2 * 64^2 / 4
    seats = [RatedSeat(INITIAL_RATING, 0, 1, 300 * MILLI), RatedSeat(INITIAL_RATING, 0, 2, 300 * MILLI)]
    assert NOISE_FACTOR == 2
    assert next_deviations(seats) == [277482, 277482]  # 277.48213 points
    # the rank does not enter: the deviation says how much the rating may be off, not which way
    assert next_deviations(seats[::-1]) == [277482, 277482]


@pytest.mark.parametrize("table", [
    [(1500, 0, 1, 300), (1500, 0, 2, 300), (1500, 0, 3, 300), (1500, 0, 4, 300)],
    [(1720, 45, 2, 57), (1380, 3, 1, 240), (1555, 25, 3, 90)],
    [(2100, 200, 1, 56), (1200, 200, 2, 60)],
    [(1500, 19, 1, 120), (1500, 20, 1, 120), (1610, 0, 3, 300), (1440, 80, 2, 56), (1390, 7, 4, 200)],
])
def test_deviation_matches_the_formula_by_hand(table):
    seats = [RatedSeat(r * MILLI, g, rank, d * MILLI) for r, g, rank, d in table]
    got = next_deviations(seats)
    for value, expected in zip(got, _by_hand(seats), strict=True):
        assert abs(value / MILLI - min(expected, INITIAL_DEVIATION / MILLI)) < 0.002


def test_deviation_shrinks_with_games_towards_the_elos_own_noise():
    deviation, seen = INITIAL_DEVIATION, []
    for played in range(300):
        deviation = next_deviations([RatedSeat(INITIAL_RATING, played, 1, deviation)]
                                    + [RatedSeat(INITIAL_RATING, 100, 2, 56 * MILLI)] * 3)[0]
        seen.append(deviation)
    assert all(b <= a for a, b in itertools.pairwise(seen))  # never widens without a new version
    assert 50 * MILLI < seen[-1] < 60 * MILLI  # K 32 at four seats keeps it near 56: Elo never stops moving
    assert is_uncertain(seen[19]) and not is_uncertain(seen[49])  # "?" through the first 30 games or so


def test_a_new_version_widens_the_deviation_and_the_cap_holds():
    assert next_version_deviation(56 * MILLI) == round(math.hypot(56, VERSION_DEVIATION / MILLI) * MILLI)
    assert next_version_deviation(280 * MILLI) == INITIAL_DEVIATION
    assert max(next_deviations([RatedSeat(INITIAL_RATING, 0, 1), RatedSeat(4000 * MILLI, 0, 2)])) <= INITIAL_DEVIATION
    book = RatingBook()
    first = book.apply(1, [RankedSeat("a", 1, version=1), RankedSeat("b", 2, version=7)])
    same = book.apply(2, [RankedSeat("a", 1, version=1), RankedSeat("b", 2, version=7)])
    assert [c.deviation_before for c in same.changes] == [c.deviation for c in first.changes]
    newer = book.apply(3, [RankedSeat("a", 1, version=2), RankedSeat("b", 2, version=7)])
    assert newer.changes[0].deviation_before == next_version_deviation(same.changes[0].deviation)
    assert newer.changes[1].deviation_before == same.changes[1].deviation


def test_the_question_mark_threshold():
    assert half_width(75 * MILLI) == UNCERTAIN_HALF_WIDTH == 150 * MILLI
    assert not is_uncertain(75 * MILLI) and is_uncertain(75 * MILLI + 1)


def test_recompute_reproduces_the_deviations():
    history = [(m, [(p, r, f, (p, m // 40)) for p, r, f in seats]) for m, seats in random_history(5)]
    book = RatingBook()
    live = [book.apply(mid, [RankedSeat(*s) for s in seats]) for mid, seats in history]
    replay = recompute(history)
    assert replay.matches == live and replay.deviations == book.deviations
    assert len({c.deviation for m in live for c in m.changes}) > 10
