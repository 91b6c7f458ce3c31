"""Replay-viewer frames: which game draws a replay, and who may see which view of a match.

Each game computes its frames itself, purely, in the module it declares as `Game.view` (asked of
the Game, so nothing here names a game). Views:
- "public": what the table saw during the match (private events left out);
- "all": everything, hidden cards and private trades included; offered once the match is over,
  which is whenever a replay exists;
- "seat": what one seat saw; only that seat's bot owner (or an admin) may ask for it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from sqlmodel import Session, select

from ladder.games import GAMES, get_game
from ladder.models import Bot, Seat, User
from ladder.replay import Replay, ReplayError, loads_replay
from ladder.replay.decisions import seat_decisions
from ladder.services import pages
from ladder.services.errors import Forbidden, Invalid, NotFound

VIEWS = ("public", "all", "seat")
NOTES = {
    "public": "What the table saw during the match: cards in hand, stolen tokens and private trades stay hidden.",
    "all": "The match is over, so this view shows everything, hidden cards, thefts and private trades included.",
    "seat": "What {name} (seat {seat}) saw during the match: its own cards, thefts and trades too.",
}


def viewer_module(game: str) -> ModuleType | None:
    """The game's frames module, or None when the game has no viewer (the page keeps its transcript)."""
    if game not in GAMES:  # a name from a replay or a URL never picks a module by itself
        return None
    return get_game(game).part("view")


def replay_frames(replay: Replay, *, view: str = "public", seat: int | None = None) -> dict[str, Any]:
    """The viewer's JSON for one replay: names, the view's note, the score label and the frames.
    Pure; raises Invalid for an unknown view or seat and NotFound when the game has no viewer."""
    if view not in VIEWS:
        raise Invalid(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
    game, players = replay.header.game, replay.header.players
    if view == "seat" and (seat is None or not 0 <= seat < players):
        raise Invalid(f"seat must be a seat of this match (0..{players - 1})")
    module = viewer_module(game)
    if module is None:
        raise NotFound(f"no viewer for the game {game!r}")
    names = [s.bot for s in replay.seats]
    reveal = view == "all"
    shown_seat = seat if view == "seat" else None
    label = getattr(module, "score_label", None)
    return {
        "game": game,
        "names": names,
        "view": view,
        "seat": shown_seat,
        "note": NOTES[view].format(name=names[seat] if shown_seat is not None else "", seat=seat),
        "score_label": label(shown_seat, reveal) if callable(label) else "score",
        "results": [{"seat": r.seat, "score": r.score, "rank": r.rank} for r in replay.results],
        "frames": module.frames(replay, shown_seat, reveal=reveal),
        # the owner's seat: each decision's time against its clock and its stderr (ladder/replay/decisions.py)
        **({"decisions": [d.as_json() for d in seat_decisions(replay, shown_seat)]} if shown_seat is not None else {}),
    }


def may_see_seat(*, session: Session, match_id: int, seat: int, viewer_id: int | None) -> bool:
    """True when the viewer owns the bot in that seat or is an admin."""
    if viewer_id is None:
        return False
    owner = session.exec(select(Bot.owner_id).join(Seat, Seat.bot_id == Bot.id)
                         .where(Seat.match_id == match_id, Seat.seat == seat)).first()
    if owner is None:
        return False
    if owner == viewer_id:
        return True
    user = session.get(User, viewer_id)
    return bool(user is not None and user.is_admin)


@dataclass(frozen=True, slots=True)
class FramesDocument:
    etag: str  # names the replay's bytes and the view: the same for as long as the replay is
    gzipped: bytes  # the JSON of replay_frames, gzip-compressed (about a twentieth of its size)

    def json(self) -> bytes:
        return gzip.decompress(self.gzipped)


CACHE_SIZE = 256  # documents of ~10 KB each; a finished match's replay never changes
_cache: OrderedDict[tuple[str, str, int | None], FramesDocument] = OrderedDict()
_cache_lock = threading.Lock()


def match_frames(*, session: Session, match_id: int, viewer_id: int | None, view: str = "public",
                 seat: int | None = None) -> FramesDocument:
    """Frames of a stored match, computed once per replay and view and then kept (keyed by the
    replay's bytes, so a replaced replay is never answered from the cache). NotFound: no such
    match or no replay; Forbidden: a seat view of a seat the viewer does not own; Invalid: an
    unknown view or seat."""
    if view not in VIEWS:
        raise Invalid(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
    if view == "seat":
        if seat is None:
            raise Invalid("a seat view needs ?seat=N")
        if not may_see_seat(session=session, match_id=match_id, seat=seat, viewer_id=viewer_id):
            raise Forbidden("only the bot's owner sees a seat's own view")
    data = pages.replay_json(session=session, match_id=match_id, viewer_id=viewer_id)
    key = (hashlib.sha256(data).hexdigest(), view, seat if view == "seat" else None)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    try:
        replay = Replay.from_json(loads_replay(data))
    except ReplayError as exc:
        raise NotFound(f"match {match_id}'s replay cannot be read: {exc}") from None
    if view == "seat":  # the seat's own stderr, stored apart from the replay (the viewer was checked above)
        replay = replay.with_logs(pages.owner_logs(session=session, match_id=match_id, seats=[seat]))
    body = json.dumps(replay_frames(replay, view=view, seat=seat), separators=(",", ":"), ensure_ascii=False)
    etag = hashlib.sha256(repr(key).encode()).hexdigest()[:32]
    document = FramesDocument(etag, gzip.compress(body.encode("utf-8"), compresslevel=6, mtime=0))
    with _cache_lock:
        _cache[key] = document
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return document
