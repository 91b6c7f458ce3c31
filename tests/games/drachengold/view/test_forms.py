"""Drachengold's negotiation forms for a person: what a careless "Decide" sends is safe (keep the
standing proposal, or a split by attack, never everything to the person), and the vote says which
of several agreed proposals wins and which proposals are the same split."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ladder.games import get_game
from ladder.games.forms import named

FORMS = get_game("drachengold").part("forms")
TOKENS = [{"id": f"t{i}", "colour": c} for i, c in enumerate(["gold", "silver", "red", "blue", "green", "white"])]


def _observation(kind: str, standing: list[dict[str, Any]], attack: dict[str, int] | None = None) -> dict[str, Any]:
    negotiation = {"dragon": "D9", "involved": [0, 2], "order": [2, 0], "tokens": TOKENS, "rounds": 8,
                   "round": 1 if not standing else 2, "step": kind, "standing": standing, "last_votes": {},
                   "attack": attack or {"0": 4, "2": 2}}
    request: dict[str, Any] = {"kind": kind}
    if kind == "vote":
        request["proposals"] = [p["id"] for p in standing]
    return {"seat": 0, "players": 3, "negotiation": negotiation, "request": request}


def _defaults(form) -> dict[str, list[str]]:
    """What the browser posts when the person changes nothing."""
    return {f.name: [f.default] for f in form.fields if f.default is not None}


def test_round_one_defaults_to_a_split_by_attack_not_everything_to_the_person() -> None:
    observation = _observation("propose", [])
    decision = FORMS.read(observation, _defaults(FORMS.form(observation)))
    counts = {seat: len(ids) for seat, ids in decision["shares"].items()}
    assert counts == {"0": 4, "2": 2}  # attack 4 against 2: two thirds of six tokens
    assert sorted(i for ids in decision["shares"].values() for i in ids) == sorted(t["id"] for t in TOKENS)


def test_an_equal_attack_is_an_equal_split() -> None:
    observation = _observation("propose", [], {"0": 3, "2": 3})
    decision = FORMS.read(observation, _defaults(FORMS.form(observation)))
    assert Counter(len(ids) for ids in decision["shares"].values()) == Counter({3: 2})


def test_with_a_standing_proposal_the_default_keeps_it_and_the_editor_starts_from_it() -> None:
    mine = {"id": "p3", "proposer": 0, "shares": {"0": ["t0", "t1"], "2": ["t2", "t3", "t4", "t5"]}}
    observation = _observation("propose", [mine])
    form = FORMS.form(observation)
    assert FORMS.read(observation, _defaults(form)) == {}  # {} keeps the standing proposal
    assert {f.name: f.default for f in form.fields[1:]} == {"token:t0": "0", "token:t1": "0", "token:t2": "2",
                                                            "token:t3": "2", "token:t4": "2", "token:t5": "2"}
    values = {**_defaults(form), "action": ["split"]}  # "propose this split" unchanged: the same split again
    assert FORMS.read(observation, values) == {"shares": mine["shares"]}


def test_the_vote_names_the_winner_among_several_and_marks_the_same_split() -> None:
    standing = [{"id": "p1", "proposer": 2, "shares": {"0": ["t0", "t1", "t2"], "2": ["t3", "t4", "t5"]}},
                {"id": "p2", "proposer": 0, "shares": {"2": ["t5", "t4", "t3"], "0": ["t2", "t1", "t0"]}}]
    observation = _observation("vote", standing)
    with named(["ada", "greedy", "bargainer"]):
        form = FORMS.form(observation)
    assert "the first in proposal order wins: p1, then p2" in form.help
    labels = [c.label for c in form.field("accept").choices]
    assert labels[0].startswith("p1 by bargainer: ada (you): gold, silver, red; bargainer: blue, green, white")
    assert "(the same split as p1)" in labels[1] and "(the same split" not in labels[0]
    assert FORMS.read(observation, {"accept": ["p1"]}) == {"accept": ["p1"]}  # names are labels only
