"""Bots played from outside the sandbox (#26): `bots.remote` and the opt-in `bots.open_ladder`.

A remote bot's program runs on its owner's machine and plays over a websocket
(ladder/services/outside.py); it has one placeholder version (no code) so seats and results work
as for any bot. Tokens gain the `play` scope, which needs no schema change (scopes are text).

Revision ID: 0012_remote
Revises: 0011_botdata
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012_remote'
down_revision: str | None = '0011_botdata'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN (a constant default): SQLite's batch mode would copy and drop `bots`, which
    # every seat and version references
    op.add_column('bots', sa.Column('remote', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('bots', sa.Column('open_ladder', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column('bots', 'open_ladder')
    op.drop_column('bots', 'remote')
