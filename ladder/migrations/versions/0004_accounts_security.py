"""Accounts security: server-side log-in sessions, and named, scoped API tokens (several per user).

Each user's single API token (users.token_hash) becomes a row of api_tokens named "token" with both
scopes, so scripts keep working; the two users columns go. Existing session cookies stop working
(they carried only the user id): everyone logs in once more.

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ladder.migrations.sqlite import foreign_keys_off

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('login_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('remember', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key_hash')
    )
    op.create_index('ix_login_sessions_user', 'login_sessions', ['user_id'], unique=False)
    op.create_table('api_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('scopes', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash'),
    sa.UniqueConstraint('user_id', 'name', name='uq_api_tokens_user_name')
    )
    op.create_index(op.f('ix_api_tokens_user_id'), 'api_tokens', ['user_id'], unique=False)
    # the old single token carries over: same hash, so the token string in people's scripts still works
    op.execute(
        "INSERT INTO api_tokens (user_id, name, token_hash, scopes, created_at) "
        "SELECT id, 'token', token_hash, 'read upload', COALESCE(token_created_at, created_at) "
        "FROM users WHERE token_hash IS NOT NULL"
    )
    unique = _token_unique_name()
    with foreign_keys_off('0004'), op.batch_alter_table('users') as batch_op:
        if unique is not None:  # SQLite's copy of the table drops the unnamed one with the column
            batch_op.drop_constraint(unique, type_='unique')
        batch_op.drop_column('token_created_at')
        batch_op.drop_column('token_hash')


def downgrade() -> None:
    with foreign_keys_off('0004'), op.batch_alter_table('users') as batch_op:
        batch_op.add_column(sa.Column('token_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('token_created_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_unique_constraint('users_token_hash_key', ['token_hash'])
    # one token per user again: the oldest one that can upload (what the single token could do)
    op.execute(
        "UPDATE users SET token_hash = (SELECT t.token_hash FROM api_tokens t WHERE t.user_id = users.id "
        "AND t.scopes LIKE '%upload%' ORDER BY t.id LIMIT 1), token_created_at = (SELECT t.created_at "
        "FROM api_tokens t WHERE t.user_id = users.id AND t.scopes LIKE '%upload%' ORDER BY t.id LIMIT 1)"
    )
    op.drop_index(op.f('ix_api_tokens_user_id'), table_name='api_tokens')
    op.drop_table('api_tokens')
    op.drop_index('ix_login_sessions_user', table_name='login_sessions')
    op.drop_table('login_sessions')


def _token_unique_name() -> str | None:
    """0001 left the constraint unnamed: PostgreSQL named it itself (users_token_hash_key); SQLite
    reflects it without a name."""
    for constraint in sa.inspect(op.get_bind()).get_unique_constraints('users'):
        if constraint['column_names'] == ['token_hash']:
            return constraint['name']
    return None
