"""Why a version was rejected, in the author's own words: the end of its stderr in its validation
game (a traceback's last lines say the cause). A bot's log is its owner's (services.pages.bot_log),
so the cause goes to the owner or an admin only; the stored rejection reason, which the API shows
to everyone, stays the ladder's own one line ("validation game 12: crash: exited with code 1 ...").
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, select

from ladder.models import BotLog, BotVersion, Seat, User, VersionStatus

CAUSE_LINES = 12  # of the log's end: a Python traceback's last frames and its exception


def log_tail(text: str, lines: int = CAUSE_LINES) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def rejection_causes(
    *, session: Session, versions: Sequence[BotVersion], owner_id: int, viewer_id: int | None
) -> dict[int, str]:
    """{version id: the end of its validation game's stderr} for the rejected `versions` of a bot
    owned by `owner_id`, when the viewer is that owner or an admin; {} for anyone else."""
    if viewer_id is None:
        return {}
    if viewer_id != owner_id:
        viewer = session.get(User, viewer_id)
        if viewer is None or not viewer.is_admin:
            return {}
    rejected = {v.id: v.validation_match_id for v in versions
                if v.status == VersionStatus.REJECTED and v.validation_match_id is not None}
    if not rejected:
        return {}
    rows = session.exec(
        select(Seat.bot_version_id, Seat.match_id, BotLog.text)
        .join(BotLog, (BotLog.match_id == Seat.match_id) & (BotLog.seat == Seat.seat))
        .where(Seat.match_id.in_(set(rejected.values())), Seat.bot_version_id.in_(list(rejected)))
    ).all()
    return {vid: log_tail(text) for vid, match_id, text in rows if rejected.get(vid) == match_id and text.strip()}
