"""services/botdata.py: versions kept by results, pins, the owner's calls, and concurrent writers."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import select

from ladder.bot.data import Cap, Changes, Collected, read_zip, write_zip
from ladder.models import BotData, BotDataVersion, Seat
from ladder.services import botdata, matches, results
from ladder.services.errors import Invalid, NotFound
from ladder.services.results import MatchOutcome, SeatOutcome
from ladder.services.tournaments import add_entrant, answer_invitation, create_event, feed_events, start_event

CAP = Cap(max_bytes=1000, max_files=10)


def play(world, versions, data, *, statuses=None, kind="ladder", match=None):
    """Queue (unless `match`), claim and record a match whose seats return `data` (Collected per seat)."""
    session = world.session
    if match is None:
        match = matches.queue_match(session=session, game="treasure", seats=[v.id for v in versions], kind=kind,
                                    ranked=kind == "ladder")
    assert matches.claim_match(session=session, match_id=match.id, worker_id="w") is not None
    statuses = statuses or ["ok"] * len(versions)
    outcome = MatchOutcome([SeatOutcome(rank=i + 1, score=0, status=s, forfeited=s != "ok",
                                        reason=None if s == "ok" else "exited with code 1")
                            for i, s in enumerate(statuses)], data=data)
    return results.record_result(session=session, match_id=match.id, outcome=outcome, worker_id="w", data_cap=CAP)


def files(world, bot):
    version, data = botdata.download(session=world.session, bot_id=bot.id, user_id=bot.owner_id)
    return version, read_zip(data, botdata.STORED)


def note(world, bot):
    return botdata.info(session=world.session, bot_id=bot.id, user_id=bot.owner_id, cap=CAP).note


def wrote(**written):
    return Collected(changes=Changes({k: v.encode() for k, v in written.items()}))


def test_a_clean_seat_keeps_its_changes_and_the_next_match_starts_from_them(world):
    (a, va), (b, vb) = world.bot(), world.bot()
    assert files(world, a) == (0, {})
    play(world, [va, vb], [wrote(counter="1"), None])
    assert files(world, a) == (1, {"counter": b"1"}) and files(world, b) == (0, {})
    match = matches.queue_match(session=world.session, game="treasure", seats=[va.id, vb.id])
    first, second = botdata.snapshots(world.session, match.id)
    assert (first.version, first.files, first.keep) == (1, {"counter": b"1"}, True)
    assert (second.version, second.files) == (0, {})
    play(world, [va, vb], [Collected(changes=Changes({"n": b"2"}, frozenset({"counter"}))), None], match=match)
    assert files(world, a) == (2, {"n": b"2"})


def test_concurrent_matches_of_one_bot_both_keep_their_files(world):
    """Both started from version 0; each one's files are applied onto the latest when it is recorded."""
    (a, va), (_, vb), (_, vc) = world.bot(), world.bot(), world.bot()
    one = matches.queue_match(session=world.session, game="treasure", seats=[va.id, vb.id])
    two = matches.queue_match(session=world.session, game="treasure", seats=[va.id, vc.id])
    assert botdata.snapshots(world.session, one.id)[0].version == botdata.snapshots(world.session, two.id)[0].version
    play(world, [va, vb], [wrote(shared="one", mine1="x"), None], match=one)
    play(world, [va, vc], [wrote(shared="two", mine2="y"), None], match=two)
    assert files(world, a) == (2, {"shared": b"two", "mine1": b"x", "mine2": b"y"})


@pytest.mark.parametrize("status", ["crash", "timeout"])
def test_a_seat_that_did_not_finish_cleanly_keeps_nothing_and_its_owner_is_told(world, status):
    (a, va), (b, vb) = world.bot(), world.bot()
    play(world, [va, vb], [wrote(before="1"), None])
    play(world, [va, vb], [wrote(after="2"), wrote(other="3")], statuses=[status, "ok"])
    assert files(world, a) == (1, {"before": b"1"})
    assert "did not finish cleanly" in note(world, a)
    assert files(world, b) == (1, {"other": b"3"}) and note(world, b) is None


def test_a_folder_over_the_cap_keeps_nothing_and_the_previous_data_stays(world):
    (a, va), (b, vb) = world.bot(), world.bot()
    play(world, [va, vb], [wrote(model="m" * 600), None])
    # the worker refused the folder itself ...
    play(world, [va, vb], [Collected(refused="1,200 bytes of files, over the cap"), None])
    # ... or the folder fits alone, but not on top of the latest version
    play(world, [va, vb], [wrote(more="x" * 600), None])
    assert files(world, a) == (1, {"model": b"m" * 600})
    assert "over the cap" in note(world, a) and "the previous data stays" in note(world, a)
    with pytest.raises(NotFound):  # the note is the owner's alone
        botdata.info(session=world.session, bot_id=a.id, user_id=b.owner_id, cap=CAP)


def test_validation_and_event_matches_play_a_pinned_version_and_keep_nothing(world):
    organizer = world.user(admin=True)
    (a, va), (b, vb) = world.bot(), world.bot()
    botdata.changes_version(world.session, a.id, {"model": b"v1"}, CAP)
    validation = matches.queue_match(session=world.session, game="treasure", seats=[va.id, vb.id],
                                     kind="validation", ranked=False)
    event = create_event(session=world.session, organizer_id=organizer.id, name="Cup", game="treasure",
                         table_size=2, deals=1)
    for bot in (a, b):
        add_entrant(session=world.session, event_id=event.id, bot_id=bot.id, acting_user_id=organizer.id)
        answer_invitation(session=world.session, event_id=event.id, bot_id=bot.id, acting_user_id=bot.owner_id,
                          accept=True)
    start_event(session=world.session, event_id=event.id, acting_user_id=organizer.id)
    for n in range(2, 6):  # the ladder moves on meanwhile: versions 2..5 (2 and 3 are pruned)
        botdata.changes_version(world.session, a.id, {"model": f"v{n}".encode()}, CAP)
    event_matches = feed_events(session=world.session, slots=10)
    for match_id in [validation.id, *event_matches]:
        seat = world.session.exec(select(Seat).where(Seat.match_id == match_id, Seat.bot_id == a.id)).one()
        snap = botdata.snapshots(world.session, match_id)[seat.seat]
        assert (seat.data_version, snap.version, snap.files, snap.keep) == (1, 1, {"model": b"v1"}, False)
    play(world, [va, vb], [wrote(model="changed"), None], kind="validation", match=validation)
    assert files(world, a) == (5, {"model": b"v5"})
    kept = set(world.session.exec(select(BotDataVersion.number).where(BotDataVersion.bot_id == a.id)).all())
    assert kept == {1, 4, 5}  # the pinned one, and the latest two


def test_only_the_owner_downloads_replaces_and_resets(world):
    (a, _), other = world.bot(), world.user()
    for call in (botdata.download, botdata.info, botdata.replace, botdata.reset):
        kwargs = {"cap": CAP} if call is not botdata.download else {}
        if call is botdata.replace:
            kwargs["data"] = write_zip({"x": b"1"})
        for user in (other.id, None):
            with pytest.raises(NotFound):
                call(session=world.session, bot_id=a.id, user_id=user, **kwargs)
    assert world.session.exec(select(BotDataVersion)).all() == []
    owner = a.owner_id
    assert botdata.replace(session=world.session, bot_id=a.id, user_id=owner, data=write_zip({"m": b"1"}), cap=CAP) == 1
    assert files(world, a) == (1, {"m": b"1"})
    assert botdata.reset(session=world.session, bot_id=a.id, user_id=owner, cap=CAP) == 2
    assert files(world, a) == (2, {})


@pytest.mark.parametrize("data, why", [(b"PK\x03\x04 broken", "not a zip"),
                                       (write_zip({"../x": b"1"}), "'..'"),
                                       (write_zip({f"f{i}": b"" for i in range(11)}), "over the cap")])
def test_a_bad_upload_says_why_and_writes_nothing(world, data, why):
    a, _ = world.bot()
    botdata.replace(session=world.session, bot_id=a.id, user_id=a.owner_id, data=write_zip({"m": b"1"}), cap=CAP)
    with pytest.raises(Invalid, match=why):
        botdata.replace(session=world.session, bot_id=a.id, user_id=a.owner_id, data=data, cap=CAP)
    assert files(world, a) == (1, {"m": b"1"})


def test_concurrent_writers_of_one_bot_lose_no_write(world, sessions):
    """Sessions in threads, each writing its own file and a shared counter at once: the
    compare-and-set gives every write its own version, and no version loses another's file."""
    a, _ = world.bot()
    writers, rounds = 4, 5
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def write(n: int) -> None:
        try:
            with sessions() as session:
                start.wait()
                for r in range(rounds):
                    botdata.changes_version(session, a.id, {f"w{n}-{r}": b"x", "last": f"{n}-{r}".encode()},
                                            Cap(10_000, 100))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    version, got = files(world, a)
    assert version == writers * rounds
    assert set(got) == {"last"} | {f"w{n}-{r}" for n in range(writers) for r in range(rounds)}
    assert world.session.get(BotData, a.id).version == writers * rounds
