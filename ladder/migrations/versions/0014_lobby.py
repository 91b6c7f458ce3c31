"""The open ladder's lobby (#26): remote bots waiting to be paired, and their no-shows.

Revision ID: 0014_lobby
Revises: 0013_longpoll
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014_lobby'
down_revision: str | None = '0013_longpoll'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('lobby',
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('waiting', sa.Boolean(), nullable=False),
    sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=True),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('no_shows', sa.Integer(), nullable=False),
    sa.Column('benched_until', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['bot_id'], ['bots.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('bot_id'),
    )
    op.create_index('ix_lobby_user_id', 'lobby', ['user_id'], unique=False)
    op.create_index('ix_lobby_game', 'lobby', ['game'], unique=False)
    op.create_index('ix_lobby_address', 'lobby', ['address'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_lobby_address', table_name='lobby')
    op.drop_index('ix_lobby_game', table_name='lobby')
    op.drop_index('ix_lobby_user_id', table_name='lobby')
    op.drop_table('lobby')
