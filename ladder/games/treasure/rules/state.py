"""The rules of Treasure of the Dragons: one game in progress.

The cave is a list of 49 squares in row-major order; each holds a tile kind or None once its tile
was won ("empty"). Every flip is public, so events carry no secrets and are addressed to everyone;
what stays hidden is the identity of face-down tiles, which observations never show.

Ladder edition (docs/rules.md, Treasure of the Dragons): seat 0 starts (the ladder already shuffles seats); a
stop keeps the first-flipped tiles of each complete set; after MAX_TURNS turns the game ends and
scores as it stands, without the Spider bonus (the Spiders are still in the cave).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ladder.games.base import JSON, Event, IllegalDecision, Pending, State, competition_ranks
from ladder.games.treasure.rules.decisions import (
    FLIP,
    MOVE_SPIDER,
    Parsed,
    parse_flip,
    parse_move_spider,
    square_json,
)
from ladder.games.treasure.rules.observation import observe
from ladder.games.treasure.rules.tiles import (
    COLS,
    DRAGON,
    KINDS,
    ROWS,
    SPIDER,
    full_tile_list,
    kept_from,
)

if TYPE_CHECKING:
    from ladder.games.base import Game

# Bots that always stop with incomplete sets would never end the game. Uniformly random play
# needs about 530 turns (3,017 at worst in 1,000 seeded games), so 5,000 cuts only stuck games.
MAX_TURNS = 5000


class TreasureState(State):
    def __init__(
        self,
        game: Game,
        options: dict[str, JSON],
        seed: int,
        num_players: int,
        *,
        layout: Sequence[str] | None = None,
        max_turns: int = MAX_TURNS,
    ) -> None:
        self.game = game
        self.options = options
        self.seed = seed
        self.num_players = num_players
        self.rng = random.Random(seed)
        self.events = []
        self.max_turns = max_turns
        if layout is None:
            tiles = full_tile_list()
            self.rng.shuffle(tiles)
        else:
            tiles = list(layout)
            if Counter(tiles) != Counter(full_tile_list()):
                raise ValueError("a layout must place exactly the 49 tiles of the game")
        self.grid: list[str | None] = list(tiles)
        self.flipped: list[int] = []  # squares face up this turn, in flip order
        self.dragon_run = False  # the first flip of this turn was a Dragon
        self.hoards: list[Counter[str]] = [Counter() for _ in range(num_players)]
        self.spider_bonus = [0] * num_players
        self.current = 0
        self.turn = 1
        self.spider_at: int | None = None  # the Spider waiting to be moved
        self.end_reason: str | None = None
        self._pending: Pending | None = Pending(0, FLIP)
        self._emit("game_start", players=num_players, rows=ROWS, cols=COLS, max_turns=max_turns)
        self._emit("turn_start", seat=0, turn=1)

    # ---- queries -------------------------------------------------------------------------------

    def pending(self) -> Pending | None:
        return self._pending

    def face_down(self) -> list[int]:
        up = set(self.flipped)
        return [i for i, tile in enumerate(self.grid) if tile is not None and i not in up]

    def empty_squares(self) -> list[int]:
        return [i for i, tile in enumerate(self.grid) if tile is None]

    def dragons(self, seat: int) -> int:
        return self.hoards[seat][DRAGON]

    def observation(self, seat: int) -> dict[str, JSON]:
        return observe(self, seat)

    # ---- decisions -----------------------------------------------------------------------------

    def _check(self, seat: int, decision: JSON) -> Parsed | str:
        """The parsed decision when legal, else the reason it is not."""
        error = self.turn_error(seat, decision)
        if error is not None:
            return error
        if self._pending.kind == FLIP:
            parsed = parse_flip(decision)
            if isinstance(parsed, str):
                return parsed
            if parsed.stop:
                return parsed if self.flipped else "a turn starts with a flip: stop only after flipping"
            assert parsed.square is not None
            where = square_json(parsed.square)
            if self.grid[parsed.square] is None:
                return f"square {where} is empty: its tile was already won"
            if parsed.square in self.flipped:
                return f"square {where} is already face up this turn"
            return parsed
        parsed = parse_move_spider(decision)
        if isinstance(parsed, str) or parsed.square is None:
            return parsed
        if self.grid[parsed.square] is not None:
            return f"square {square_json(parsed.square)} is not empty: a Spider moves to an empty square"
        return parsed

    def validate(self, seat: int, decision: JSON) -> str | None:
        checked = self._check(seat, decision)
        return checked if isinstance(checked, str) else None

    def _apply(self, seat: int, decision: JSON) -> None:
        # `decision` is legal (base State.apply or the play loop validated it): read it, no checks
        assert self._pending is not None
        square = decision.get("square")
        index = None if square is None else square[0] * COLS + square[1]
        if self._pending.kind == MOVE_SPIDER:
            self._move_spider(index)
        elif index is None:
            self._stop()
        else:
            self._flip(index)

    def default_decision(self) -> JSON:
        """Stop when allowed, else flip the first face-down square (row-major); leave a Spider."""
        if self._pending is None:
            raise IllegalDecision("the game is over")
        if self._pending.kind == MOVE_SPIDER:
            return {"square": None}
        if self.flipped:
            return {"stop": True}
        return {"square": square_json(self.face_down()[0])}

    # ---- the turn ------------------------------------------------------------------------------

    def _flip(self, square: int) -> None:
        kind = self.grid[square]
        assert kind is not None
        self.flipped.append(square)
        self._emit("flip", seat=self.current, square=square_json(square), kind=kind)
        if kind == SPIDER:
            self._end_turn("spider")
            empties = self.empty_squares()
            if empties:
                self.spider_at = square
                self._pending = Pending(self.current, MOVE_SPIDER)
            else:
                self._next_turn()
        elif len(self.flipped) == 1:
            self.dragon_run = kind == DRAGON
        elif self.dragon_run and kind != DRAGON:
            self._end_turn("not_dragon")
            self._next_turn()
        elif not self.dragon_run and kind == DRAGON:
            self._end_turn("dragon")
            self._next_turn()

    def _stop(self) -> None:
        kinds = [self.grid[i] for i in self.flipped]
        if self.dragon_run:
            kept = list(self.flipped)  # only Dragons were flipped, else the turn would have ended
        else:
            quota = kept_from(kinds)  # type: ignore[arg-type]
            kept = []
            for square in self.flipped:  # the first-flipped tiles of each kind fill the sets
                kind = self.grid[square]
                if quota[kind] > 0:
                    quota[kind] -= 1
                    kept.append(square)
        won = Counter(self.grid[i] for i in kept)
        for square in kept:
            self.grid[square] = None
        self.hoards[self.current].update(won)
        self.flipped = [i for i in self.flipped if i not in set(kept)]
        if kept:
            tiles = dict(sorted(won.items()))
            self._emit("keep", seat=self.current, tiles=tiles, squares=[square_json(i) for i in kept])
        self._end_turn("stop")
        if all(tile in (None, SPIDER) for tile in self.grid):
            self._finish("only_spiders")
        else:
            self._next_turn()

    def _end_turn(self, reason: str) -> None:
        """Whatever is still face up goes back face down where it lay."""
        returned = [square_json(i) for i in self.flipped]
        self.flipped = []
        self.dragon_run = False
        self._emit("turn_end", seat=self.current, reason=reason, returned=returned)

    def _move_spider(self, target: int | None) -> None:
        start = self.spider_at
        assert start is not None
        if target is not None:
            self.grid[target], self.grid[start] = SPIDER, None
        self.spider_at = None
        self._emit(
            "spider_move",
            seat=self.current,
            **{"from": square_json(start), "to": None if target is None else square_json(target)},
        )
        self._next_turn()

    def _next_turn(self) -> None:
        if self.turn >= self.max_turns:
            self._finish("turn_cap")
            return
        self.current = (self.current + 1) % self.num_players
        self.turn += 1
        self._pending = Pending(self.current, FLIP)
        self._emit("turn_start", seat=self.current, turn=self.turn)

    # ---- the end -------------------------------------------------------------------------------

    def _finish(self, reason: str) -> None:
        self._pending = None
        self.end_reason = reason
        bonus_to = None
        if reason == "only_spiders":
            most = max(self.dragons(s) for s in range(self.num_players))
            leaders = [s for s in range(self.num_players) if self.dragons(s) == most]
            if len(leaders) == 1:  # a tie for the most Dragons: nobody takes the Spiders
                bonus_to = leaders[0]
                spiders = [i for i, tile in enumerate(self.grid) if tile == SPIDER]
                for i in spiders:
                    self.grid[i] = None
                self.spider_bonus[bonus_to] = len(spiders)
        self._emit(
            "game_end",
            reason=reason,
            spider_bonus_to=bonus_to,
            scores=self.scores(),
            dragons=[self.dragons(s) for s in range(self.num_players)],
            ranks=self.ranks(),
        )

    def scores(self) -> list[int]:
        """Tiles won, the Spider bonus included."""
        return [sum(self.hoards[s].values()) + self.spider_bonus[s] for s in range(self.num_players)]

    def ranks(self) -> list[int]:
        """Most tiles first; equal tiles go to most Dragons; still equal shares the rank."""
        return competition_ranks([(t, self.dragons(s)) for s, t in enumerate(self.scores())])

    def breakdown(self) -> list[dict[str, JSON]]:
        return [
            {
                "seat": s,
                "tiles": {k: self.hoards[s][k] for k in KINDS if k != SPIDER},
                "dragons": self.dragons(s),
                "spider_bonus": self.spider_bonus[s],
                "total": total,
            }
            for s, total in enumerate(self.scores())
        ]

    def tiles_accounted(self) -> int:
        """Tiles on the grid plus every hoard and bonus: always the game's 49."""
        on_grid = sum(tile is not None for tile in self.grid)
        return on_grid + sum(sum(h.values()) for h in self.hoards) + sum(self.spider_bonus)

    def _emit(self, type_: str, **data: JSON) -> None:
        self.events.append(Event(type_, data))
