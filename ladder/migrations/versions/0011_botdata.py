"""Bot data: each bot's data folder, its versions as zips, and the version a seat or event entrant
is pinned to (docs/bots.md, "Bot data"; ladder/services/botdata.py).

Revision ID: 0011_botdata
Revises: 0010_person_seats
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011_botdata'
down_revision: str | None = '0010_person_seats'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('bot_data',
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('note_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bots.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('bot_id'),
    )
    op.create_table('bot_data_versions',
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('files', sa.Integer(), nullable=False),
    sa.Column('source', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bots.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('bot_id', 'number'),
    )
    # plain ADD COLUMN (nullable): a batch copy of `seats` would trip the foreign keys on it
    op.add_column('seats', sa.Column('data_version', sa.Integer(), nullable=True))
    op.add_column('event_entrants', sa.Column('data_version', sa.Integer(), nullable=True))


def downgrade() -> None:
    op.execute('ALTER TABLE event_entrants DROP COLUMN data_version')
    op.execute('ALTER TABLE seats DROP COLUMN data_version')
    op.drop_table('bot_data_versions')
    op.drop_table('bot_data')
