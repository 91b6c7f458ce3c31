"""A person's forms (ladder/games/forms.py and each game's view/forms.py), on requests of every kind
taken from real seeded games of house bots: the form offers the bot's own choice, reading that choice
back through the form gives a decision the game accepts (the bot's, up to order), and a forged or
incomplete form is refused with a message saying what is wrong."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from ladder.games import get_game
from ladder.games.forms import CHECKBOXES, NUMBER, FormError
from ladder.play import make_bots

# (game, options, bots): tables that between them reach every decision kind of every game
TABLES = [
    ("treasure", {}, ["careful", "random", "memory", "random"]),
    ("dragonflame", {}, ["looter", "random", "heuristic", "random"]),
    ("drachengold", {"rules": "advanced-a"}, ["greedy", "random", "bargainer", "trader"]),
    ("drachengold", {"rules": "advanced-b", "split": "strategic"}, ["greedy", "random", "bargainer", "trader"]),
]


@functools.cache
def samples(game: str) -> dict[str, list[tuple[Any, int, dict[str, Any], Any]]]:
    """Per decision kind, a few (judge, seat, observation, the bot's decision) from seeded games.

    `judge(decision)` is what the game's `validate` said of a decision at exactly the point the bot
    was asked (states hold generators and cannot be copied: the candidates a test judges are read
    through the form and judged while the game stands there)."""
    forms = get_game(game).part("forms")
    out: dict[str, list] = {}
    for name, options, bots in TABLES:
        if name != game:
            continue
        for seed in (1, 2, 3):
            game_obj = get_game(game)
            state = game_obj.new_state(options, seed, len(bots))
            players = make_bots(game, bots)
            for seat, bot in enumerate(players):
                bot.setup({"game": game, "seat": seat, "players": len(bots), "options": state.options,
                           "bot_seed": seed * 10 + seat, "seed": seed * 10 + seat})
            sent = 0
            while (pending := state.pending()) is not None:
                while sent < len(state.events):
                    event = state.events[sent].as_json()
                    for s, b in enumerate(players):
                        if state.events[sent].visible_to(s):
                            b.on_event(event)
                    sent += 1
                observation = state.observation(pending.seat)
                decision = players[pending.seat].decide(pending.kind, state.observation(pending.seat))
                bucket = out.setdefault(pending.kind, [])
                if len(bucket) < 4 and state.validate(pending.seat, decision) is None:
                    verdicts = {}
                    for candidate in _candidates(forms, observation, decision):
                        verdicts[repr(candidate)] = state.validate(pending.seat, candidate)
                    bucket.append((verdicts.__getitem__, pending.seat, observation, decision))
                state.apply(pending.seat, decision)
    return out


def _candidates(forms: Any, observation: dict[str, Any], decision: Any) -> list[Any]:
    """The decisions the tests below submit: the bot's read back, and for a split all to the person."""
    out = [forms.read(observation, forms.fill(observation, decision))]
    if observation["request"]["kind"] == "propose":
        out.append(forms.read(observation, _all_mine(forms.form(observation), observation["seat"])))
    return out


def _all_mine(form: Any, seat: int) -> dict[str, list[str]]:
    return {"action": ["split"]} | {f.name: [str(seat)] for f in form.fields if f.name.startswith("token:")}


def _normal(value: Any) -> Any:
    """Order and empty shares do not change a decision's meaning."""
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items() if not (isinstance(v, list) and not v and k.isdigit())}
    if isinstance(value, list):
        items = [_normal(v) for v in value]
        return sorted(items, key=repr) if all(isinstance(v, str) for v in items) else items
    return value


CASES = [(game, kind) for game in ("treasure", "dragonflame", "drachengold") for kind in get_game(game).decision_kinds]


@pytest.mark.parametrize(("game", "kind"), CASES)
def test_the_bots_choice_read_back_through_the_form_is_what_the_game_accepts(game: str, kind: str) -> None:
    forms = get_game(game).part("forms")
    found = samples(game).get(kind)
    assert found, f"no {game} {kind} request in the seeded games"
    for judge, _seat, observation, decision in found:
        form = forms.form(observation)
        assert form.kind == kind and form.fields
        values = forms.fill(observation, decision)
        for name, given in values.items():  # the bot's choice is among what the form offers
            spec = form.field(name)
            if spec.widget != NUMBER:
                offered = {c.value for c in spec.choices}
                assert set(given) <= offered, (name, given, offered)
        read = forms.read(observation, values)
        assert judge(repr(read)) is None, (read, decision)
        assert _normal(read) == _normal(decision)


@pytest.mark.parametrize(("game", "kind"), CASES)
def test_a_forged_choice_is_refused_with_a_message(game: str, kind: str) -> None:
    forms = get_game(game).part("forms")
    _, _, observation, decision = samples(game)[kind][0]
    form = forms.form(observation)
    values = forms.fill(observation, decision)
    target = next(f for f in form.fields if f.widget != NUMBER)
    forged = {**values, target.name: ["not-a-choice"]}
    with pytest.raises(FormError, match="not one of the choices"):
        forms.read(observation, forged)
    if target.widget != CHECKBOXES and not target.optional:
        missing = {k: v for k, v in values.items() if k != target.name}
        with pytest.raises(FormError, match="choose"):
            forms.read(observation, missing)


def test_a_number_out_of_range_or_not_a_number_is_refused() -> None:
    forms = get_game("drachengold").part("forms")
    _, _, observation, decision = samples("drachengold")["market_offer"][0]
    values = forms.fill(observation, decision)
    name = next(k for k in values if ":want:" in k)
    for bad, message in (("99", "not between"), ("-1", "not a whole number"), ("1e3", "not a whole number")):
        with pytest.raises(FormError, match=message):
            forms.read(observation, {**values, name: [bad]})


def test_a_market_offer_to_nobody_that_gives_something_is_refused() -> None:
    forms = get_game("drachengold").part("forms")
    _, _, observation, _ = samples("drachengold")["market_offer"][0]
    hoard = [t["id"] for t in observation["hoard"]]
    assert hoard, "the sample seat holds tokens to offer"
    values = forms.fill(observation, {"offers": []})
    values["offer0:give"] = [hoard[0]]
    with pytest.raises(FormError, match="choose whom"):
        forms.read(observation, values)
    values["offer0:to"] = [str((observation["seat"] + 1) % observation["players"])]
    offer = forms.read(observation, values)["offers"][0]
    assert offer == {"to": (observation["seat"] + 1) % observation["players"], "give": [hoard[0]], "want": {}}


def test_a_person_may_propose_a_split_of_their_own() -> None:
    """Not only the bot's split: every token to the person is a split the game accepts."""
    forms = get_game("drachengold").part("forms")
    judge, seat, observation, _ = samples("drachengold")["propose"][0]
    decision = forms.read(observation, _all_mine(forms.form(observation), seat))
    assert set(decision["shares"]) == {str(seat)}
    assert judge(repr(decision)) is None


def test_no_request_no_form() -> None:
    forms = get_game("treasure").part("forms")
    with pytest.raises(FormError, match="no decision"):
        forms.form({"seat": 0})


@pytest.mark.parametrize(("game", "kind"), CASES)
def test_any_post_is_read_or_refused_with_a_form_error_never_a_crash(game: str, kind: str) -> None:
    """Hostile posts: each field given junk, several values, or nothing; only FormError may come out."""
    import random

    forms = get_game(game).part("forms")
    _, _, observation, decision = samples(game)[kind][0]
    form = forms.form(observation)
    good = forms.fill(observation, decision)
    rng = random.Random(f"{game}:{kind}")
    junk = ["", "0", "-1", "99999999", "1,1", "none", "x" * 300, "\x00", "t0", "p1", "left:9", "9,9", "٣"]
    refused = 0
    for _ in range(200):
        values = dict(good)
        for spec in rng.sample(form.fields, min(3, len(form.fields))):
            values[spec.name] = rng.sample(junk + [c.value for c in spec.choices], rng.randint(0, 2))
        try:
            forms.read(observation, values)
        except FormError as exc:
            refused += 1
            assert str(exc)  # a message for the person
    assert refused > 0
