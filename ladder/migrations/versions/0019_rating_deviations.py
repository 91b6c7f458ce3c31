"""How sure each rating is (#46): a deviation beside every rating and rating change, the version a
bot's rating last played with (a new one widens it), and the stored accuracy report per game.

Existing rows get the initial deviation; `ladder ratings recompute --write` then replays the
history and writes every deviation (until then the ratings check counts them as differences).

Revision ID: 0019_rating_deviations
Revises: 0018_compact_replays
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0019_rating_deviations'
down_revision: str | None = '0018_compact_replays'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INITIAL_DEVIATION = 300_000  # ladder.ranking.ratings.INITIAL_DEVIATION when this was written


def upgrade() -> None:
    with op.batch_alter_table('ratings') as batch:
        batch.add_column(sa.Column('deviation', sa.Integer(), nullable=False,
                                   server_default=str(INITIAL_DEVIATION)))
        batch.add_column(sa.Column('version_id', sa.Integer(), nullable=True))
    with op.batch_alter_table('rating_changes') as batch:
        batch.add_column(sa.Column('deviation_before', sa.Integer(), nullable=False,
                                   server_default=str(INITIAL_DEVIATION)))
        batch.add_column(sa.Column('deviation', sa.Integer(), nullable=False,
                                   server_default=str(INITIAL_DEVIATION)))
    op.create_table(
        'rating_reports',
        sa.Column('game', sa.String(length=32), primary_key=True),
        sa.Column('computed_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('body', sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('rating_reports')
    with op.batch_alter_table('rating_changes') as batch:
        batch.drop_column('deviation')
        batch.drop_column('deviation_before')
    with op.batch_alter_table('ratings') as batch:
        batch.drop_column('version_id')
        batch.drop_column('deviation')
