"""House-bot games played on this machine, stored as ladder matches (`ladder play --record`).

A learning bot needs games to learn from, and `ladder export` (services/export.py) writes the
ladder's finished matches. On a fresh ladder there are none: this plays seeded games between the
starter bots in-process and records each one through the same path a worker's match takes
(queue_match, claim_match, record_result), so the export sees an ordinary finished match with its
seats, replay and log.

It runs the starter bots in this process, so only the command line calls it (`ladder play
--record`), never the web app or a worker: the site never runs bot code, and these are the
ladder's own bots, not uploads.

The matches are unranked (`ranked=False`): the starter bots are the ladder's fixed reference
points, and games played off the queue must not move anybody's rating. Their sandbox is `none`,
which is true: in-process bots have no isolation. Seeds make them reproducible: the same seeds
and bots give the same replays, so a model trained on them can be rebuilt byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlmodel import Session

from ladder.models import MatchKind
from ladder.play import play_builtin
from ladder.replay import Replay
from ladder.services.bots import active_version, seed_house_bots
from ladder.services.errors import Invalid
from ladder.services.matches import claim_match, queue_match
from ladder.services.results import outcome_from_replay, record_result

RECORDER = "ladder play --record"  # the claim's worker id: who played the match
SANDBOX = "none"  # in-process bots: no isolation, and the match says so


@dataclass(frozen=True)
class RecordedGame:
    match_id: int
    seed: int
    replay: Replay


def record_house_games(
    *,
    session: Session,
    game: str,
    bots: Sequence[str],
    seeds: Iterable[int],
    options: Mapping[str, object] | None = None,
    house_username: str = "house",
    on_game: Callable[[RecordedGame], None] = lambda g: None,
) -> list[RecordedGame]:
    """Play one game of `bots` (starter-bot names, one per seat, each at most once: a bot holds one
    seat of a match) for each seed and store it as a finished, unranked match. The starter bots are
    seeded first, so the matches name the house bots' current versions. Invalid for a name that is
    not one of the game's starter bots or a repeated one; nothing is written then."""
    if len(set(bots)) != len(bots):
        raise Invalid(f"a bot holds one seat of a match: {', '.join(bots)} repeats a name")
    house = {bot.name: bot for bot in seed_house_bots(session=session, username=house_username, games=[game])}
    unknown = [name for name in bots if name not in house]
    if unknown:
        raise Invalid(f"{unknown[0]!r} is not a starter bot of {game} (known: {', '.join(sorted(house))})")
    versions = []
    for name in bots:
        version = active_version(session=session, bot_id=house[name].id)
        if version is None:  # seed_house_bots activates one; a retired house bot has none
            raise Invalid(f"the house bot {name!r} has no active version")
        versions.append(version.id)
    recorded = []
    for seed in seeds:
        # Played before anything is written: a game that raises leaves no queued match behind.
        played = play_builtin(game, list(bots), seed=seed, options=options, sandbox=SANDBOX)
        match = queue_match(session=session, game=game, seats=versions, options=options, seed=seed,
                            kind=MatchKind.LADDER, ranked=False, sandbox=SANDBOX)
        claim_match(session=session, match_id=match.id, worker_id=RECORDER)
        record_result(session=session, match_id=match.id, outcome=outcome_from_replay(played.replay),
                      worker_id=RECORDER)
        game_record = RecordedGame(match.id, seed, played.replay)
        recorded.append(game_record)
        on_game(game_record)
    return recorded
