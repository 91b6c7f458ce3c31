"""Sharing a dead dragon's treasure: solo kill, the lone wizard, the split, then thefts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules import magic
from ladder.games.drachengold.rules.data import TOKEN_COLOURS, token_id, token_index, tokens_json
from ladder.games.drachengold.rules.decisions import is_int
from ladder.games.drachengold.rules.flow import Flow, Request
from ladder.games.drachengold.rules.negotiation import negotiate
from ladder.games.drachengold.rules.strategic import divide_and_choose

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.flow import Resume
    from ladder.games.drachengold.rules.pieces import Slot
    from ladder.games.drachengold.rules.state import DrachengoldState


def share_treasure(state: DrachengoldState, slot: Slot, involved: list[int], resume: Resume | None = None) -> Flow:
    """Move the dragon's tokens; returns seat -> tokens received (for the wizard's card draws).
    `resume` (forward.py only) joins the split under way, after the lone wizard's rubies."""
    # Tokens stay on the dragon (slot.tokens) until they are handed out.
    pool = list(slot.tokens)
    dragon = slot.dragon["id"]
    if resume is not None:
        shares = {s: list(resume.seized.get(s, [])) for s in involved}
    elif len(involved) == 1:
        slot.tokens = []
        state.give(involved[0], pool)
        state.emit("treasure_taken", {"dragon": dragon, "seat": involved[0], "tokens": tokens_json(pool)})
        return {involved[0]: pool}
    else:
        shares, pool = _wizard_seizes(state, slot, involved, pool)
        if not pool:
            return shares
    if state.options["split"] == "strategic":
        agreed = yield from divide_and_choose(state, slot, involved, pool, resume.division if resume else None)
    else:
        agreed = yield from negotiate(state, slot, involved, pool, resume.negotiation if resume else None)
    slot.tokens = []
    if agreed is None:
        state.box.extend(pool)
        state.emit("split_failed", {"dragon": dragon, "tokens": tokens_json(pool)})
        return shares
    for seat, tokens in agreed.items():
        state.give(seat, tokens)
        shares[seat].extend(tokens)
    published = {}
    for s, t in sorted(agreed.items()):  # (a loop: a comprehension's function costs more than its shares)
        published[str(s)] = tokens_json(t)
    state.emit("split", {"dragon": dragon, "shares": published})
    return shares


def _wizard_seizes(state: DrachengoldState, slot: Slot, involved: list[int], pool: list[int]):
    """Basic rules: a lone wizard's owner takes every red token first. Returns (shares, the rest)."""
    shares: dict[int, list[int]] = {s: [] for s in involved}
    wizards = [s for s, a, _ in slot.attackers if a == "wizard"]
    if not state.advanced and len(wizards) == 1:
        reds = [t for t in pool if TOKEN_COLOURS[t] == "red"]
        pool = [t for t in pool if TOKEN_COLOURS[t] != "red"]
        if reds:
            slot.tokens = list(pool)
            state.give(wizards[0], reds)
            shares[wizards[0]].extend(reds)
            state.emit("wizard_seizes", {"dragon": slot.dragon["id"], "seat": wizards[0],
                                         "tokens": tokens_json(reds)})
    return shares, pool


def thefts(state: DrachengoldState, slot: Slot, involved: list[int],
           resume: tuple[int, int | None] | None = None) -> Flow:
    """Each thief in play order steals one token from another involved player's hoard. `resume`
    (forward.py only): the index of the thief whose theft is under way, and its victim once named."""
    state.phase = "theft"
    thieves = [s for s, a, _ in slot.attackers if a == "thief"]
    first, victim = resume or (0, None)
    for thief in thieves[first:]:
        yield from _theft(state, slot, involved, thief, victim)
        victim = None


def _theft(state: DrachengoldState, slot: Slot, involved: list[int], thief: int, victim: int | None) -> Flow:
    """One thief's theft; with `victim` given it is already named (and no Ward stopped it)."""
    wizard_helps = (thief, "wizard") in [(s, a) for s, a, _ in slot.attackers]  # (no generator for any())
    if victim is None:
        candidates = [s for s in involved if s != thief and state.hoards[s]]
        if not candidates:
            state.emit("theft_skipped", {"seat": thief, "dragon": slot.dragon["id"]})
            return
        choice = yield _victim_request(state, thief, candidates, wizard_helps)
        victim = choice["victim"]
        if magic.take_ward(state, victim):
            state.emit("ward", {"seat": victim, "thief": thief})
            return
    if wizard_helps:
        pick = yield _pick_request(state, thief, victim)
        token = token_index(pick["token"])
    else:
        token = state.rng.choice(sorted(state.hoards[victim]))
    state.hoards[victim].remove(token)
    state.hoards[thief].append(token)
    state.emit("theft", {"seat": thief, "victim": victim, "chosen": wizard_helps})
    state.emit(
        "stolen", {"seat": thief, "victim": victim, "token": token_id(token), "colour": TOKEN_COLOURS[token]},
        (thief, victim),
    )


def _victim_request(state: DrachengoldState, thief: int, candidates: list[int], chosen: bool):
    def check(d: dict[str, Any]) -> str | None:
        victim = d.get("victim")
        if not is_int(victim) or victim not in candidates:
            return f"victim must be one of {candidates} (other involved players holding a token), not {victim!r}"
        return None

    info = {"candidates": candidates, "hoard_sizes": {str(s): len(state.hoards[s]) for s in candidates},
            "chosen": chosen}
    return Request(thief, "theft_victim", check, info, {"victim": candidates[0]})


def _pick_request(state: DrachengoldState, thief: int, victim: int):
    hoard = sorted(state.hoards[victim])
    allowed = {token_id(t) for t in hoard}

    def check(d: dict[str, Any]) -> str | None:
        if not isinstance(d.get("token"), str) or d.get("token") not in allowed:
            return f"token {d.get('token')!r} is not in seat {victim}'s hoard"
        return None

    info = {"victim": victim, "hoard": tokens_json(hoard)}
    return Request(thief, "theft_pick", check, info, {"token": token_id(hoard[0])})
