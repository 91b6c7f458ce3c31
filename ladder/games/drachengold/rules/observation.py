"""What one seat may see (../shared/design/drachengold.md, "What each player may see").

Public: dragons and their tokens, every adventurer, hoard sizes, bag and pile counts, the
negotiation's proposals once the round's proposals are in, card counts. Private to the seat:
its own hoard and hand, and the request it must answer. Others' hoard colours, the bag, the pile
order and others' hands never appear.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules import magic
from ladder.games.drachengold.rules.data import token_dicts, tokens_json

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.flow import Request
    from ladder.games.drachengold.rules.state import DrachengoldState


def _fresh(value: Any) -> Any:
    """A deep copy of a JSON value the state keeps (a phase's context, a request's info): what a
    seat is handed must be its own, so an in-process bot cannot change the game or the log through
    it. Each dict or list is copied in C and only its containers are walked: these values are
    small (a request's info, the strategic split's), where this costs about two thirds of a
    marshal round trip, which pays for its buffer and its table of references on every call."""
    out = value.copy()
    if type(value) is dict:
        for key, item in value.items():
            if type(item) is dict or type(item) is list:
                out[key] = _fresh(item)
    elif not _CONTAINERS.isdisjoint(map(type, value)):  # most lists hold only strings or numbers:
        for index, item in enumerate(value):  # their items are looked at in C, not here
            if type(item) is dict or type(item) is list:
                out[index] = _fresh(item)
    return out


_CONTAINERS = frozenset((dict, list))


def _request(request: Request) -> dict[str, Any]:
    """{"kind", **info}, fresh: the info's containers copied (_fresh) straight into the request's
    dict, rather than into a copy of the info that is then merged and dropped."""
    info = request.info
    out = {"kind": request.kind}
    out.update(info)
    for key, item in info.items():
        if type(item) is list:  # most are lists of ids: copied here, without a call to _fresh
            out[key] = item.copy() if _CONTAINERS.isdisjoint(map(type, item)) else _fresh(item)
        elif type(item) is dict:
            out[key] = _fresh(item)
    return out


# dict.copy as a function: mapped over a list it copies each dict in C. Python 3.11 runs every
# comprehension as a function of its own (a function object and a frame per comprehension), which
# for the short lists of an observation costs more than the copies (bench/instructions.py).
_copy = dict.copy
# The keys of a negotiation's context (negotiation.negotiate), whose containers _negotiation copies
# one by one; a context with any other set of keys is copied generically (see there).
_NEGOTIATION_KEYS = frozenset(
    ("dragon", "involved", "order", "tokens", "rounds", "round", "step", "standing", "last_votes", "attack")
)


def _negotiation(ctx: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a negotiation's context (negotiation.negotiate), made knowing its shape:
    a copy in C per container instead of a generic walk (half the decisions of a game are a
    negotiation's). A context with keys this does not know is deep-copied, so a new one is safe
    before it is made fast (tests/games/drachengold/rules/test_observation.py checks nothing is shared)."""
    if ctx.keys() != _NEGOTIATION_KEYS:
        return _fresh(ctx)
    out = ctx.copy()
    out["involved"] = ctx["involved"].copy()  # seat numbers
    out["order"] = ctx["order"].copy()
    out["tokens"] = list(map(_copy, ctx["tokens"]))  # {"id", "colour"}: strings
    standing = ctx["standing"]
    if standing:
        out["standing"] = standing = list(map(_copy, standing))
        for proposal in standing:  # {id, proposer, round, shares: seat -> token ids}
            proposal["shares"] = shares = proposal["shares"].copy()
            for key, ids in shares.items():  # (a loop: a dict(zip(...)) of the copies costs twice as much)
                shares[key] = ids.copy()
    else:
        out["standing"] = []
    out["last_votes"] = votes = ctx["last_votes"].copy()  # seat -> proposal ids
    for key, ids in votes.items():
        votes[key] = ids.copy()
    out["attack"] = ctx["attack"].copy()  # seat -> attack
    return out


class SortedHoards(list):
    """Per seat, (its hoard when last shown, data.py's dicts of its tokens, sorted) or None: what
    build_observation copies while the seat's hoard stays. Not game state, so its repr does not
    show it (two equal states print the same whichever observations were made of them:
    tests/bots/test_forward.py)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"SortedHoards({len(self)} seats)"


# An observation's keys in their order, each with a stand-in: build_observation copies this and sets
# each value, which costs less than a dict display of 18 keys (that inserts each into a new table).
_SKELETON: dict[str, Any] = dict.fromkeys(
    (
        "game",
        "seat",
        "players",
        "options",
        "turn",
        "current",
        "phase",
        "dragons",
        "adventurers",
        "hoard",
        "hoard_sizes",
        "hand",
        "hand_sizes",
        "bag",
        "pile",
        "box",
        "dead",
        "market",
    )
)
_SKELETON["game"] = "drachengold"


def build_observation(state: DrachengoldState, seat: int, request: Request | None) -> dict[str, Any]:
    obs = _SKELETON.copy()
    obs["seat"] = seat
    obs["players"] = state.num_players
    obs["options"] = state.options.copy()
    obs["turn"] = state.turn
    obs["current"] = state.current
    obs["phase"] = state.phase
    # The table, as state.dragon_json would give each dragon: a copy of the JSON the slot keeps
    # (state.shown_dragon) and of its token and attacker dicts, each list by a map in C.
    obs["dragons"] = dragons = []
    for slot in state.table:
        if slot is None:
            dragons.append(None)
            continue
        shown = slot.shown
        if shown is None or shown[0] != slot.tokens or shown[1] != slot.attackers:
            shown = state.shown_dragon(slot)
        dragon = shown[2].copy()
        dragon["tokens"] = list(map(_copy, shown[3]))
        dragon["attackers"] = list(map(_copy, shown[4])) if shown[4] else []
        dragons.append(dragon)
    obs["adventurers"] = adventurers = []  # a loop: a comprehension would be a function call (3.11)
    for entries in state.entries:
        adventurers.append(list(map(_copy, entries)))
    # The seat's own hoard, sorted: copies of data.py's dicts of its tokens, which state.sorted_hoards
    # keeps in order with the hoard as it was then. While the hoard is that (compared by value, so a
    # change in place is seen) nothing is sorted nor looked up again.
    hoard = state.hoards[seat]
    kept = state.sorted_hoards[seat]
    if kept is None or kept[0] != hoard:
        kept = state.sorted_hoards[seat] = (hoard.copy(), token_dicts(sorted(hoard)))
    obs["hoard"] = list(map(_copy, kept[1]))
    obs["hoard_sizes"] = list(map(len, state.hoards))
    hands = state.hands
    obs["hand"] = magic.hand_json(state, seat) if hands[seat] else []
    obs["hand_sizes"] = list(map(len, hands))
    obs["bag"] = len(state.bag)
    obs["pile"] = len(state.pile)
    obs["box"] = len(state.box)
    obs["dead"] = state.dead.copy()
    obs["market"] = state.market_status
    if state.negotiation is not None:
        obs["negotiation"] = _negotiation(state.negotiation)
    if state.strategic is not None:
        obs["strategic"] = _fresh(state.strategic)
    if state.market_state is not None:
        obs["market_round"] = dict(state.market_state)
    if state.phase == "over":
        obs["hoards"] = [tokens_json(sorted(h)) for h in state.hoards]
        obs["scores"] = state.scores()
    if request is not None and request.seat == seat:
        obs["request"] = _request(request)
    return obs
