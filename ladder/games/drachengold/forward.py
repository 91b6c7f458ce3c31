"""Determinizations of Drachengold for one seat (the forward model, bots/forward.py).

A seat sees the table (dragons, their tokens and attackers), every adventurer, its own hoard and
hand, and of the rest only sizes: the other hoards, the other hands, the bag, the dragon pile and
the box. A determinization lays out that public position and the seat's own private parts as
they are, and deals the hidden parts at random from what is still possible: the tokens nobody at
the table can see go to the other hoards (each keeps first the tokens this seat saw it take in
public, as far as they are still unaccounted for) and to the bag; the unseen dragons are
shuffled into the pile; the unseen Magic Object cards go to the other hands and the deck. The
engine's RNG is reseeded from the caller's rng, never from the game's seed.

The sampled state's flow restarts at the start of the current seat's turn, so a determinization
is made only at the turn phase's decisions (`KINDS`: `magic` and `attack`). During a negotiation,
strategic split, theft or market `determinize` raises ValueError: those phases keep their progress
in the running flow, which an observation does not hold in full (private market offers, for one).
"""

from __future__ import annotations

import random
from typing import Any

from ladder.games.base import Event
from ladder.games.drachengold.data import DECK, TOKEN_COLOURS, token_index
from ladder.games.drachengold.state import DrachengoldState, Slot

DRAGONS = {d["id"]: d for d in DECK["dragons"]}


def _ids(tokens: list[dict[str, Any]]) -> list[int]:
    return [t for t in (token_index(x["id"]) for x in tokens) if t is not None]


def public_takes(events: list[dict[str, Any]], players: int) -> list[list[int]]:
    """Per seat, the tokens this seat saw it take (solo kills, the wizard's rubies, agreed splits,
    strategic choices, and the trades and thefts this seat was party to), in order."""
    takes: list[list[int]] = [[] for _ in range(players)]
    division: list[list[str]] = []
    for event in events:
        kind, data = event.get("type"), event.get("data") or {}
        if kind in ("treasure_taken", "wizard_seizes", "windfall"):
            takes[data["seat"]] += _ids(data["tokens"])
        elif kind == "split":
            for seat, tokens in data["shares"].items():
                takes[int(seat)] += _ids(tokens)
        elif kind == "division":
            division = data["shares"]
        elif kind == "chosen" and division:
            takes[data["seat"]] += [t for t in (token_index(x) for x in division[data["share"]]) if t is not None]
        elif kind == "stolen":
            _move(takes, [token_index(data.get("token"))], data["seat"])
        elif kind == "trade_done":
            _move(takes, _ids(data.get("give", [])), data["to"])
            _move(takes, _ids(data.get("pay", [])), data["from"])
    return takes


def _move(takes: list[list[int]], tokens: list[int | None], to: int) -> None:
    for t in tokens:
        if t is None:
            continue
        for hoard in takes:
            if t in hoard:
                hoard.remove(t)
        takes[to].append(t)


def _played_cards(events: list[dict[str, Any]]) -> list[int]:
    """Cards seen played since the last reshuffle: they lie in the discard pile."""
    out: list[int] = []
    for event in events:
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "magic_reshuffle":
            out = []
        elif kind == "card_played" and isinstance(data.get("card"), str) and data["card"][1:].isdigit():
            out.append(int(data["card"][1:]))
    return out


# The decisions a determinization resumes from (bots/forward.py; other games resume from any).
KINDS = ("magic", "attack")


def determinize(hello: dict[str, Any], observation: dict[str, Any], events: list[dict[str, Any]],
                rng: random.Random) -> DrachengoldState:
    """A full state consistent with what `observation` and `events` show to the seat, hidden parts sampled."""
    from ladder.games.drachengold import Drachengold

    obs = observation
    kind = (obs.get("request") or {}).get("kind")
    if kind not in KINDS if kind is not None else obs.get("phase") != "turn":
        raise ValueError(f"a determinization resumes only at a turn's decisions ({', '.join(KINDS)}), "
                         f"not during {kind or obs.get('phase')}")
    seat, n = int(obs["seat"]), int(obs["players"])
    st = Drachengold().new_state(obs["options"], rng.getrandbits(63), n)
    st.rng = random.Random(rng.getrandbits(63))

    # The table and the adventurers: public, as seen.
    placed: set[int] = set()
    st.table = []
    for d in obs["dragons"]:
        if d is None:
            st.table.append(None)
            continue
        tokens = _ids(d["tokens"])
        placed.update(tokens)
        base = {(s, a["id"]): a["attack"] for s, advs in enumerate(obs["adventurers"]) for a in advs}
        attackers = [(a["seat"], a["adventurer"], a["attack"] - base[(a["seat"], a["adventurer"])])
                     for a in d["attackers"]]
        st.table.append(Slot(dict(DRAGONS[d["id"]]), tokens, attackers, list(dict.fromkeys(a[0] for a in attackers))))
    for s, advs in enumerate(obs["adventurers"]):
        for a in advs:
            adv = st.advs[s][a["id"]]
            adv.up, adv.dragon = a["face"] == "up", a["dragon"]

    # Tokens: own hoard as seen; the others' hoards and the bag dealt from the unseen ones.
    mine = _ids(obs["hoard"])
    placed.update(mine)
    box = [t for e in events if e.get("type") == "split_failed" for t in _ids(e["data"]["tokens"])]
    box = box[: obs["box"]]
    placed.update(box)
    unseen = [t for t in range(len(TOKEN_COLOURS)) if t not in placed]
    rng.shuffle(unseen)
    takes = public_takes(events, n)
    pool = set(unseen)
    hoards: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        if s == seat:
            hoards[s] = mine
            continue
        for t in takes[s]:
            if t in pool and len(hoards[s]) < obs["hoard_sizes"][s]:
                hoards[s].append(t)
                pool.discard(t)
    rest = [t for t in unseen if t in pool]
    for s in range(n):
        if s != seat:
            need = obs["hoard_sizes"][s] - len(hoards[s])
            hoards[s] += rest[:need]
            rest = rest[need:]
    st.hoards, st.bag = hoards, rest[: obs["bag"]]
    st.box = box + rest[obs["bag"]:]  # anything left over went out of the game unseen

    # Dragons: the unseen ones, shuffled, form the pile.
    seen_dragons = {d["id"] for d in obs["dragons"] if d} | set(obs["dead"])
    pile = [dict(d) for d in DECK["dragons"] if d["id"] not in seen_dragons]
    rng.shuffle(pile)
    st.pile = pile[: obs["pile"]]
    st.dead = list(obs["dead"])
    st.drawn = sum(1 for e in events if e.get("type") == "dragon")
    st.market_status = "closed" if obs["market"] == "open" else obs["market"]

    # Magic Object cards: own hand as seen, the played ones discarded, the rest dealt at random.
    own = [int(c["id"][1:]) for c in obs["hand"]]
    discard = [c for c in _played_cards(events) if c not in own]
    hidden = [c for c in range(len(st.card_kinds)) if c not in own and c not in discard]
    rng.shuffle(hidden)
    st.hands = []
    for s in range(n):
        if s == seat:
            st.hands.append(own)
        else:
            st.hands.append(hidden[: obs["hand_sizes"][s]])
            hidden = hidden[obs["hand_sizes"][s]:]
    st.magic_deck, st.magic_discard = hidden, discard

    # The flow restarts at the start of the current seat's turn (`_play` counts the turn again).
    st.current, st.turn, st.kills = obs["current"], max(0, obs["turn"] - 1), len(obs["dead"])
    st.negotiation = st.strategic = st.market_state = None
    st.phase, st.end_reason = "turn", None
    st._flow = st._play()
    st._request = next(st._flow, None)
    request = obs.get("request") or {}
    # An attack after this turn's magic decision: the card question was already answered.
    if request.get("kind") == "attack" and st._request is not None and st._request.kind == "magic":
        st._apply(st._request.seat, {"card": None})
    st.events = [Event.from_json(e) for e in events]  # the history the seat saw, as it saw it
    return st
