"""A person's seat: which seat of a match a person plays from the browser (#26, "Play it yourself").

`person_seats` holds, per match, the seat, the user, the address that started it (the per-user and
per-address limits count the rows of unfinished matches) and the person's clock per decision.

Revision ID: 0010_person_seats
Revises: 0009
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010_person_seats'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('person_seats',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('clock_s', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id'),
    )
    op.create_index('ix_person_seats_user_id', 'person_seats', ['user_id'], unique=False)
    op.create_index('ix_person_seats_address', 'person_seats', ['address'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_person_seats_address', table_name='person_seats')
    op.drop_index('ix_person_seats_user_id', table_name='person_seats')
    op.drop_table('person_seats')
