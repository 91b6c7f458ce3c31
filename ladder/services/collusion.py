"""The collusion report over the stored matches (ladder/ranking/collusion.py does the statistics).

Reads the newest finished, rated, not voided matches of a game whose Game declares negotiation
facts (its `negotiations` part), their seats, ranks, the ratings before each (the rating changes'
`before`) and the replays, and ranks the pairs of bots of different owners by the strength of the
evidence. The house's starter bots all have one owner and are tested against each other anyway:
they are the control a moderator can compare with.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ladder.games import GAMES, get_game
from ladder.models import Bot, Match, MatchKind, MatchStatus, RatingChange, Seat, User
from ladder.ranking.collusion import ALPHA, MatchFacts, PairEvidence, evidence
from ladder.ranking.ratings import INITIAL_RATING, MILLI
from ladder.services.errors import Invalid
from ladder.services.stored_replays import stored_replays

DEFAULT_MATCHES = 2000


@dataclass(frozen=True, slots=True)
class BotLabel:
    id: int
    name: str
    owner: str


@dataclass(frozen=True, slots=True)
class PairRow:
    a: BotLabel
    b: BotLabel
    evidence: PairEvidence


@dataclass(frozen=True, slots=True)
class Report:
    game: str
    matches: int  # read
    pairs: int  # tested
    alpha: float
    rows: list[PairRow]  # strongest first


def games_with_negotiations() -> list[str]:
    return sorted(name for name in GAMES if get_game(name).part("negotiations") is not None)


def collusion_report(*, session: Session, game: str, matches: int = DEFAULT_MATCHES, top: int = 50) -> Report:
    """Invalid for a game without negotiation facts."""
    if game not in games_with_negotiations():
        raise Invalid(f"the collusion report reads negotiations: choose one of {', '.join(games_with_negotiations())}")
    part = get_game(game).part("negotiations")
    ids = list(session.exec(
        select(Match.id).where(Match.game == game, Match.status == MatchStatus.FINISHED, Match.ranked == True,  # noqa: E712
                               Match.kind == MatchKind.LADDER, Match.voided_at.is_(None))
        .order_by(Match.id.desc()).limit(max(1, min(matches, 20_000)))))
    ids.reverse()
    seats: dict[int, list[tuple[int, int, int | None]]] = {}
    for match_id, seat, bot_id, rank in session.exec(
            select(Seat.match_id, Seat.seat, Seat.bot_id, Seat.rank).where(Seat.match_id.in_(ids))
            .order_by(Seat.match_id, Seat.seat)) if ids else ():
        seats.setdefault(match_id, []).append((seat, bot_id, rank))
    before = {(m, b): v for m, b, v in session.exec(
        select(RatingChange.match_id, RatingChange.bot_id, RatingChange.before).where(RatingChange.match_id.in_(ids))
    )} if ids else {}
    facts = []
    for match_id, replay in sorted(stored_replays(session=session, match_ids=ids).items()):
        rows = seats.get(match_id, [])
        if not rows or any(rank is None for _, _, rank in rows):
            continue
        offers, votes = part.acts(replay.to_json())
        bots = [b for _, b, _ in rows]
        facts.append(MatchFacts(match_id, bots, [r for _, _, r in rows],
                                [before.get((match_id, b), INITIAL_RATING) / MILLI for b in bots], offers, votes))
    labels = _labels(session, {b for f in facts for b in f.bots})

    def same_owner(a: int, b: int) -> bool:
        return labels[a][1] == labels[b][1] and not labels[a][2]  # the house's bots: tested, as a control

    found = evidence(facts, skip=same_owner)
    rows = [PairRow(_label(labels, e.a), _label(labels, e.b), e) for e in found[:top]]
    return Report(game, len(facts), len(found), ALPHA, rows)


def _labels(session: Session, bot_ids: set[int]) -> dict[int, tuple[str, str, bool]]:
    if not bot_ids:
        return {}
    return {bid: (name, owner, is_system) for bid, name, owner, is_system in session.exec(
        select(Bot.id, Bot.name, User.username, User.is_system).join(User, User.id == Bot.owner_id)
        .where(Bot.id.in_(list(bot_ids))))}


def _label(labels: dict[int, tuple[str, str, bool]], bot_id: int) -> BotLabel:
    name, owner, _ = labels[bot_id]
    return BotLabel(bot_id, name, owner)


def as_json(report: Report, match_url) -> dict:
    return {"game": report.game, "matches": report.matches, "pairs": report.pairs, "alpha": report.alpha,
            "pairs_ranked": [{
                "a": {"id": r.a.id, "name": r.a.name, "owner": r.a.owner},
                "b": {"id": r.b.id, "name": r.b.name, "owner": r.b.owner},
                "p_value": r.evidence.p_value, "adjusted_p_value": r.evidence.adjusted,
                "strength": r.evidence.strength, "flagged": r.evidence.flagged,
                "tests": [{"name": t.name, "observed": t.observed, "trials": t.trials, "expected": t.expected,
                           "p_value": t.p_value} for t in r.evidence.tests],
                "shared_matches": len(r.evidence.matches),
                "matches": [match_url(m) for m in r.evidence.matches[:50]],
            } for r in report.rows]}
