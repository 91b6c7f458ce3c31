"""The relay's topics when the ladder runs without Redis (ladder/relay/backends.py): live match events and
the requests and answers of seats played from outside the sandbox.

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('relay_messages',
    sa.Column('topic', sa.String(length=200), nullable=False),
    sa.Column('seq', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('topic', 'seq'),
    )
    op.create_index('ix_relay_messages_created_at', 'relay_messages', ['created_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_relay_messages_created_at', table_name='relay_messages')
    op.drop_table('relay_messages')
