"""Two indexes of the tables that grow with matches made smaller (#43), about 120 B a match on
PostgreSQL (`ladder bench storage`):

- `ix_seats_version` goes: only the ratings' accuracy report read it, to ask whether a version
  had played a rated match before its window. A version's first rated sequence
  (`bot_versions.first_rated_sequence`, written with its first rating change, checked and
  rewritten by the ratings recompute) answers that from the versions table, which grows with
  uploads, not matches. The backfill reads it through the index before dropping it.
- `ix_rating_changes_bot_sequence` covers only what the bot page's chart reads (match, before,
  after): 40 B a row, where `delta` and `created_at` made it 48 (PostgreSQL aligns an index tuple
  to 8 B, so dropping one of the two would have saved nothing). A delta is after - before; the
  API's history, which shows times, reads its 50 heap rows.

On PostgreSQL the index is rebuilt under the table's lock, one B-tree build over every rating
change: schedule the upgrade (docs/operations.md, "Upgrading"). SQLite has no included columns:
its index stays as it is.

Revision ID: 0027_lean_match_indexes
Revises: 0026_rating_changes_key
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ladder.migrations.sqlite import foreign_keys_off

revision: str = '0027_lean_match_indexes'
down_revision: str | None = '0026_rating_changes_key'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FIRST_SEQUENCES = """
UPDATE bot_versions SET first_rated_sequence = (
    SELECT min(rc.sequence) FROM seats s
    JOIN rating_changes rc ON rc.match_id = s.match_id AND rc.seat = s.seat
    WHERE s.bot_version_id = bot_versions.id)
"""


def _history_index(include: list[str]) -> None:
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.drop_index('ix_rating_changes_bot_sequence', table_name='rating_changes')
    op.create_index('ix_rating_changes_bot_sequence', 'rating_changes', ['bot_id', 'sequence'],
                    postgresql_include=include)


def upgrade() -> None:
    with op.batch_alter_table('bot_versions') as batch:
        batch.add_column(sa.Column('first_rated_sequence', sa.BigInteger(), nullable=True))
    op.execute(FIRST_SEQUENCES)
    op.drop_index('ix_seats_version', table_name='seats')
    _history_index(['match_id', 'before', 'after'])


def downgrade() -> None:
    _history_index(['match_id', 'before', 'delta', 'after', 'created_at'])
    op.create_index('ix_seats_version', 'seats', ['bot_version_id'])
    # SQLite copies bot_versions, which seats reference
    with foreign_keys_off(revision), op.batch_alter_table('bot_versions') as batch:
        batch.drop_column('first_rated_sequence')
