"""The ratings checks (#41): each run of `ladder ratings recompute` or of the scheduler's check, so
an operator's alert can read the newest (ladder_ratings_check_ok).

Revision ID: 0017_rating_checks
Revises: 0016_moderation
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017_rating_checks'
down_revision: str | None = '0016_moderation'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'rating_checks',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('checked_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('differences', sa.Integer(), nullable=False),
        sa.Column('missing', sa.Integer(), nullable=False),
        sa.Column('wrote', sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index('ix_rating_checks_checked_at', 'rating_checks', ['checked_at'])


def downgrade() -> None:
    op.drop_index('ix_rating_checks_checked_at', table_name='rating_checks')
    op.drop_table('rating_checks')
