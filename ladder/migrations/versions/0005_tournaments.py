"""Tournaments: events, their entrants and their scheduled matches; match kind `event`.

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS_BEFORE = "kind IN ('ladder', 'validation', 'challenge')"
KINDS_AFTER = "kind IN ('ladder', 'validation', 'challenge', 'event')"


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:  # SQLite rebuilds the table to change a CHECK
        batch.drop_constraint('ck_matches_kind', type_='check')
        batch.create_check_constraint('ck_matches_kind', KINDS_AFTER)
    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('format', sa.String(length=16), nullable=False),
    sa.Column('table_size', sa.Integer(), nullable=False),
    sa.Column('deals', sa.Integer(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('duplicate', sa.Boolean(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('open_registration', sa.Boolean(), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('organizer_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('registration', 'running', 'finished')", name='ck_events_status'),
    sa.ForeignKeyConstraint(['organizer_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('event_entrants',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('bot_version_id', sa.Integer(), nullable=True),
    sa.Column('invited', sa.Boolean(), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bots.id'], ),
    sa.ForeignKeyConstraint(['bot_version_id'], ['bot_versions.id'], ),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('event_id', 'bot_id')
    )
    op.create_table('event_matches',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('index', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('deal', sa.Integer(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('order_no', sa.Integer(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('event_id', 'index'),
    sa.UniqueConstraint('match_id', name='uq_event_matches_match')
    )


def downgrade() -> None:
    op.drop_table('event_matches')
    op.drop_table('event_entrants')
    op.drop_table('events')
    op.execute("DELETE FROM matches WHERE kind = 'event'")
    with op.batch_alter_table('matches') as batch:
        batch.drop_constraint('ck_matches_kind', type_='check')
        batch.create_check_constraint('ck_matches_kind', KINDS_BEFORE)
