"""Who played and how they placed, for every list of matches (home page, match list, bot page).

One query per list, whatever its length: the seats of all listed matches with their bots' names.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ladder.models import Bot, Seat


@dataclass(frozen=True, slots=True)
class ListedSeat:
    seat: int
    bot_id: int
    bot_name: str
    rank: int | None  # None until the match is finished

    @property
    def won(self) -> bool:
        return self.rank == 1


def standing_order(seat: ListedSeat) -> tuple[bool, int, int]:
    """Rank order once ranked (ties by seat); seat order before."""
    return seat.rank is None, seat.rank or 0, seat.seat


def seats_by_match(*, session: Session, match_ids: list[int]) -> dict[int, list[ListedSeat]]:
    """Per match id, its seats in rank order (seat order while it has no ranks)."""
    if not match_ids:
        return {}
    out: dict[int, list[ListedSeat]] = {}
    rows = session.exec(
        select(Seat.match_id, Seat.seat, Seat.bot_id, Bot.name, Seat.rank).join(Bot, Bot.id == Seat.bot_id)
        .where(Seat.match_id.in_(match_ids))
    )
    for match_id, seat, bot_id, name, rank in rows:
        out.setdefault(match_id, []).append(ListedSeat(seat, bot_id, name, rank))
    for seats in out.values():
        seats.sort(key=standing_order)
    return out
