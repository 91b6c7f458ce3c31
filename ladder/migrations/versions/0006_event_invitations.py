"""Event invitations and cancelled events.

An organizer's invitation is now a pending entry (`event_entrants.accepted` false) until the bot's
owner accepts it; entries made before this revision were all real entries, so they stay accepted.
An event may also end `cancelled` (the organizer's cancel; an open event whose field was too small
at its deadline).

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ladder.migrations.sqlite import foreign_keys_off

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATUS_BEFORE = "status IN ('registration', 'running', 'finished')"
STATUS_AFTER = "status IN ('registration', 'running', 'finished', 'cancelled')"


def upgrade() -> None:
    op.add_column('event_entrants', sa.Column('accepted', sa.Boolean(), nullable=False, server_default=sa.true()))
    with foreign_keys_off('0006'), op.batch_alter_table('events') as batch:
        batch.drop_constraint('ck_events_status', type_='check')
        batch.create_check_constraint('ck_events_status', STATUS_AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM event_entrants WHERE accepted = false")  # pending invitations were no entries
    op.execute("UPDATE events SET status = 'finished' WHERE status = 'cancelled'")
    with foreign_keys_off('0006'), op.batch_alter_table('events') as batch:
        batch.drop_constraint('ck_events_status', type_='check')
        batch.create_check_constraint('ck_events_status', STATUS_BEFORE)
    with foreign_keys_off('0006'), op.batch_alter_table('event_entrants') as batch:
        batch.drop_column('accepted')
