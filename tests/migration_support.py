"""Rows for the migration tests, written through the head's services: bots with an active
version, and rated matches of house bots played in process."""

from __future__ import annotations

from sqlmodel import Session

from ladder.models import BotCreate, User
from ladder.play import play_builtin
from ladder.services import bots, matches, results


def versions(session: Session, names: list[str], game: str = "treasure") -> list[int]:
    """A bot per name, of one owner, each with an active version; their version ids."""
    owner = User(username="owner", password_hash="!")
    session.add(owner)
    session.commit()
    out = []
    for name in names:
        bot = bots.create_bot(session=session, owner_id=owner.id, data=BotCreate(name=name, game=game))
        version = bots.add_version(session=session, bot_id=bot.id, code=b"print(1)\n", filename="bot.py",
                                   placement_games=0)
        bots.activate_version(session=session, version_id=version.id)
        out.append(version.id)
    return out


def played(session: Session, seated: list[int], starters: list[str], seed: int, game: str = "treasure") -> int:
    """A match of `seated` versions, played by the `starters` and recorded; its id."""
    match = matches.queue_match(session=session, game=game, seats=seated, seed=seed)
    matches.claim_match(session=session, match_id=match.id, worker_id="w")
    replay = play_builtin(game, starters, seed=seed).replay
    results.record_result(session=session, match_id=match.id, outcome=results.outcome_from_replay(replay),
                          worker_id="w")
    return match.id
