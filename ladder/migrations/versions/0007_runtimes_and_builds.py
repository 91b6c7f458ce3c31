"""Runtimes and the compile step: each version's runtime and build, and the built artifacts.

Versions uploaded before this revision were Python or Node.js: a .py upload is Python; a .zip's
runtime stays empty (its entry point is inside the archive) and pages say "python or node".

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('bot_versions', sa.Column('runtime', sa.String(length=16), nullable=True))
    op.add_column('bot_versions', sa.Column('build_key', sa.String(length=64), nullable=True))
    op.execute("UPDATE bot_versions SET runtime = 'python' WHERE lower(filename) LIKE '%.py'")
    op.create_table('build_artifacts',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('runtime', sa.String(length=16), nullable=False),
    sa.Column('toolchain', sa.String(length=200), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('log', sa.Text(), nullable=False),
    sa.Column('seconds', sa.Float(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key'),
    )


def downgrade() -> None:
    op.drop_table('build_artifacts')
    with op.batch_alter_table('bot_versions') as batch:
        batch.drop_column('build_key')
        batch.drop_column('runtime')
