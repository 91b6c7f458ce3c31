"""Helpers for service tests: users, bots with an active version, and played matches."""

from __future__ import annotations

import random

import pytest

from ladder.models import BotCreate, User
from ladder.services import bots, matches, results
from ladder.services.results import MatchOutcome, SeatOutcome


class World:
    """Builds users, bots and matches through the services themselves."""

    def __init__(self, session):
        self.session = session
        self._n = 0

    def user(self, name: str | None = None, *, admin: bool = False):
        """A user row; no password hashing here (test_users covers sign-up), so tests stay fast."""
        self._n += 1
        user = User(username=name or f"user{self._n}", password_hash="!", is_admin=admin)
        self.session.add(user)
        self.session.commit()
        return user

    def bot(self, owner=None, game: str = "treasure", name: str | None = None, placement: int = 0):
        """A bot whose first version is active (validation skipped), owing `placement` games."""
        owner = owner or self.user()
        self._n += 1
        bot = bots.create_bot(session=self.session, owner_id=owner.id,
                              data=BotCreate(name=name or f"bot{self._n}", game=game))
        version = bots.add_version(session=self.session, bot_id=bot.id, code=b"print('hi')\n",
                                   filename="bot.py", placement_games=placement)
        bots.activate_version(session=self.session, version_id=version.id)
        return bot, version

    @staticmethod
    def random_ranks(rng: random.Random, n: int) -> list[int]:
        """Competition ranks ("1224") from random scores, ties included."""
        scores = [rng.randint(0, 3) for _ in range(n)]
        return [1 + sum(1 for o in scores if o > s) for s in scores]

    def play(self, version_ids, ranks, *, forfeited=None, worker="w1", ranked=True, kind="ladder", logs=None):
        """Queue, claim and record a match with the given ranks; returns the match."""
        match = matches.queue_match(session=self.session, game="treasure", seats=version_ids, ranked=ranked, kind=kind)
        assert matches.claim_match(session=self.session, match_id=match.id, worker_id=worker) is not None
        forfeited = forfeited or [False] * len(ranks)
        outcome = MatchOutcome([
            SeatOutcome(rank=r, score=10 * (len(ranks) - r), status="crash" if f else "ok", forfeited=f,
                        reason="exit code 1" if f else None, log=logs[i] if logs else None)
            for i, (r, f) in enumerate(zip(ranks, forfeited, strict=True))
        ])
        return results.record_result(session=self.session, match_id=match.id, outcome=outcome, worker_id=worker)


@pytest.fixture
def world(session) -> World:
    return World(session)
