"""When each match was last sent to the broker, the operators' switches (drain), and every finished
ranked match rated.

`matches.sent_at` lets the sweeper send a queued match again once its last send is older than
LADDER_MATCH_RESEND_AFTER, whether or not the broker is busy. `switches` holds `drain`, read by
every scheduler tick whichever process runs it.

A ranked match in which every seat forfeited was recorded `finished` without rating changes (the
ratings skip it: nobody showed strength, and it usually means the ladder's sandbox failed). Such a
match now ends `failed` (services/results.py), so a finished ranked match always has one rating
change per seat; the ones recorded before this revision are marked the same way. Nothing about
them changes but the status: they were never rated.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ALL_FORFEITED = "every seat forfeited: nothing to rate (recorded finished before migration 0008)"


def upgrade() -> None:
    op.add_column('matches', sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table('switches',
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name'),
    )
    op.execute(sa.text(
        "UPDATE matches SET status = 'failed', failure_reason = :reason "
        "WHERE status = 'finished' AND ranked "
        "AND NOT EXISTS (SELECT 1 FROM rating_changes r WHERE r.match_id = matches.id) "
        "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.match_id = matches.id AND NOT s.forfeited)"
    ).bindparams(reason=ALL_FORFEITED))


def downgrade() -> None:
    op.execute(sa.text("UPDATE matches SET status = 'finished', failure_reason = NULL WHERE failure_reason = :reason")
               .bindparams(reason=ALL_FORFEITED))
    op.drop_table('switches')
    # plain ALTER (SQLite 3.35+ has it): a batch copy of `matches` would trip the seats' foreign keys
    op.execute('ALTER TABLE matches DROP COLUMN sent_at')
