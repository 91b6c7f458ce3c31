"""Rating history index covers the bot page's columns (PostgreSQL INCLUDE).

The bot page reads a bot's last 200 rating changes; with a plain (bot_id, sequence) index each
row cost a heap page read once the table outgrew memory (bot page 1.56x slower at 1M matches).
SQLite has no INCLUDE: there the index stays as it was.

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COVERED = ['match_id', 'before', 'delta', 'after', 'created_at']


def upgrade() -> None:
    op.drop_index('ix_rating_changes_bot_sequence', table_name='rating_changes')
    op.create_index('ix_rating_changes_bot_sequence', 'rating_changes', ['bot_id', 'sequence'],
                    postgresql_include=COVERED)


def downgrade() -> None:
    op.drop_index('ix_rating_changes_bot_sequence', table_name='rating_changes')
    op.create_index('ix_rating_changes_bot_sequence', 'rating_changes', ['bot_id', 'sequence'])
