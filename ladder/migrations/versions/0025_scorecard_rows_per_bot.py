"""Scorecard rows bounded per bot (#43): a replay row says whether its match's seats are in the
scorecard sums (`replays.measured`), so a void or an export finds the measured matches from the
replays and seats rather than from the seats' scorecard rows; those rows then need keep only what
the bot page's chart reads, each bot's newest CHART_MATCHES (200), and retention trims the rest
(ladder/services/retention.py). A table that grew by four rows a match (1.5 KB of a match's 4.5 on
PostgreSQL) stays at a few hundred rows a bot.

The backfill marks the replays of every match that has scorecard rows today, which is exactly the
matches in the sums (rows and sums are written together, and taken out together by a void).

Revision ID: 0025_scorecard_rows_per_bot
Revises: 0024_lean_scorecard_rows
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0025_scorecard_rows_per_bot'
down_revision: str | None = '0024_lean_scorecard_rows'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('replays') as batch:
        batch.add_column(sa.Column('measured', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute("UPDATE replays SET measured = TRUE WHERE match_id IN (SELECT match_id FROM scorecard_tallies)")


def downgrade() -> None:
    with op.batch_alter_table('replays') as batch:
        batch.drop_column('measured')
