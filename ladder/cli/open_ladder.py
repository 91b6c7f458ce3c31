"""`ladder connect --open`: opt the remote bot in to the open ladder and wait in its lobby
(docs/remote.md, "The open ladder"). Each wait is a long poll that is also the heartbeat; when the
scheduler pairs the bot, the answer names its match and seat, and the match is played exactly as a
challenge (ladder/cli/connect.py `play_one`). Between matches the client waits again.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ladder.cli.backoff import retry_seconds

WAIT_S = 20  # each long poll; the lobby forgets a client not heard from for 30 s
RETRY_S = 2  # after a 429 that says nothing of when


class LobbyClient:
    """The lobby's calls, on a connect.Ladder (its token and its HTTP)."""

    def __init__(self, ladder, refused: type[Exception]):
        self.ladder, self.refused = ladder, refused

    def opt_in(self, game: str, name: str, open_ladder: bool = True) -> int:
        """The remote bot's id, opted in (created on first use)."""
        status, payload, _ = self.ladder.call("POST", "/api/v1/remote/open-ladder",
                                              {"game": game, "bot": name, "open": open_ladder})
        if status != 200:
            raise self.refused(f"the ladder refused the open ladder ({status}): {(payload or {}).get('error')}")
        return payload["bot"]["id"]

    def next_match(self, bot_id: int, *, wait_s: int = WAIT_S, say: Callable[[str], None] = lambda text: None,
                   give_up_s: float | None = None) -> tuple[int, int] | None:
        """Wait in the lobby until paired: (match, seat); None after `give_up_s` unpaired."""
        end = None if give_up_s is None else time.monotonic() + give_up_s
        while end is None or time.monotonic() < end:
            try:
                status, payload, headers = self.ladder.call("POST", f"/api/v1/lobby/{bot_id}?wait={wait_s}")
            except OSError as exc:  # the network: try again, the lobby keeps the bot for 30 s
                say(f"lobby: {exc}; trying again")
                time.sleep(2)
                continue
            if status == 200 and payload.get("status") == "matched":
                return payload["match"], payload["seat"]
            if status == 200:
                continue
            if status == 429:  # the server's held requests, or a rate: as the answer says (retry_ms)
                time.sleep(retry_seconds(payload, headers, RETRY_S))
                continue
            raise self.refused(f"the lobby refused ({status}): {(payload or {}).get('error')}")
        return None

    def leave(self, bot_id: int) -> None:
        self.ladder.call("DELETE", f"/api/v1/lobby/{bot_id}")
