"""Moderation (#42): voided matches, disabled bots, hidden names and replays, suspensions, the
audit log, sign-up addresses (keyed hashes) and address bans.

Revision ID: 0016_moderation
Revises: 0015_integrity
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016_moderation'
down_revision: str | None = '0015_integrity'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FALSE = sa.text('false')


def upgrade() -> None:
    # plain ADD/DROP COLUMN (SQLite 3.35+ does both in place): a batch copy of `users` or `bots`
    # would drop tables that others cascade from
    op.add_column('users', sa.Column('suspended', sa.Boolean(), nullable=False, server_default=_FALSE))
    op.add_column('users', sa.Column('suspended_until', sa.DateTime(timezone=True), nullable=True))
    op.add_column('users', sa.Column('suspension_reason', sa.Text(), nullable=True))
    op.add_column('users', sa.Column('name_hidden', sa.Boolean(), nullable=False, server_default=_FALSE))
    op.add_column('bots', sa.Column('disabled', sa.Boolean(), nullable=False, server_default=_FALSE))
    op.add_column('bots', sa.Column('name_hidden', sa.Boolean(), nullable=False, server_default=_FALSE))
    op.add_column('matches', sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('matches', sa.Column('void_reason', sa.Text(), nullable=True))
    op.add_column('replays', sa.Column('hidden', sa.Boolean(), nullable=False, server_default=_FALSE))
    op.create_table('moderation_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('actor_id', sa.Integer(), nullable=True),
    sa.Column('actor', sa.String(length=80), nullable=False),
    sa.Column('action', sa.String(length=32), nullable=False),
    sa.Column('target_kind', sa.String(length=16), nullable=False),
    sa.Column('target_id', sa.Integer(), nullable=True),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['actor_id'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_moderation_log_target', 'moderation_log', ['target_kind', 'target_id'], unique=False)
    op.create_table('signup_addresses',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address_hash', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_signup_addresses_hash', 'signup_addresses', ['address_hash', 'created_at'], unique=False)
    op.create_index('ix_signup_addresses_user_id', 'signup_addresses', ['user_id'], unique=False)
    op.create_table('address_bans',
    sa.Column('address_hash', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('address_hash'),
    )


def downgrade() -> None:
    op.drop_table('address_bans')
    op.drop_index('ix_signup_addresses_user_id', table_name='signup_addresses')
    op.drop_index('ix_signup_addresses_hash', table_name='signup_addresses')
    op.drop_table('signup_addresses')
    op.drop_index('ix_moderation_log_target', table_name='moderation_log')
    op.drop_table('moderation_log')
    op.drop_column('replays', 'hidden')
    op.drop_column('matches', 'void_reason')
    op.drop_column('matches', 'voided_at')
    op.drop_column('bots', 'name_hidden')
    op.drop_column('bots', 'disabled')
    op.drop_column('users', 'name_hidden')
    op.drop_column('users', 'suspension_reason')
    op.drop_column('users', 'suspended_until')
    op.drop_column('users', 'suspended')
