"""Scorecards in the database: each seat's measures of a match, written when its result is recorded
(`record_scorecard`, inside record_result's transaction), merged per bot, version, table size and
opponent (ScorecardSum), and rebuilt from the stored replays by `ladder scorecard recompute`.

Which matches count: every finished match with a replay, but a tournament's (an event's deal is
held until every seat order is played: its measures would tell the deal) and a voided one (the
recompute leaves it out; recording cannot know of a later void). The measures are pure
(ladder/scorecard/, each game's part); this module only stores, merges and reads them.

Recording runs after the rating clock is taken, so results are recorded one at a time: the sums'
read-merge-write below needs no lock of its own.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, bindparam, delete, insert, or_, update
from sqlmodel import Session, select

from ladder.games import get_game
from ladder.games.base import Game
from ladder.games.scorecard import Measure
from ladder.models import Match, MatchKind, MatchStatus, ScorecardSum, ScorecardTally, Seat
from ladder.models import Replay as StoredReplay
from ladder.replay import Replay
from ladder.scorecard.common import Catalogue, catalogue, seat_tallies
from ladder.scorecard.tallies import Stored, encode, lean_kinds, merge_all, negated
from ladder.services.ratings import take_rating_clock
from ladder.services.stored_replays import replay_bytes, stored_replays

log = logging.getLogger(__name__)
ALL = 0  # a key column's "every version / size / opponent"
# A bot's seat rows kept: the bot page's chart reads its newest 200 (scorecard_views.py), and nothing
# else reads a row (a void or an export measures the replay); retention trims the older ones
CHART_ROWS = 200
LEFT_OUT_KINDS = (MatchKind.EVENT,)


@dataclass(frozen=True, slots=True)
class SeatCard:
    seat: int
    bot_id: int
    version_id: int
    rank: int
    tallies: dict[str, Stored]
    winners: dict[str, Stored]


def match_cards(game: Game, replay: Replay, seats: Sequence[tuple[int, int, int]]) -> list[SeatCard]:
    """Each seat's stored scorecard of one match; `seats` is (seat, bot id, version id) in seat order."""
    measures = catalogue(game)
    raw = seat_tallies(game, replay)
    ranks = {r.seat: r.rank for r in replay.results}
    stored = {}
    for seat, tallies in raw.items():
        row = {}
        for name, tally in tallies.items():
            kind = measures.kind(name)
            if kind is not None:
                row[name] = encode(kind, tally)
        stored[seat] = row
    kinds = measures.kinds({name for row in stored.values() for name in row})
    winners = merge_all(kinds, (row for seat, row in stored.items() if ranks.get(seat) == 1))
    return [SeatCard(seat, bot_id, version_id, ranks.get(seat, len(seats)), stored.get(seat, {}), winners)
            for seat, bot_id, version_id in seats]


def main_measures(measures: Catalogue) -> list[Measure]:
    """The chart's and the opponents' measures: first places, the score, the game's first two."""
    found = [measures.get("first"), measures.get("score"), *measures.game[:2]]
    return [m for m in found if m is not None]


def charted(game: Game, tallies: Mapping[str, Stored]) -> dict[str, Stored]:
    """A seat's tallies of the main measures: what the chart reads of each match."""
    return {m.name: tallies[m.name] for m in main_measures(catalogue(game)) if m.name in tallies}


def counts(match: Match) -> bool:
    return match.status == MatchStatus.FINISHED and match.kind not in LEFT_OUT_KINDS and match.voided_at is None


def measure_scorecard(match: Match, seats: Sequence[tuple[int, int, int]], replay: Replay | None) -> list[SeatCard]:
    """The seats' scorecards of a match whose result is being recorded (pure: nothing written);
    none for a match that does not count or has no (readable) replay. `replay` is the one the
    result's replay row is made from (stored_form parsed it), not parsed again here."""
    if replay is None or not counts(match):
        return []
    try:
        return match_cards(get_game(match.game), replay, seats)
    except Exception:  # a measure's defect must not cost the match its result: recompute fills it in
        log.exception("match %s: its scorecard could not be measured; `ladder scorecard recompute` retries", match.id)
        return []


def record_scorecard(session: Session, match: Match, cards: Sequence[SeatCard]) -> None:
    """Store measured seats' rows and merge them into the sums, in the result's transaction (whose
    replay row says `measured`: results.py writes it with these cards' outcome)."""
    if not cards:
        return
    game = get_game(match.game)
    session.exec(insert(ScorecardTally.__table__), params=[
        {"match_id": match.id, "seat": c.seat, "bot_id": c.bot_id, "bot_version_id": c.version_id,
         "game": match.game, "players": len(cards), "rank": c.rank, "charted": charted(game, c.tallies)}
        for c in cards])
    add_to_sums(session, game, match.id, cards)


def sum_keys(card: SeatCard, players: int, bots: Iterable[int]) -> list[tuple[int, int, int, int]]:
    """(bot, version, players, opponent) of every sum a seat's card goes into."""
    keys = [(card.bot_id, card.version_id, ALL, ALL), (card.bot_id, ALL, ALL, ALL), (card.bot_id, ALL, players, ALL)]
    keys += [(card.bot_id, ALL, ALL, other) for other in sorted(set(bots)) if other != card.bot_id]
    return keys


def add_to_sums(session: Session, game: Game, match_id: int, cards: Sequence[SeatCard], sign: int = 1) -> None:
    """Merge a match's cards into their sums (`sign` -1: cards negated, taking a match back out)."""
    bots = [c.bot_id for c in cards]
    wanted: dict[tuple[int, int, int, int], list[SeatCard]] = {}
    for card in cards:
        for key in sum_keys(card, len(cards), bots):
            wanted.setdefault(key, []).append(card)
    table = ScorecardSum.__table__
    columns = (table.c.bot_id, table.c.version_id, table.c.players, table.c.opponent_id)
    # Each key column within its few values, not the keys as tuples: the same rows (no other
    # combination of them is a sum's key), and a score of parameters rather than four a key, which
    # psycopg parses anew for every statement past 50 (1 to 2 ms a result).
    values = [sorted({key[i] for key in wanted}) for i in range(4)]
    found = {tuple(row[:4]): row[4:] for row in session.connection().execute(
        select(*columns, table.c.matches, table.c.tallies, table.c.winners)
        .where(*(column.in_(v) for column, v in zip(columns, values, strict=True))))
        if tuple(row[:4]) in wanted}
    names: set[str] = set()
    for mapping in (*(c.tallies for c in cards), *(c.winners for c in cards),
                    *(row[1] for row in found.values()), *(row[2] for row in found.values())):
        names.update(mapping)  # a dict's keys added in C, not one name at a time
    kinds = catalogue(game).kinds(names)
    lean = lean_kinds(kinds)
    updates, inserts = [], []
    for key, key_cards in wanted.items():
        matches, tallies, winners = found.get(key, (0, {}, {}))
        row = {"matches": matches + sign * len(key_cards), "last_match_id": match_id,
               **merged(kinds, key, tallies, winners, key_cards, lean)}
        if key in found:
            updates.append({"k_bot": key[0], "k_version": key[1], "k_players": key[2], "k_opponent": key[3], **row})
        else:
            inserts.append({"bot_id": key[0], "version_id": key[1], "players": key[2], "opponent_id": key[3],
                            "game": game.name, **row})
    if updates:
        session.exec(update(table).where(table.c.bot_id == bindparam("k_bot"),
                                         table.c.version_id == bindparam("k_version"),
                                         table.c.players == bindparam("k_players"),
                                         table.c.opponent_id == bindparam("k_opponent"))
                     .values(matches=bindparam("matches"), tallies=bindparam("tallies"),
                             winners=bindparam("winners"), last_match_id=bindparam("last_match_id")),
                     params=updates)
    if inserts:
        session.exec(insert(table), params=inserts)


def merged(kinds: Mapping[str, str], key: tuple[int, int, int, int], tallies: Mapping, winners: Mapping,
           cards: Sequence[SeatCard], lean: Mapping[str, str] | None = None) -> dict[str, dict]:
    """A sum's tallies and winners' tallies with these cards added. The sums per table size and per
    opponent keep no medians (the samples are the bot's own answer times: about it, not about its
    table) and no winners' figures (the page and the API compare a bot with an opponent there, not
    with the winners): those are most of what a merge costs, and a match adds to 12 of them. `lean`:
    `lean_kinds(kinds)`, when the caller has it (a merge leaves out every name it has no kind for)."""
    if key[2] != ALL or key[3] != ALL:
        lean = lean_kinds(kinds) if lean is None else lean
        return {"tallies": merge_all(lean, [tallies, *(c.tallies for c in cards)]), "winners": {}}
    return {"tallies": merge_all(kinds, [tallies, *(c.tallies for c in cards)]),
            "winners": merge_all(kinds, [winners, *(c.winners for c in cards)])}


def seat_keys(session: Session, match_ids: Iterable[int]) -> dict[int, tuple[str, list[tuple[int, int, int]]]]:
    """match -> (game, its seats' (seat, bot id, version id)) of the matches whose seats are in the
    sums (their replay row says `measured`; a pruned replay's match is not found), from the seats."""
    out: dict[int, tuple[str, list[tuple[int, int, int]]]] = {}
    for match_id, seat, bot_id, version_id, game in session.exec(
            select(Seat.match_id, Seat.seat, Seat.bot_id, Seat.bot_version_id, Match.game)
            .join(Match, Match.id == Seat.match_id)
            .join(StoredReplay, StoredReplay.match_id == Seat.match_id)
            .where(Seat.match_id.in_(sorted(set(match_ids))), StoredReplay.measured)
            .order_by(Seat.match_id, Seat.seat)):
        out.setdefault(match_id, (game, []))[1].append((seat, bot_id, version_id))
    return out


def measured_cards(keys: Mapping[int, tuple[str, list[tuple[int, int, int]]]],
                   replays: Mapping[int, Replay]) -> dict[int, tuple[Game, list[SeatCard]]]:
    """The seats' whole scorecards measured again from their replays (the rows keep only the
    charted tallies): match -> (game, cards); a match without a replay here is left out."""
    out = {}
    for match_id, (name, seats) in keys.items():
        if match_id in replays:
            game = get_game(name)
            out[match_id] = (game, match_cards(game, replays[match_id], seats))
    return out


def stored_cards(session: Session, match_ids: Iterable[int]) -> dict[int, tuple[Game, list[SeatCard]]]:
    """`measured_cards` of the matches' stored replays (pruned or unreadable ones left out)."""
    keys = seat_keys(session, match_ids)
    return measured_cards(keys, stored_replays(session=session, match_ids=keys))


@dataclass(frozen=True, slots=True)
class Forgotten:
    seats: int  # rows deleted
    unmeasured: int  # matches whose replay was gone: their sums keep them until a recompute


def forget_matches(session: Session, match_ids: Sequence[int]) -> Forgotten:
    """Take matches out of the scorecards (a moderator voided them): the tallies of those in the
    sums, measured again from their replays, are taken back out of every sum they went into (a sum
    left with no match goes), their replays no longer say `measured`, and their seats' rows (those
    retention has not trimmed) are deleted. Inside the caller's transaction, which holds the rating
    clock (services/voiding.py). A match whose replay was pruned cannot be measured again: it stays
    in its sums (logged, and counted in the result) until `ladder scorecard recompute`, which
    counts only matches with a replay."""
    ids = sorted(set(match_ids))
    keys = seat_keys(session, ids)
    measured = measured_cards(keys, stored_replays(session=session, match_ids=keys))
    for match_id, (game, cards) in measured.items():
        kinds = catalogue(game).kinds({n for c in cards for n in (*c.tallies, *c.winners)})
        negatives = [SeatCard(c.seat, c.bot_id, c.version_id, c.rank, negated(kinds, c.tallies),
                              negated(kinds, c.winners)) for c in cards]
        add_to_sums(session, game, match_id, negatives, sign=-1)
    if keys:
        session.exec(update(StoredReplay).where(StoredReplay.match_id.in_(sorted(keys))).values(measured=False)
                     .execution_options(synchronize_session=False))
        session.exec(delete(ScorecardSum).where(ScorecardSum.matches <= 0))
    # measured once, its replay since pruned: its rows and sums stay as they are (see above)
    unmeasured = sorted(session.exec(select(Match.id).where(
        Match.id.in_([m for m in ids if m not in keys]), Match.replay_pruned_at.is_not(None),
        Match.status == MatchStatus.FINISHED, Match.kind.not_in(LEFT_OUT_KINDS))).all()) if len(keys) < len(ids) else []
    if unmeasured:
        log.warning("voided matches %s have no replay left: their scorecards stay in the sums until "
                    "`ladder scorecard recompute`", unmeasured[:20])
    deleted = session.exec(delete(ScorecardTally).where(ScorecardTally.match_id.in_(ids))).rowcount if ids else 0
    return Forgotten(deleted, len(unmeasured))


# --- recomputing from the replays ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recomputed:
    matches: int
    seats: int
    sums: int
    differences: int  # stored seat rows and sums that differed from the recomputed ones (before the rewrite)


def recompute(sessions: Callable[[], Session], *, game: str | None = None, batch: int = 500,
              write: bool = True, progress: Callable[[int], None] = lambda n: None) -> Recomputed:
    """Every counted match's scorecards from its stored replay, in match order, compared with what
    is stored (the sums, the replays' `measured`, and the seats' rows each bot keeps: its newest
    CHART_ROWS); with `write`, the stored ones (of `game`, or all) are replaced by them.
    A write holds the rating clock from the first read to the commit, so no result is recorded
    meanwhile (recording waits for it): nothing recorded during the rebuild is lost or counted twice."""
    last, matches, seats, differences = 0, 0, 0, 0
    sums: dict[tuple[int, int, int, int], dict] = {}
    newest: dict[int, deque[tuple[dict, bool]]] = {}  # bot -> its newest rows, and whether the stored one differed
    measured_ids: list[int] = []
    with sessions() as session:
        if write:
            take_rating_clock(session)
        where = [Match.status == MatchStatus.FINISHED, Match.kind.not_in(LEFT_OUT_KINDS), Match.voided_at.is_(None)]
        if game is not None:
            where.append(Match.game == game)
        while True:
            rows = session.exec(
                select(Match.id, Match.game, StoredReplay.data, StoredReplay.measured)
                .join(StoredReplay, StoredReplay.match_id == Match.id)
                .where(and_(*where), Match.id > last).order_by(Match.id).limit(batch)).all()
            if not rows:
                break
            last = rows[-1][0]
            seat_rows: dict[int, list[tuple[int, int, int]]] = {}
            for match_id, seat, bot_id, version_id in session.exec(
                    select(Seat.match_id, Seat.seat, Seat.bot_id, Seat.bot_version_id)
                    .where(Seat.match_id.in_([r[0] for r in rows])).order_by(Seat.match_id, Seat.seat)):
                seat_rows.setdefault(match_id, []).append((seat, bot_id, version_id))
            stored = {(m, seat): shown for m, seat, shown in session.exec(
                select(ScorecardTally.match_id, ScorecardTally.seat, ScorecardTally.charted)
                .where(ScorecardTally.match_id.in_([r[0] for r in rows])))}
            for match_id, game_name, data, flagged in rows:
                the_game = get_game(game_name)
                replay = Replay.from_json(json.loads(replay_bytes(data)))  # either stored form
                cards = match_cards(the_game, replay, seat_rows.get(match_id, []))
                if bool(cards) != flagged:
                    differences += 1
                if cards:
                    measured_ids.append(match_id)
                for card in cards:
                    shown = charted(the_game, card.tallies)
                    row = {"match_id": match_id, "seat": card.seat, "bot_id": card.bot_id,
                           "bot_version_id": card.version_id, "game": game_name, "players": len(cards),
                           "rank": card.rank, "charted": shown}
                    kept = newest.get(card.bot_id)
                    if kept is None:
                        kept = newest[card.bot_id] = deque(maxlen=CHART_ROWS)
                    kept.append((row, stored.get((match_id, card.seat)) != shown))
                    _merge_into(sums, the_game, match_id, card, len(cards), [c.bot_id for c in cards])
                matches += 1
                seats += len(cards)
            progress(len(rows))
            if not write:
                session.rollback()  # end the read: a check holds no transaction across batches
        # a bot's rows past its newest CHART_ROWS are retention's to trim: neither compared nor written
        fresh = [row for kept in newest.values() for row, _differed in kept]
        differences += sum(differed for kept in newest.values() for _row, differed in kept)
        # the seat rows keep only the charted tallies: the sums are where every other measure is
        # stored, so they are compared too (a sum missing, extra or with other figures)
        table = ScorecardSum.__table__
        sum_where = [] if game is None else [table.c.game == game]
        kept_sums = {tuple(r[:4]): (r[4], r[5], r[6]) for r in session.connection().execute(
            select(table.c.bot_id, table.c.version_id, table.c.players, table.c.opponent_id, table.c.matches,
                   table.c.tallies, table.c.winners).where(*sum_where))}
        for key in set(kept_sums) | set(sums):
            row = sums.get(key)
            if row is None or kept_sums.get(key) != (row["matches"], row["tallies"], row["winners"]):
                differences += 1
        if not write:
            session.rollback()
        if write:
            tally_where = [] if game is None else [ScorecardTally.game == game]
            session.exec(delete(ScorecardTally).where(*tally_where))
            session.exec(delete(ScorecardSum).where(*([] if game is None else [ScorecardSum.game == game])))
            of_game = [] if game is None else [StoredReplay.match_id.in_(select(Match.id).where(Match.game == game))]
            session.exec(update(StoredReplay).where(StoredReplay.measured, *of_game).values(measured=False)
                         .execution_options(synchronize_session=False))
            for start in range(0, len(measured_ids), 5_000):
                session.exec(update(StoredReplay).where(StoredReplay.match_id.in_(measured_ids[start:start + 5_000]))
                             .values(measured=True).execution_options(synchronize_session=False))
            fresh.sort(key=lambda r: (r["match_id"], r["seat"]))
            for start in range(0, len(fresh), 5_000):
                session.exec(insert(ScorecardTally.__table__), params=fresh[start:start + 5_000])
            rows = list(sums.values())
            for start in range(0, len(rows), 5_000):
                session.exec(insert(ScorecardSum.__table__), params=rows[start:start + 5_000])
            session.commit()
    return Recomputed(matches, seats, len(sums), differences)


def _merge_into(sums: dict, game: Game, match_id: int, card: SeatCard, players: int, bots: list[int]) -> None:
    measures = catalogue(game)
    for key in sum_keys(card, players, bots):
        row = sums.get(key)
        if row is None:
            row = sums[key] = {"bot_id": key[0], "version_id": key[1], "players": key[2], "opponent_id": key[3],
                               "game": game.name, "matches": 0, "tallies": {}, "winners": {}, "last_match_id": None}
        kinds = measures.kinds({*row["tallies"], *row["winners"], *card.tallies, *card.winners})
        row["matches"] += 1
        row.update(merged(kinds, key, row["tallies"], row["winners"], [card]))
        row["last_match_id"] = match_id


# --- reading ----------------------------------------------------------------------------------


def sums_for(session: Session, bot_id: int,
             keys: Iterable[tuple[int, int, int]]) -> dict[tuple[int, int, int], Mapping]:
    """(version, players, opponent) -> that sum's row (matches, tallies, winners) of a bot."""
    keys = list(keys)
    if not keys:
        return {}
    table = ScorecardSum.__table__
    rows = session.connection().execute(
        select(table.c.version_id, table.c.players, table.c.opponent_id, table.c.matches, table.c.tallies,
               table.c.winners)
        .where(table.c.bot_id == bot_id, or_(*(and_(table.c.version_id == v, table.c.players == p,
                                                    table.c.opponent_id == o) for v, p, o in keys))))
    return {(v, p, o): {"matches": m, "tallies": t, "winners": w} for v, p, o, m, t, w in rows}
