"""A heuristic house bot for DragonFlame: card counting and a forecast of the attack round.

It reads the game with the game's own rules (`ladder.games.dragonflame`): what its seat knows is
rebuilt once per decision (`forward.Sampler`, nothing sampled), which also gives the cards it has
not seen yet; `outlook.Outlook` values the choices (the search bot starts from the same values).

- A castle is worth, to a seat, how much its cards add to that seat's end score (the rules'
  scoring with the end-of-game Relics), plus 1.5 a fire token its Dragonflames can place, the Ring
  of Fire's extra tokens and the Princess's names still to come at rough values; a face-down card
  the seat cannot see is worth the average of the cards it has not seen to it, less 1.5 (card
  counting; Knights get dumped face down); in the last round the castle's number counts too (it
  becomes the Banner that scores).
- Attack: the castle worth most to itself.
- Play: for each card and castle it may play onto, it forecasts the attacks (in banner order each
  other seat takes the castle worth most to it from what that seat can see; this bot takes the best
  for itself) and plays where its own haul is largest. So a Knight goes where someone else will
  take it, and a good card where it will take it itself. (Subtracting the others' hauls too
  measured no better against looter.)
- Dragonflame: the line that adds most to its village prospect, less half the best other's gain.
- Spyglass: always, on the castle with the most face-down cards it has not seen.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any


class HeuristicBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.hello: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []

    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.hello = hello

    def on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def decide(self, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
        # The rules are imported at the first decision, not at start-up: `ready` must come within
        # the start-up limit even on a busy machine, and the rules are most of the start's cost.
        from ladder.games.dragonflame.rules.forward import Sampler
        from ladder.games.dragonflame.rules.outlook import Outlook, spy

        request = observation["request"]
        if kind == "spy":
            return spy(observation)
        return Outlook(Sampler(self.hello, observation, self.events)).ranked(kind, request)[0][1]


if __name__ == "__main__":
    run(HeuristicBot)
