"""Each event's deal key (#39): the secret its deal seeds are keyed with (HMAC), kept on the server.
Existing events get one each, so the deals they have yet to schedule (Swiss rounds) are keyed too.

Revision ID: 0015_integrity
Revises: 0014_lobby
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015_integrity'
down_revision: str | None = '0014_lobby'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('events', sa.Column('deal_key', sa.String(length=64), nullable=True))
    conn = op.get_bind()
    for (event_id,) in conn.execute(sa.text("SELECT id FROM events")).all():
        conn.execute(sa.text("UPDATE events SET deal_key = :k WHERE id = :i"),
                     {"k": secrets.token_hex(32), "i": event_id})


def downgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.drop_column('deal_key')
