"""The upload use case (ladder/services/uploads.py): one package check, one set of messages, one
size limit. A bad first upload is refused with the one message and writes nothing; a bad further
version is kept `rejected` with that same message; the workers' staging (what `ladder match`
runs) says the same about the same bytes."""

from __future__ import annotations

import pytest
from sqlmodel import select
from web.helpers import make_zip

from ladder.bot import packages
from ladder.bot.packages import PackagingError
from ladder.config import Settings
from ladder.models import Bot, BotVersion, Match, VersionStatus
from ladder.services import bots
from ladder.services.errors import Invalid
from ladder.services.uploads import upload_bot
from workers.build.packaging import stage

GOOD = b"print('hi')\n"
LIMIT = 1000


# (bytes, file name, the whole message the author reads)
BAD = {
    "empty": (b"", "main.py", "main.py is empty"),
    "too big": (b"#" * (LIMIT + 1), "main.py", f"main.py is too big: a bot may have at most {LIMIT} bytes"),
    "too big zip": (b"P" * (LIMIT + 1), "bot.zip", f"bot.zip is too big: a bot may have at most {LIMIT} bytes"),
    "no name": (GOOD, "", "the upload has no file name; send a .py file or a .zip"),
    "path in the name": (GOOD, "../main.py", "the file name '../main.py' has path parts; send the file's own "
                                            "name, e.g. main.py"),
    "wrong type": (b"MZ", "bot.exe", "'bot.exe': a bot is one .py file, or a .zip with its entry point at the root "
                                     f"({packages.ENTRY_LIST})"),
    "not utf-8": (b"\xff\xfe", "main.py", "main.py: a .py bot must be UTF-8 text"),
    "not a zip": (b"not a zip archive", "bot.zip", "bot.zip: not a valid zip archive"),
    "symlink": (make_zip({"main.py": GOOD}, links={"secrets": "/etc/shadow"}), "bot.zip",
                "bot.zip: secrets is a symbolic link; bots may only hold regular files"),
    "dotdot": (make_zip({"main.py": GOOD, "../x.py": b"x"}), "bot.zip",
               "bot.zip: '../x.py' climbs out of the bot's directory with '..'"),
    "nested entry": (make_zip({"bot/main.py": GOOD}), "bot.zip",
                     f"bot.zip: no entry point at the root: one of {packages.ENTRY_LIST} (found bot/main.py: "
                     "pack the folder's contents, not the folder)"),
    "runtime not run here": (make_zip({"main.js": b"1"}), "bot.zip",
                             "this ladder does not run Node.js bots (main.js); it runs: Python 3 with numpy and scipy"),
}
ENVELOPE = {"empty", "too big", "too big zip", "no name", "path in the name", "wrong type"}  # refused outright


@pytest.fixture
def settings(tmp_path):
    return Settings(instance_dir=tmp_path, max_upload_bytes=LIMIT, runtimes="python")


def counts(session) -> tuple[int, int, int]:
    return tuple(len(session.exec(select(model)).all()) for model in (Bot, BotVersion, Match))


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_first_upload_gets_the_one_message_and_writes_nothing(session, world, settings, case):
    code, filename, message = BAD[case]
    owner = world.user()
    before = counts(session)
    with pytest.raises(Invalid) as refused:
        upload_bot(session=session, settings=settings, owner_id=owner.id, name="newbot", game="treasure",
                   code=code, filename=filename)
    assert str(refused.value) == message
    assert counts(session) == before


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_further_version_is_kept_rejected_with_the_same_message(session, world, settings, case):
    code, filename, message = BAD[case]
    bot, _ = world.bot()
    before = counts(session)
    if case in ENVELOPE:  # not a package at all: nothing is stored
        with pytest.raises(Invalid) as refused:
            upload_bot(session=session, settings=settings, owner_id=bot.owner_id, name=bot.name, game=bot.game,
                       code=code, filename=filename, bot=bot)
        assert str(refused.value) == message
        assert counts(session) == before
        return
    result = upload_bot(session=session, settings=settings, owner_id=bot.owner_id, name=bot.name, game=bot.game,
                        code=code, filename=filename, bot=bot)
    assert result.version.status == VersionStatus.REJECTED and result.version.rejection_reason == message
    assert result.match is None and result.note == message
    assert counts(session) == (before[0], before[1] + 1, before[2])  # one version, no match


def test_a_good_upload_stores_the_bot_and_its_version(session, world, settings):
    owner = world.user()
    result = upload_bot(session=session, settings=settings, owner_id=owner.id, name="newbot", game="treasure",
                        code=GOOD, filename="careful.py", description="stops early")
    assert result.created and result.bot.name == "newbot" and result.bot.description == "stops early"
    assert result.version.status in (VersionStatus.PENDING, VersionStatus.VALIDATING)
    assert result.version.runtime == "python" and result.version.size == len(GOOD)
    again = upload_bot(session=session, settings=settings, owner_id=owner.id, name="newbot", game="treasure",
                       code=GOOD, filename="careful.py")
    assert not again.created and again.version.id == result.version.id  # the same bytes: nothing new


@pytest.mark.parametrize("case", sorted(set(BAD) - {"no name", "path in the name", "wrong type", "not utf-8",
                                                    "runtime not run here"}))
def test_the_workers_staging_says_the_same_about_the_same_bytes(tmp_path, monkeypatch, case):
    """`ladder match` and the validation game stage a file: the same rule, the same words (the
    file's path where the upload had its name)."""
    code, filename, message = BAD[case]
    monkeypatch.setattr(packages, "MAX_UPLOAD_BYTES", LIMIT)  # the deployment's limit, here the only one
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / filename).write_bytes(code)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(PackagingError) as refused:
        stage(folder / filename, out)
    said = str(refused.value).replace(str(folder / filename), filename)
    assert said == message or (case == "not a zip" and said.startswith(message + " ("))  # the unpacker's detail
    assert list(out.iterdir()) == []


def test_add_version_keeps_the_same_envelope_rule_and_default_limit(session, world):
    bot, _ = world.bot()
    with pytest.raises(Invalid) as empty:
        bots.add_version(session=session, bot_id=bot.id, code=b"", filename="main.py")
    assert str(empty.value) == BAD["empty"][2]
    with pytest.raises(Invalid) as big_one:
        bots.add_version(session=session, bot_id=bot.id, code=b"x" * 11, filename="b.py", max_bytes=10)
    assert str(big_one.value) == "b.py is too big: a bot may have at most 10 bytes"
    big = b"#" * (packages.MAX_UPLOAD_BYTES + 1)
    with pytest.raises(Invalid, match=f"at most {packages.MAX_UPLOAD_BYTES} bytes$"):
        bots.add_version(session=session, bot_id=bot.id, code=big, filename="b.py")


class Counted:
    """Counts the calls of one function, passing them on."""

    def __init__(self, real):
        self.real, self.calls = real, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)


@pytest.mark.parametrize("first", [True, False], ids=["new bot", "further version"])
def test_an_upload_checks_its_envelope_once_opens_its_zip_once_and_reads_no_bot_again(
        session, world, settings, monkeypatch, first):
    package = make_zip({"main.py": GOOD})
    bot = None if first else world.bot()[0]
    owner_id = world.user().id if first else bot.owner_id
    envelope = Counted(packages.check_envelope)
    opens = Counted(packages.zipfile.ZipFile)
    monkeypatch.setattr(packages, "check_envelope", envelope)
    monkeypatch.setattr(packages.zipfile, "ZipFile", opens)
    gets = Counted(bots.get_bot)
    monkeypatch.setattr(bots, "get_bot", gets)
    result = upload_bot(session=session, settings=settings, owner_id=owner_id, name=bot.name if bot else "zipped",
                        game="treasure", code=package, filename="bot.zip", bot=bot)
    assert result.created and result.version.runtime == "python" and result.version.status != VersionStatus.REJECTED
    assert (envelope.calls, opens.calls, gets.calls) == (1, 1, 0)


# (name, description, the message): the model's own rules (models.BotBase.RULES), in its words
BAD_FIELDS = {
    "empty name": ("", "", Bot.RULES["name"]),
    "long name": ("x" * 41, "", Bot.RULES["name"]),
    "odd name": ("-dash", "", Bot.RULES["name"]),
    "space in name": ("my bot", "", Bot.RULES["name"]),
    "long description": ("fine", "d" * 2001, Bot.RULES["description"]),
    "nul description": ("fine", "a\x00b", Bot.RULES["description"]),
    "both": ("", "\x00", f"{Bot.RULES['name']}; {Bot.RULES['description']}"),
}


@pytest.mark.parametrize("case", sorted(BAD_FIELDS))
def test_a_bad_name_or_description_gets_the_model_s_words_and_writes_nothing(session, world, settings, case,
                                                                               monkeypatch):
    name, description, message = BAD_FIELDS[case]
    owner, package = world.user(), make_zip({"main.py": GOOD})
    opens = Counted(packages.zipfile.ZipFile)
    monkeypatch.setattr(packages.zipfile, "ZipFile", opens)
    before = counts(session)
    with pytest.raises(Invalid) as refused:
        upload_bot(session=session, settings=settings, owner_id=owner.id, name=name, game="treasure",
                   code=package, filename="bot.zip", description=description)
    assert str(refused.value) == message
    assert counts(session) == before and opens.calls == 0  # refused before the package is looked at
    with pytest.raises(Invalid) as created:  # creating the bot directly says the same
        bots.create_bot(session=session, owner_id=owner.id, data={"name": name, "game": "treasure",
                                                                 "description": description})
    assert str(created.value) == message
