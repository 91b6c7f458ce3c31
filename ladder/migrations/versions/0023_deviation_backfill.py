"""The deviations' backfill (#46): no schema change. Migration 0019 gave every older rating and
rating change the initial deviation; the true ones come only from replaying the rated history with
the current code (ladder.services.ratings.rewrite_ratings), which a migration in the chain must not
import (its models are the head's, not this revision's). So `ladder migrate` and `ladder up` run
that replay once, after the schema reaches head, on a database whose upgrade crossed this revision
(ladder.cli.serve.prepare_instance): every ladder upgraded from before 0019, and those upgraded to
0019-0022 whose operator did not yet run `ladder ratings recompute --write`.

Revision ID: 0023_deviation_backfill
Revises: 0022_leagues
"""

from collections.abc import Sequence

revision: str = '0023_deviation_backfill'
down_revision: str | None = '0022_leagues'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass  # the backfill runs after the upgrade (see above)


def downgrade() -> None:
    pass
