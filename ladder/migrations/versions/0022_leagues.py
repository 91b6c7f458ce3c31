"""Leagues and seasons (#46): each contestant's league and its newest meetings with the league's
boss, the promotions, the league a ladder table was made in; seasons and their archived finals.

Revision ID: 0022_leagues
Revises: 0021_store_retention
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ladder.migrations.sqlite import foreign_keys_off

revision: str = '0022_leagues'
down_revision: str | None = '0021_store_retention'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('league', sa.Integer(), nullable=True))
    op.create_table(
        'league_members',
        sa.Column('bot_id', sa.Integer(), sa.ForeignKey('bots.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('league', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('record', sa.String(length=32), nullable=False, server_default=''),
        sa.Column('evidence', sa.Float(), nullable=False, server_default='0'),
    )
    op.create_index('ix_league_members_game_league', 'league_members', ['game', 'league'])
    op.create_table(
        'league_moves',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('bot_id', sa.Integer(), sa.ForeignKey('bots.id', ondelete='CASCADE'), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('from_league', sa.Integer(), nullable=False),
        sa.Column('to_league', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('match_id', sa.Integer(), sa.ForeignKey('matches.id', ondelete='SET NULL'), nullable=True),
        sa.Column('record', sa.String(length=32), nullable=False, server_default=''),
    )
    op.create_index('ix_league_moves_game_at', 'league_moves', ['game', 'at'])
    op.create_index('ix_league_moves_bot', 'league_moves', ['bot_id'])
    op.create_table(
        'seasons',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('organizer_id', sa.Integer(), sa.ForeignKey('users.id'), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finalists', sa.Integer(), nullable=False),
        sa.Column('final_rounds', sa.Integer(), nullable=False),
        sa.Column('final_deals', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('events.id'), nullable=True),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('open', 'final', 'closed')", name='ck_seasons_status'),
    )
    op.create_index('ix_seasons_game_status', 'seasons', ['game', 'status'])
    op.create_table(
        'season_standings',
        sa.Column('season_id', sa.Integer(), sa.ForeignKey('seasons.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('place', sa.Integer(), primary_key=True),
        sa.Column('bot_id', sa.Integer(), sa.ForeignKey('bots.id'), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('league', sa.Integer(), nullable=True),
        sa.Column('rating', sa.Integer(), nullable=True),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('mean_rank', sa.Float(), nullable=False),
        sa.Column('rank_low', sa.Float(), nullable=False),
        sa.Column('rank_high', sa.Float(), nullable=False),
        sa.Column('mean_score', sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('season_standings')
    op.drop_index('ix_seasons_game_status', table_name='seasons')
    op.drop_table('seasons')
    op.drop_index('ix_league_moves_bot', table_name='league_moves')
    op.drop_index('ix_league_moves_game_at', table_name='league_moves')
    op.drop_table('league_moves')
    op.drop_index('ix_league_members_game_league', table_name='league_members')
    op.drop_table('league_members')
    # SQLite copies `matches` to drop a column: with foreign keys on, its seats and replays went too
    with foreign_keys_off('0022'), op.batch_alter_table('matches') as batch:
        batch.drop_column('league')
