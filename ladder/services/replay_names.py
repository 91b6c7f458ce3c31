"""A stored replay as it is served: its seats' names resolved now, and hidden replays kept for admins.

A replay stores each seat's name as the worker wrote it ("owner/bot v3", workers/queue/jobs.py),
and the game's views copy those names into their frames. A moderator's rename or hidden name must
show everywhere, old replays included, so every reader of a stored replay (the viewer's frames,
the download, the API, the match page) goes through `served_replay`, which puts each seat's
current name in place of the stored one wherever the stored name appears in the JSON.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from sqlmodel import Session, select

from ladder.models import Bot, BotVersion, Replay, Seat, User
from ladder.replay import ReplayError
from ladder.replay.compact import is_compact
from ladder.services.errors import NotFound
from ladder.services.event_hold import HELD, is_held
from ladder.services.match_lists import in_person
from ladder.services.person_seat import person_seat_of
from ladder.services.stored_replays import stored_replay_bytes, stored_row


def seat_label(owner: str, bot: str, number: int, remote: bool) -> str:
    """A seat's name in a replay, as the match plan gives it (services/match_plan.py)."""
    return f"{owner}/{bot} v{number}" if not remote else f"{owner}/{bot} (remote)"


def current_labels(session: Session, match_id: int) -> dict[int, str]:
    """Each seat's name now: its bot's owner, name and version, or the person who sat there."""
    rows = session.exec(
        select(Seat.seat, User.username, Bot.name, BotVersion.number, Bot.remote)
        .join(Bot, Bot.id == Seat.bot_id).join(User, User.id == Bot.owner_id)
        .join(BotVersion, BotVersion.id == Seat.bot_version_id).where(Seat.match_id == match_id)
    ).all()
    labels = {seat: seat_label(owner, bot, number, remote) for seat, owner, bot, number, remote in rows}
    person = person_seat_of(session=session, match_id=match_id)
    if person is not None:  # its row points at the house's stand-in; the replay names the person
        labels[person[0].seat] = in_person(person[1])
    return labels


def _replace(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        for old, new in names.items():
            if old in value:
                value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_replace(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, names) for k, v in value.items()}
    return value


def resolve_names(data: bytes, labels: dict[int, str]) -> bytes:
    """The replay JSON with every stored seat name that differs from `labels` replaced (the same
    bytes when none differs, so the frames cache keeps its key)."""
    document = json.loads(data)
    seats = document.get("seats") if isinstance(document, dict) else None
    if not isinstance(seats, list):
        return data
    names = {}
    for i, seat in enumerate(seats):
        stored = seat.get("bot") if isinstance(seat, dict) else None
        current = labels.get(seat.get("seat", i) if isinstance(seat, dict) else i)
        if isinstance(stored, str) and stored and current is not None and stored != current:
            names[stored] = current
    if not names:
        return data
    # longest first: "alice/bot v1" must not be replaced inside "alice/bot v10"
    names = dict(sorted(names.items(), key=lambda kv: -len(kv[0])))
    return json.dumps(_replace(document, names), separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _stored(session: Session, match_id: int, viewer_id: int | None) -> Replay:
    replay = stored_row(session, match_id)
    if replay is None:
        raise NotFound(f"match {match_id} has no replay")
    if is_held(session, match_id):  # an order of a duplicate deal still being played: for nobody yet
        raise NotFound(f"match {match_id}'s replay is {HELD}")
    if replay.hidden:
        viewer = session.get(User, viewer_id) if viewer_id is not None else None
        if viewer is None or not viewer.is_admin:
            raise NotFound(f"match {match_id}'s replay was taken out of public view")
    return replay


def served_replay(*, session: Session, match_id: int, viewer_id: int | None) -> bytes:
    """The replay's JSON bytes with the seats' current names; NotFound when there is none, or when
    a moderator hid it and the viewer is not an admin."""
    return resolve_names(_whole(session, _stored(session, match_id, viewer_id)), current_labels(session, match_id))


def _whole(session: Session, row: Replay) -> bytes:
    try:
        return stored_replay_bytes(session=session, match_id=row.match_id, row=row)
    except ReplayError as exc:  # a compact row the current rules no longer rebuild: said, never a 500
        raise NotFound(f"match {row.match_id}'s replay cannot be rebuilt: {exc}") from None


def served_gzip(*, session: Session, match_id: int, viewer_id: int | None) -> bytes:
    """The same, gzipped: a gzip row's stored bytes untouched when no name changed."""
    row = _stored(session, match_id, viewer_id)
    data = _whole(session, row)
    resolved = resolve_names(data, current_labels(session, match_id))
    if resolved is data and not is_compact(row.data):
        return row.data
    return gzip.compress(resolved, compresslevel=6, mtime=0)
