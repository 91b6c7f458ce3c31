"""A bot's seats and head-to-head rows are read from their indexes alone (PostgreSQL INCLUDE).

The bot page reads a bot's last 20 seats (rank, score, status) and its 20 most frequent opponents
(won, lost, tied). With plain (bot_id, ...) indexes each of those rows cost a heap page read, and
at a million matches those pages are rarely in memory. SQLite has no INCLUDE: there the indexes
stay as they were. The price: writing a seat's result is no longer a HOT update (its columns are now
in an index), a few more index entries per match; head-to-head updates change `meetings`, a key
column, so they were never HOT.

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (index, table, key columns, covered columns), as declared in ladder/models.py
INDEXES = [
    ('ix_seats_bot_match', 'seats', ['bot_id', 'match_id'], ['rank', 'score', 'status']),
    ('ix_head_to_head_bot_meetings', 'head_to_head', ['bot_id', 'meetings'],
     ['opponent_id', 'wins', 'losses', 'ties']),
]


def upgrade() -> None:
    for name, table, columns, covered in INDEXES:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, columns, postgresql_include=covered)


def downgrade() -> None:
    for name, table, columns, _ in INDEXES:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, columns)
