"""Use cases over a database session: plain functions, no HTTP, no Celery.

Every function takes the session as the keyword argument `session`. A function that changes the
database is one transaction: it commits when it succeeds and rolls back when it raises, so a view
or a task calls it and is done. Refusals are the exceptions in `ladder.services.errors`.

Modules: users (sign up, log in, API tokens), bots (bots, versions, retiring, starter bots),
matches (queue, claim, fail, sweep, matchmaking input), results (record a finished match),
ratings (the rating clock, applying and recomputing ratings), pages (leaderboard, bot page, match),
tournaments (events: create, enter, start, feed the workers) and tournament_views (the event pages),
export and dumps (the games as Parquet), house_games (starter-bot games recorded as matches).
"""

from ladder.services.errors import AlreadyRecorded, Conflict, Forbidden, Invalid, NotFound, ServiceError

__all__ = ["AlreadyRecorded", "Conflict", "Forbidden", "Invalid", "NotFound", "ServiceError"]
