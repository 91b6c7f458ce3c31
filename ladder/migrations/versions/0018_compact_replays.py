"""Compact replays (#43): `replays.compact` says a row holds the compact form (ladder/replay/
compact.py) rather than the gzip of the whole replay; every old row stays gzip (false) until
`ladder admin compact-replays` converts it, while the ladder runs. Adding a column with a constant
default is a catalogue change on PostgreSQL 11+ and SQLite: no table rewrite.

Revision ID: 0018_compact_replays
Revises: 0017_rating_checks
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0018_compact_replays'
down_revision: str | None = '0017_rating_checks'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FALSE = sa.text('false')


def upgrade() -> None:
    op.add_column('replays', sa.Column('compact', sa.Boolean(), nullable=False, server_default=_FALSE))
    if op.get_bind().dialect.name == 'postgresql':
        # A compact row (about 0.8 to 2.5 KB) is zlib already: TOAST's pglz cannot shrink it, and
        # moving the larger ones out of line cost some 250 bytes a match in TOAST chunks and their
        # index (ladder bench storage). MAIN keeps them in the row unless a row outgrows its page.
        op.execute('ALTER TABLE replays ALTER COLUMN data SET STORAGE MAIN')


def downgrade() -> None:
    # a compact row means nothing to the older code, which would serve it as a corrupt gzip
    if op.get_bind().execute(sa.text('SELECT 1 FROM replays WHERE compact LIMIT 1')).first() is not None:
        raise RuntimeError("compact replays remain: run `ladder admin compact-replays --expand` first")
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('ALTER TABLE replays ALTER COLUMN data SET STORAGE EXTENDED')
    op.drop_column('replays', 'compact')
