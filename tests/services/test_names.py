"""The name deny list: folded matching, the reason given, the operator's own words."""

from __future__ import annotations

import pytest

from ladder.config import Settings
from ladder.services import uploads, users
from ladder.services.errors import Invalid
from ladder.services.names import refusal


@pytest.mark.parametrize("name", ["FuckTheAdmins-NaziBot", "N4Z1", "f.u.c.k", "MyHitlerBot", "hidden-7"])
def test_the_builtin_list_refuses_with_the_word(name):
    reason = refusal(name)
    assert reason is not None and ("refused" in reason or "reserved" in reason)


@pytest.mark.parametrize("name", ["greedy", "dragon_slayer", "Conceder2", "hoarder", "alice"])
def test_ordinary_names_pass(name):
    assert refusal(name) is None


def test_matching_is_blunt_on_purpose():
    # a word inside a longer one is refused too (the Scunthorpe problem): a false refusal costs the
    # author a rename, which the reason makes plain; docs/operations.md says how to change the list
    assert "'cunt'" in refusal("Scunthorpe")


def test_the_operator_adds_words_or_replaces_the_list():
    assert "'acme'" in refusal("AcmeBot", "-,acme")
    assert refusal("NaziBot", "acme") is None  # replaced: only the operator's words
    assert refusal("AcmeBot", "") is None and refusal("NaziBot", "") is None  # none at all


def test_sign_up_and_upload_refuse_a_denied_name_and_store_nothing(world, session, tmp_path):
    with pytest.raises(Invalid, match="'nazi'"):
        users.sign_up(session=session, data={"username": "nazi-bot", "password": "a long pass phrase 9"})
    assert users.get_user_by_name(session=session, username="nazi-bot") is None
    owner = world.user()
    settings = Settings(env="test", instance_dir=tmp_path, name_deny_list="-,acme")
    for name in ("FuckTheAdmins-NaziBot", "AcmeBot"):
        with pytest.raises(Invalid, match="deny list"):
            uploads.upload_bot(session=session, settings=settings, owner_id=owner.id, name=name, game="treasure",
                               code=b"print('hi')\n", filename="main.py")
