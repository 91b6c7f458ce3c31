"""What a spectator may see of a replay's log while the match is still being played.

The live view (workers/queue/live.py publishes, ladder/services/live.py draws) shows exactly what
the finished replay's public view shows (ladder/services/viewer.py, view "public": the game's
frames with seat None and nothing revealed), and nothing more:
- an event addressed to everyone, as it is;
- no event addressed to some seats only (a hand, a theft's colour, a private trade);
- no decision's content: a play names its face-down card, a proposal is sealed until the table
  reveals them together. A decision the rules refused is shown only as "seat s, kind k, status x"
  with the reason HELD_BACK, which the public view draws as a fault line: the real reason and the
  refused content can tell a hidden card ("expected {card: c17, ...}": the card in hand), so they wait
  for the end of the match. A decision without a fault shows nothing in the public view and is not
  published at all.

`public_log(replay)` is the log a spectator has seen by the end: the published entries, in order;
`typed_public_entry` reads one back as the views read a log (ladder/games/frames.py).
tests/replay/test_public.py holds that the public view drawn from it is the finished public view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ladder.replay.model import Decision, Entry, Fault, LoggedEvent, Replay

__all__ = ["HELD_BACK", "public_entry", "public_log", "spectator_header", "typed_public_entry"]

HELD_BACK = "the reason is shown once the match is over"  # a refused decision's reason, while it runs


def public_entry(entry: Mapping[str, Any] | Entry) -> dict[str, Any] | None:
    """The spectator's form of one log entry (the play loop's JSON or the typed entry), or None
    when a spectator sees nothing of it. Cheap: the play loop calls it for every entry."""
    if isinstance(entry, LoggedEvent | Decision):
        entry = entry.to_json()
    if "decision" in entry:
        fault = entry.get("fault")
        if not fault:
            return None
        return {"seat": entry["seat"], "kind": entry["kind"], "fault": {"status": fault["status"], "reason": HELD_BACK}}
    if entry.get("to") is not None:
        return None
    return entry  # a public event is published as the log holds it (the log never changes it)


def public_log(entries: Iterable[Mapping[str, Any] | Entry]) -> list[dict[str, Any]]:
    """The public forms of `entries`, in order, without the entries a spectator does not see."""
    return [p for e in entries if (p := public_entry(e)) is not None]


def typed_public_entry(data: Mapping[str, Any]) -> Entry:
    """A published entry as a typed log entry: an event as it is, a refused decision with its
    content absent (None) and its reason held back. Raises KeyError or TypeError for anything else."""
    if "kind" in data:
        fault = data["fault"]
        return Decision(int(data["seat"]), str(data["kind"]), None, Fault(str(fault["status"]), str(fault["reason"])))
    to = data["to"]
    return LoggedEvent(str(data["type"]), data["data"], None if to is None else tuple(to))


def spectator_header(replay: Replay) -> dict[str, Any]:
    """The header a spectator gets: what was being played and by whom, never the seed."""
    h = replay.header
    return {"game": h.game, "players": h.players, "options": dict(h.options), "names": [s.bot for s in replay.seats]}
