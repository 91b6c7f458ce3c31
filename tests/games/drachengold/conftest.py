"""Helpers for the Drachengold rule tests: known positions and scripted decisions.

The `dg` fixture is a small kit. `dg.new(...)` builds a real game from a seed (the engine shuffles
the bag, the dragon pile and the Magic Object deck with its own RNG as usual). `dg.arrange(state, ...)`
then lays out a position through the state's attributes, the way a referee would rearrange the
table: which dragons lie face up with which tokens and attackers, what each hoard and hand holds,
which tokens are left in the bag and in what draw order, which dragons are in the pile. Every one
of the 126 tokens and 24 cards stays in exactly one place. Finally it restarts the turn flow at the
chosen seat, so the next pending decision is built from the arranged position. Randomness is never
replaced: random thefts and reshuffles still come from `state.rng`.

Colours are named as in deck.json (silver, gold, red, blue, green, purple, yellow, white, black).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bots import load_builtin
from ladder.games.drachengold import Drachengold
from ladder.games.drachengold.rules.data import DECK, TOKEN_COLOURS, token_id, token_index
from ladder.games.drachengold.rules.state import DrachengoldState, Slot

DRAGONS = {d["id"]: d for d in DECK["dragons"]}


class Kit:
    game = Drachengold()

    # ---- building positions -----------------------------------------------------------
    def new(self, players: int = 4, seed: int = 1, **options: Any) -> DrachengoldState:
        return self.game.new_state(options, seed, players)

    def arrange(
        self,
        st: DrachengoldState,
        dragons: list[Any] | None = None,
        hoards: dict[int, list[str]] | None = None,
        bag: list[str] | None = None,
        pile: list[Any] | None = None,
        down: dict[int, list[str]] | None = None,
        hands: dict[int, list[str]] | None = None,
        current: int = 0,
        turn: int = 0,
        drawn: int = 0,
        kills: int = 0,
    ) -> DrachengoldState:
        """Lay out a position and restart the flow at `current`'s turn.

        dragons: one entry per table slot: None (empty slot), a dragon id, or a dict
            {"id": "D5" or a deck-shaped dict, "tokens": [colours], "attackers": [(seat, adv[, bonus])]}.
        hoards: seat -> colours behind that seat's screen (others empty).
        bag: None keeps every unplaced token in the bag (in the engine's shuffled order); a list of
            colours puts exactly those in the bag, the first listed drawn first, and the rest in the box.
        pile: dragon ids (or deck-shaped dicts) in draw order; None: the other deck dragons.
        down: seat -> adventurer ids lying face down in front of their owner.
        hands: seat -> Magic Object kinds in hand; when given, the other hands are emptied.
        """
        dragons = list(dragons if dragons is not None else [s.dragon["id"] if s else None for s in st.table])
        hoards = hoards or {}
        free = sorted(range(len(TOKEN_COLOURS)))
        bag_order = {t: i for i, t in enumerate(st.bag)}
        # Unplaced tokens keep the engine's bag order; tokens that were elsewhere go underneath.
        free.sort(key=lambda t: bag_order.get(t, -1))
        by_colour: dict[str, list[int]] = {}
        for t in free:
            by_colour.setdefault(TOKEN_COLOURS[t], []).append(t)

        def take(colours: list[str]) -> list[int]:
            out = []
            for c in colours:
                assert by_colour.get(c), f"no {c} token left to place"
                out.append(by_colour[c].pop())
            return out

        st.table = []
        for entry in dragons:
            if entry is None:
                st.table.append(None)
                continue
            if isinstance(entry, str):
                entry = {"id": entry}
            dragon = entry["id"]
            dragon = dict(DRAGONS[dragon]) if isinstance(dragon, str) else dict(dragon)
            attackers = [(a[0], a[1], a[2] if len(a) > 2 else 0) for a in entry.get("attackers", [])]
            first = list(dict.fromkeys(a[0] for a in attackers))  # placed in the order listed
            st.table.append(Slot(dragon, take(entry.get("tokens", [])), attackers, first))
        st.hoards = [take(hoards.get(s, [])) for s in range(st.num_players)]
        if bag is None:
            rest = [t for ts in by_colour.values() for t in ts]
            rest.sort(key=lambda t: bag_order.get(t, -1))
            st.bag, st.box = rest, []
        else:
            st.bag = list(reversed(take(bag)))  # the engine draws from the end of the list
            st.box = [t for ts in by_colour.values() for t in ts]
        on_table = {s.dragon["id"] for s in st.table if s}
        if pile is None:
            order = [d["id"] for d in st.pile] + [d for d in DRAGONS if d not in {p["id"] for p in st.pile}]
            pile = [d for d in order if d not in on_table]
        st.pile = [dict(DRAGONS[d]) if isinstance(d, str) else dict(d) for d in pile]
        st.dead = [d for d in DRAGONS if d not in on_table and d not in {p["id"] for p in st.pile}]
        for seat, advs in enumerate(st.advs):
            for adv in advs.values():
                adv.up, adv.dragon = adv.id not in (down or {}).get(seat, []), None
        for slot in st.table:
            if slot is not None:
                for seat, adv, _ in slot.attackers:
                    st.advs[seat][adv].dragon, st.advs[seat][adv].up = slot.dragon["id"], True
        if hands is not None:
            deck_at = {c: i for i, c in enumerate(st.magic_deck)}
            cards = sorted(range(len(st.card_kinds)), key=lambda c: deck_at.get(c, -1))
            st.hands = []
            for seat in range(st.num_players):
                hand = []
                for kind in hands.get(seat, []):
                    card = next(c for c in reversed(cards) if st.card_kinds[c] == kind)
                    cards.remove(card)
                    hand.append(card)
                st.hands.append(hand)
            st.magic_deck, st.magic_discard = cards, []
        st.current, st.turn, st.drawn, st.kills = current, turn, drawn, kills
        st.negotiation = st.strategic = st.market_state = None
        st.market_status = "closed-pending" if drawn < DECK["market_after"] else "closed"
        st.phase, st.end_reason, st.events = "turn", None, []
        self.check_tokens(st)
        st._flow = st._play()
        st._request = next(st._flow, None)  # None: the arranged position ends the game at once
        return st

    # ---- reading positions ------------------------------------------------------------
    @staticmethod
    def check_tokens(st: DrachengoldState) -> None:
        """Every token is in exactly one place: bag, a dragon, a hoard, the box lid."""
        places = list(st.bag) + list(st.box) + [t for h in st.hoards for t in h]
        places += [t for s in st.table if s for t in s.tokens]
        assert sorted(places) == list(range(len(TOKEN_COLOURS))), "a token is lost or duplicated"

    @staticmethod
    def colours(tokens: list[Any]) -> Counter:
        """Colour counts of token indices, token ids, or {"id", "colour"} dicts."""
        out: Counter = Counter()
        for t in tokens:
            if isinstance(t, dict):
                out[t["colour"]] += 1
            else:
                out[TOKEN_COLOURS[t if isinstance(t, int) else token_index(t)]] += 1
        return out

    def hoard(self, st: DrachengoldState, seat: int) -> Counter:
        return self.colours(st.hoards[seat])

    @staticmethod
    def slot(st: DrachengoldState, dragon: str) -> Slot:
        index = st.slot_of(dragon)
        assert index is not None, f"{dragon} is not on the table"
        return st.table[index]

    @staticmethod
    def ids(tokens: list[int]) -> list[str]:
        return [token_id(t) for t in tokens]

    def tokens_of(self, st: DrachengoldState, dragon: str, colour: str | None = None) -> list[str]:
        return [token_id(t) for t in self.slot(st, dragon).tokens if colour is None or TOKEN_COLOURS[t] == colour]

    @staticmethod
    def events(st: DrachengoldState, type_: str) -> list[Any]:
        return [e for e in st.events if e.type == type_]

    # ---- scripted decisions -----------------------------------------------------------
    @staticmethod
    def act(st: DrachengoldState, kind: str, by: int | None = None, **decision: Any) -> int:
        """Apply one decision of `kind` for the pending seat (checked to be `by` if given)."""
        pending = st.pending()
        assert pending is not None and pending.kind == kind, f"expected {kind}, pending is {pending}"
        assert by is None or pending.seat == by, f"expected seat {by}, pending is {pending}"
        st.apply(pending.seat, decision)
        return pending.seat

    def attack(self, st: DrachengoldState, adventurer: str, dragon: str, seat: int | None = None) -> int:
        """Send an adventurer (passing a pending Magic Object choice first)."""
        if st.pending() is not None and st.pending().kind == "magic":
            self.act(st, "magic", seat, card=None)
        return self.act(st, "attack", seat, adventurer=adventurer, dragon=dragon)

    def fail_negotiation(self, st: DrachengoldState) -> int:
        """Nobody proposes in any round; returns the number of propose requests answered."""
        asked = 0
        while st.pending() is not None and st.pending().kind in ("propose", "vote"):
            kind = st.pending().kind
            st.apply(st.pending().seat, {} if kind == "propose" else {"accept": []})
            asked += kind == "propose"
        return asked

    def agree(self, st: DrachengoldState, shares: dict[int, list[str]]) -> None:
        """The first proposer puts up `shares` (seat -> token ids); every involved player accepts."""
        first = st.pending().seat
        self.act(st, "propose", shares={str(s): t for s, t in shares.items()})
        while st.pending().kind == "propose":
            self.act(st, "propose")
        pid = st.negotiation["standing"][0]["id"]
        assert st.negotiation["standing"][0]["proposer"] == first
        while st.pending() is not None and st.pending().kind == "vote":
            self.act(st, "vote", accept=[pid])

    def run_bots(self, st: DrachengoldState, names: list[str], seed: int = 0, limit: int = 100_000) -> None:
        """Play on with built-in bots (by name, one per seat) until the game ends."""
        bots = [load_builtin("drachengold", name)() for name in names]
        for seat, bot in enumerate(bots):
            bot.setup({"game": "drachengold", "seat": seat, "players": st.num_players, "seed": seed})
        for _ in range(limit):
            pending = st.pending()
            if pending is None:
                return
            decision = bots[pending.seat].decide(pending.kind, st.observation(pending.seat))
            assert st.validate(pending.seat, decision) is None
            st.apply(pending.seat, decision)
        raise AssertionError("the game did not end")


@pytest.fixture
def dg() -> Kit:
    return Kit()
