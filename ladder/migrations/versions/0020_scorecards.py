"""Scorecards (#45): each seat's measures of each finished match, and a bot's measures merged per
version, table size and opponent (ladder/services/scorecard.py).

Revision ID: 0020_scorecards
Revises: 0019_rating_deviations
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0020_scorecards'
down_revision: str | None = '0019_rating_deviations'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'scorecard_tallies',
        sa.Column('match_id', sa.Integer(), sa.ForeignKey('matches.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('seat', sa.Integer(), primary_key=True),
        sa.Column('bot_id', sa.Integer(), sa.ForeignKey('bots.id'), nullable=False),
        sa.Column('bot_version_id', sa.Integer(), sa.ForeignKey('bot_versions.id'), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('tallies', sa.JSON(), nullable=False),
        sa.Column('winners', sa.JSON(), nullable=False),
        sa.Column('charted', sa.JSON(), nullable=False),
    )
    op.create_index('ix_scorecard_tallies_bot_match', 'scorecard_tallies', ['bot_id', 'match_id'],
                    postgresql_include=['bot_version_id', 'charted'])
    op.create_table(
        'scorecard_sums',
        sa.Column('bot_id', sa.Integer(), sa.ForeignKey('bots.id'), primary_key=True),
        sa.Column('version_id', sa.Integer(), primary_key=True),
        sa.Column('players', sa.Integer(), primary_key=True),
        sa.Column('opponent_id', sa.Integer(), primary_key=True),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('tallies', sa.JSON(), nullable=False),
        sa.Column('winners', sa.JSON(), nullable=False),
        sa.Column('last_match_id', sa.Integer(), nullable=True),
    )
    op.create_index('ix_scorecard_sums_bot_matches', 'scorecard_sums', ['bot_id', 'version_id', 'players', 'matches'])


def downgrade() -> None:
    op.drop_index('ix_scorecard_sums_bot_matches', table_name='scorecard_sums')
    op.drop_table('scorecard_sums')
    op.drop_index('ix_scorecard_tallies_bot_match', table_name='scorecard_tallies')
    op.drop_table('scorecard_tallies')
