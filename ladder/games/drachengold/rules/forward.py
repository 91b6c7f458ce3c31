"""Determinizations of Drachengold for one seat (the forward model, bots/forward.py).

A seat sees the table (dragons, their tokens and attackers), every adventurer, its own hoard and
hand, and of the rest only sizes: the other hoards, the other hands, the bag, the dragon pile and
the box. A determinization lays out that public position and the seat's own private parts as
they are, and deals the hidden parts at random from what is still possible: the tokens nobody at
the table can see go to the other hoards (each keeps first the tokens this seat saw it take in
public, as far as they are still unaccounted for) and to the bag; the unseen dragons are
shuffled into the pile (below the ones this seat's Scry showed); the unseen Magic Object cards go
to the other hands and the deck. The engine's RNG is reseeded from the caller's rng, never from
the game's seed.

The flow resumes at the seat's own pending decision, whatever its kind (`flow.Resume`): a
`magic` decision restarts the turn; every other joins the turn under way, with the card played
this turn (Might's bonus, a Double Strike still to come) and the progress of its phase. What the
seat cannot know of that progress is sampled by a fixed rule (`_negotiation`, `_market`):
proposals made earlier in this round are not public yet, so those seats keep their standing ones;
votes made earlier in this round accept their own proposal and each other one with probability
1/2; offers other seats made this round and not to this seat are none, and none of this round's
answers given before this seat's accepted anything. A division and the thefts are public as they
go (a thief with its wizard sees its victim's hoard, which the sample then holds exactly).
"""

from __future__ import annotations

import random
from typing import Any

from ladder.games.base import Event
from ladder.games.drachengold.rules import magic, market, negotiation, strategic
from ladder.games.drachengold.rules.data import DECK, TOKEN_COLOURS, token_index
from ladder.games.drachengold.rules.flow import Resume
from ladder.games.drachengold.rules.pieces import Slot
from ladder.games.drachengold.rules.state import DrachengoldState

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


def determinize(hello: dict[str, Any], observation: dict[str, Any], events: list[dict[str, Any]],
                rng: random.Random) -> DrachengoldState:
    """A full state consistent with what `observation` and `events` show to the seat, hidden parts sampled."""
    from ladder.games.drachengold import Drachengold

    obs = observation
    request = obs.get("request") or {}
    kind = request.get("kind")
    if kind is None and obs.get("phase") != "turn":
        raise ValueError(f"a determinization during {obs.get('phase')} needs the seat's own pending request")
    seat, n = int(obs["seat"]), int(obs["players"])
    st = Drachengold().new_state(obs["options"], rng.getrandbits(63), n)
    st.rng = random.Random(rng.getrandbits(63))
    _lay_table(st, obs)
    known = {seat: _ids(obs["hoard"])}
    if kind == "theft_pick":  # the thief's wizard shows it the victim's whole hoard
        known[int(request["victim"])] = _ids(request["hoard"])
    _deal_tokens(st, obs, events, known, rng)
    _deal_dragons(st, obs, events, rng)
    _deal_cards(st, obs, events, rng)
    st.current, st.kills = obs["current"], len(obs["dead"])
    st.market_status = obs["market"]
    st.negotiation = st.strategic = st.market_state = None
    st.phase, st.end_reason = "turn", None  # a phase under way sets its own when its flow resumes
    if kind in (None, "magic"):
        st.turn = max(0, obs["turn"] - 1)  # the turn restarts: `_play` counts it again
        st._flow = st._play()
    else:
        st.turn = obs["turn"]
        st._flow = st._play(_resume(st, obs, events, rng))
    st._request = next(st._flow, None)
    st.events = [Event.from_json(e) for e in events]  # the history the seat saw, as it saw it
    return st


def _lay_table(st: DrachengoldState, obs: dict[str, Any]) -> None:
    """The dragons, their tokens and attackers (Might's bonus included), and every adventurer: public."""
    base = {(s, a["id"]): a["attack"] for s, advs in enumerate(obs["adventurers"]) for a in advs}
    st.table = []
    for d in obs["dragons"]:
        if d is None:
            st.table.append(None)
            continue
        attackers = [(a["seat"], a["adventurer"], a["attack"] - base[(a["seat"], a["adventurer"])])
                     for a in d["attackers"]]
        st.table.append(Slot(dict(DRAGONS[d["id"]]), _ids(d["tokens"]), attackers,
                             list(dict.fromkeys(a[0] for a in attackers))))
    for s, advs in enumerate(obs["adventurers"]):
        for a in advs:
            st.advs[s][a["id"]].move(a["dragon"], a["face"] == "up")


def _deal_tokens(st: DrachengoldState, obs: dict[str, Any], events: list[dict[str, Any]],
                 known: dict[int, list[int]], rng: random.Random) -> None:
    """Hoards the seat knows as they are; the others and the bag dealt from the unseen tokens."""
    n = len(obs["hoard_sizes"])
    placed = {t for slot in st.table if slot for t in slot.tokens} | {t for h in known.values() for t in h}
    box = [t for e in events if e.get("type") == "split_failed" for t in _ids(e["data"]["tokens"])]
    box = box[: obs["box"]]
    placed.update(box)
    unseen = [t for t in range(len(TOKEN_COLOURS)) if t not in placed]
    rng.shuffle(unseen)
    hoards: list[list[int]] = [list(known.get(s, [])) for s in range(n)]
    others = [s for s in range(n) if s not in known]

    def room(s: int) -> int:
        return obs["hoard_sizes"][s] - len(hoards[s])

    pool, moved_on = set(unseen), []
    for s, takes in enumerate(public_takes(events, n)):
        for t in takes:
            if t in pool:
                (hoards[s] if s in others and room(s) > 0 else moved_on).append(t)
                pool.discard(t)
    # A token seen going to a hoard where it no longer fits left it unseen (a theft or trade
    # between others): it is in another hoard still, never back in the bag.
    for t in moved_on:
        spare = [s for s in others if room(s) > 0]
        if spare:
            hoards[rng.choice(spare)].append(t)
        else:  # only when the events given are not all the seat saw
            pool.add(t)
    rest = [t for t in unseen if t in pool]
    for s in others:
        need = room(s)
        hoards[s] += rest[:need]
        rest = rest[need:]
    st.hoards, st.bag = hoards, rest[: obs["bag"]]
    st.box = box + rest[obs["bag"]:]  # anything left over went out of the game unseen


def _deal_dragons(st: DrachengoldState, obs: dict[str, Any], events: list[dict[str, Any]],
                  rng: random.Random) -> None:
    """The unseen dragons, shuffled, form the pile, under those the seat's last Scry showed on top."""
    seen = {d["id"] for d in obs["dragons"] if d} | set(obs["dead"])
    top = [d for d in _scried(events) if d not in seen]
    pile = [dict(d) for d in DECK["dragons"] if d["id"] not in seen and d["id"] not in top]
    rng.shuffle(pile)
    st.pile = ([dict(DRAGONS[d]) for d in top] + pile)[: obs["pile"]]
    st.dead = list(obs["dead"])
    st.drawn = sum(1 for e in events if e.get("type") == "dragon")


def _scried(events: list[dict[str, Any]]) -> list[str]:
    """The dragons the seat's last Scry showed on top of the pile (those drawn since are seen)."""
    scry = [e["data"]["dragons"] for e in events if e.get("type") == "scry"]
    return list(scry[-1]) if scry else []


def _deal_cards(st: DrachengoldState, obs: dict[str, Any], events: list[dict[str, Any]],
                rng: random.Random) -> None:
    """Magic Object cards: own hand as seen, the played ones discarded, the rest dealt at random."""
    seat = int(obs["seat"])
    own = [int(c["id"][1:]) for c in obs["hand"]]
    discard = [c for c in _played_cards(events) if c not in own]
    hidden = [c for c in range(len(st.card_kinds)) if c not in own and c not in discard]
    rng.shuffle(hidden)
    st.hands = []
    for s in range(len(obs["hand_sizes"])):
        if s == seat:
            st.hands.append(own)
        else:
            st.hands.append(hidden[: obs["hand_sizes"][s]])
            hidden = hidden[obs["hand_sizes"][s]:]
    st.magic_deck, st.magic_discard = hidden, discard


# ---- where the flow resumes ------------------------------------------------------------------

SPLIT_KINDS = ("propose", "vote", "divide", "choose")
THEFT_KINDS = ("theft_victim", "theft_pick")
MARKET_KINDS = ("market_offer", "market_answer")


def _resume(st: DrachengoldState, obs: dict[str, Any], events: list[dict[str, Any]],
            rng: random.Random) -> Resume:
    """The turn under way, from the seat's pending request (any kind but `magic`)."""
    request = obs["request"]
    kind, seat = request["kind"], int(obs["seat"])
    resume = Resume(*_turn_so_far(events, obs["current"]))
    if kind in MARKET_KINDS:
        resume.market = _market(obs, events)
    elif kind in SPLIT_KINDS:
        dragon = (obs.get("negotiation") or obs.get("strategic"))["dragon"]
        resume.slot, resume.seized = st.slot_of(dragon), _seized(events, dragon)
        if kind in ("propose", "vote"):
            resume.negotiation = _negotiation(obs, events, rng)
        else:
            resume.division = _division(obs)
    elif kind in THEFT_KINDS:
        resume.slot = st.slot_of(_last(events, "kill")["dragon"])
        thieves = [s for s, a, _ in st.table[resume.slot].attackers if a == "thief"]
        resume.theft = (thieves.index(seat), request.get("victim"))
    elif kind != "attack":
        raise ValueError(f"no determinization resumes at a {kind!r} decision")
    return resume


def _last(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e["data"] for e in reversed(events) if e.get("type") == kind)


def _since(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events after the last one of type `kind` (all of them when there is none)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == kind:
            return events[i + 1:]
    return events


def _turn_so_far(events: list[dict[str, Any]], current: int) -> tuple[magic.TurnEffects, int]:
    """The card the current seat played this turn (public) and which of the turn's attacks has come."""
    effects, strike = magic.TurnEffects(), 0
    for event in _since(events, "turn"):
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "card_played" and data.get("seat") == current and data.get("kind") == "might":
            effects.might = DECK["might_bonus"]
        elif kind == "card_played" and data.get("seat") == current and data.get("kind") == "double_strike":
            effects.double_strike = True
        elif kind == "double_strike":
            strike = 1
    return effects, strike


def _seized(events: list[dict[str, Any]], dragon: str) -> dict[int, list[int]]:
    """The rubies a lone wizard took from `dragon` before its split (basic rules; public)."""
    seized = [e["data"] for e in _since(events, "kill") if e.get("type") == "wizard_seizes"]
    return {d["seat"]: _ids(d["tokens"]) for d in seized if d["dragon"] == dragon}


def _negotiation(obs: dict[str, Any], events: list[dict[str, Any]], rng: random.Random) -> negotiation.Progress:
    """The negotiation under way. Earlier seats' proposals this round are not public yet: they keep
    their standing ones. Earlier seats' votes this round are not either: each accepts its own
    proposal and every other one with probability 1/2."""
    ctx, seat = obs["negotiation"], int(obs["seat"])
    standing = {p["proposer"]: {"id": p["id"], "proposer": p["proposer"], "round": p["round"],
                                "shares": {int(s): _token_indices(ts) for s, ts in p["shares"].items()}}
                for p in ctx["standing"]}
    made = [p["id"] for e in _since(events, "negotiation") if e.get("type") == "proposals"
            for p in e["data"]["proposals"]]
    progress = negotiation.Progress(round=ctx["round"], step=ctx["step"], position=ctx["order"].index(seat),
                                    standing=standing, next_id=1 + max((int(i[1:]) for i in made), default=0),
                                    last_votes=ctx["last_votes"])
    if progress.step == "vote":
        ids = [p["id"] for p in ctx["standing"]]
        for voter in ctx["order"][: progress.position]:
            own = standing[voter]["id"] if voter in standing else None
            progress.votes[voter] = [i for i in ids if i == own or rng.random() < 0.5]
    return progress


def _division(obs: dict[str, Any]) -> strategic.Progress:
    """The strategic division under way: all of it is public."""
    ctx = obs["strategic"]
    shares = None if ctx["shares"] is None else [_token_indices(share) for share in ctx["shares"]]
    return strategic.Progress(shares, {int(s): i for s, i in ctx["taken"].items()})


def _market(obs: dict[str, Any], events: list[dict[str, Any]]) -> market.Progress:
    """The market round under way. Other seats' offers reach only their parties: the sample holds
    those this seat made or was made this round, no other; no answer before this seat's accepted one."""
    ctx, seat = obs["market_round"], int(obs["seat"])
    progress = market.Progress(round=ctx["round"], step=ctx["step"], seat=seat)
    if progress.step == "answer":
        progress.offers = [{"id": o["id"], "from": o["from"], "to": o["to"], "give": [t["id"] for t in o["give"]],
                            "want": dict(o["want"])}
                           for o in (e["data"] for e in _since(events, "market_round") if e.get("type") == "offer")]
    return progress


def _token_indices(ids: list[str]) -> list[int]:
    return [t for t in (token_index(x) for x in ids) if t is not None]
