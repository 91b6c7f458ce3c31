"""Rating changes keyed by (sequence, seat) (#43): the surrogate `id` said nothing the order
ratings were applied in and the seat do not, and cost a column and an index of its own on the
table that grows fastest with matches (four rows a match; about 120 B a match on PostgreSQL:
`ladder bench storage`). The index on (sequence, seat) that every replay of the ratings reads in
order becomes the primary key; (match_id, bot_id) stays unique (the match page, the rewrite).

On PostgreSQL the new primary key is built under the table's lock: minutes on a ladder of tens of
millions of rating changes; schedule the upgrade (docs/operations.md, "Upgrading"). SQLite copies
the table.

Revision ID: 0026_rating_changes_key
Revises: 0025_scorecard_rows_per_bot
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0026_rating_changes_key'
down_revision: str | None = '0025_scorecard_rows_per_bot'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('rating_changes') as batch:
        batch.drop_index('ix_rating_changes_sequence_seat')
        batch.drop_column('id')  # and the primary key made of it (PostgreSQL drops it with the column)
        batch.create_primary_key('rating_changes_pkey', ['sequence', 'seat'])


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE rating_changes DROP CONSTRAINT rating_changes_pkey")
        op.execute("ALTER TABLE rating_changes ADD COLUMN id SERIAL PRIMARY KEY")  # numbers the rows
    else:
        with op.batch_alter_table('rating_changes', recreate='always') as batch:
            batch.drop_constraint('rating_changes_pkey', type_='primary')
            batch.add_column(sa.Column('id', sa.Integer(), nullable=True))
        op.execute("UPDATE rating_changes SET id = rowid")
        with op.batch_alter_table('rating_changes', recreate='always') as batch:
            batch.alter_column('id', nullable=False)
            batch.create_primary_key('rating_changes_pkey', ['id'])
    op.create_index('ix_rating_changes_sequence_seat', 'rating_changes', ['sequence', 'seat'])
