"""The store and retention (#43): build artifacts move to the store (ladder/storage), so their
`data` column may be empty (rows not moved yet keep the tar there: services/builds.py reads it as a
fallback while `move_to_store` converts them in batches, with the ladder running); a match whose
replay retention pruned says when (services/retention.py), so its page can say why there is none.

Bot data versions go the same way (`bot_data_versions.blob` names a new one's zip in the store).
The tars and zips are not copied here: a migration has no store settings and must stay short on a big table.

Revision ID: 0021_store_retention
Revises: 0020_scorecards
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ladder.migrations.sqlite import foreign_keys_off

revision: str = '0021_store_retention'
down_revision: str | None = '0020_scorecards'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('build_artifacts') as batch:
        batch.alter_column('data', existing_type=sa.LargeBinary(), nullable=True)
    # bot data versions likewise: a new one's zip is a blob the row names (services/botdata.py)
    with op.batch_alter_table('bot_data_versions') as batch:
        batch.alter_column('data', existing_type=sa.LargeBinary(), nullable=True)
        batch.add_column(sa.Column('blob', sa.String(length=200), nullable=True))
    op.add_column('matches', sa.Column('replay_pruned_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # SQLite copies `matches` to drop a column: with foreign keys on, its seats and replays went too
    with foreign_keys_off('0021'), op.batch_alter_table('matches') as batch:
        batch.drop_column('replay_pruned_at')
    # a downgrade has no store to read back from: refuse while a bot's data lives only there
    # (`ladder admin store` has no way back yet; restore the database from before the upgrade)
    held = op.get_bind().execute(sa.text("SELECT count(*) FROM bot_data_versions WHERE data IS NULL")).scalar()
    if held:
        raise RuntimeError(f"{held} bot data versions are in the store only: a downgrade would lose them")
    with op.batch_alter_table('bot_data_versions') as batch:
        batch.drop_column('blob')
        batch.alter_column('data', existing_type=sa.LargeBinary(), nullable=False)
    # an artifact only in the store has no bytes to put back: its row goes, and the next match of its
    # version builds it again (an artifact is a cache of its source, by key)
    op.execute("DELETE FROM build_artifacts WHERE data IS NULL")
    with op.batch_alter_table('build_artifacts') as batch:
        batch.alter_column('data', existing_type=sa.LargeBinary(), nullable=False)
