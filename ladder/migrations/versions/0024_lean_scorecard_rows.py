"""Lean scorecard rows (#43 against #45): a seat's row keeps what the bot page's chart draws
(`charted`) and its keys, no longer all its measures' tallies and its table's winners' (about 1.7 KB
of JSON a seat, 8.8 KB of a match's 11.8 on PostgreSQL: `ladder bench storage`). Those are measured
again from the stored replay when an export or a void needs them (ladder/services/scorecard.py),
as the replay's own events are rebuilt from its decisions. The sums keep everything.

Dropping a column is a catalogue change on PostgreSQL (the old rows' bytes go at their next
rewrite: VACUUM FULL, or `ladder scorecard recompute`, which rewrites every row); SQLite copies
the table. A downgrade brings the columns back empty: run `ladder scorecard recompute` there.

Revision ID: 0024_lean_scorecard_rows
Revises: 0023_deviation_backfill
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0024_lean_scorecard_rows'
down_revision: str | None = '0023_deviation_backfill'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('scorecard_tallies') as batch:
        batch.drop_column('tallies')
        batch.drop_column('winners')


def downgrade() -> None:
    with op.batch_alter_table('scorecard_tallies') as batch:
        batch.add_column(sa.Column('tallies', sa.JSON(), nullable=False, server_default=sa.text("'{}'")))
        batch.add_column(sa.Column('winners', sa.JSON(), nullable=False, server_default=sa.text("'{}'")))
