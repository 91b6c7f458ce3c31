"""Remote seats' live connections, shared by every web process (#26): `seat_connections`.

One row per seat with a live connection (a websocket, or an HTTP long-poll client), held for a
lease its holder renews (ladder/services/seat_slots.py): the one-connection-per-seat rule and the
per-user and per-address limits then hold across web processes, and a crashed process's rows
expire.

Revision ID: 0013_longpoll
Revises: 0012_remote
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013_longpoll'
down_revision: str | None = '0012_remote'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('seat_connections',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('conn', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('transport', sa.String(length=8), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seat'),
    )
    op.create_index('ix_seat_connections_user_id', 'seat_connections', ['user_id'], unique=False)
    op.create_index('ix_seat_connections_address', 'seat_connections', ['address'], unique=False)
    op.create_index('ix_seat_connections_expires_at', 'seat_connections', ['expires_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_seat_connections_expires_at', table_name='seat_connections')
    op.drop_index('ix_seat_connections_address', table_name='seat_connections')
    op.drop_index('ix_seat_connections_user_id', table_name='seat_connections')
    op.drop_table('seat_connections')
