import ast
from pathlib import Path

import pytest

from bots import builtin_bots, load_builtin
from bots.drachengold.bargainer import BargainerBot
from bots.drachengold.trader import TraderBot
from ladder.games.drachengold.rules.data import TOKEN_COLOURS
from ladder.play import play_builtin

BOTS = Path(__file__).parents[2] / "bots"
STARTERS = sorted({module.removeprefix("bots.").replace(".", "/") for module in builtin_bots().values()})


def token(colour: str, nth: int = 0) -> dict[str, str]:
    index = [i for i, c in enumerate(TOKEN_COLOURS) if c == colour][nth]
    return {"id": f"t{index}", "colour": colour}


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 4), ({"rules": "advanced-a"}, 3), ({"split": "strategic"}, 5), ({"rules": "advanced-b"}, 6)],
)
def test_the_drachengold_starters_play_whole_games_without_a_fault(options, players):
    lineup = ["bargainer", "trader", "greedy", "random", "trader", "bargainer"][:players]
    for seed in range(4):
        played = play_builtin("drachengold", lineup, seed=seed, options=options)
        assert played.faults == [], played.faults[:3]
        assert played.state.pending() is None and len(played.results) == players


@pytest.mark.parametrize("module", STARTERS)
def test_each_starter_is_one_copyable_file_that_runs_as_a_process(module):
    source = (BOTS / f"{module}.py").read_text()
    tree = ast.parse(source)
    imports = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imports |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    # what the staged SDK holds: bots.sdk, bots.forward, and the games' pure rules (ladder.games, #14)
    ours = {name for name in imports if name.split(".")[0] in ("bots", "ladder", "workers")}
    assert "bots.sdk" in ours
    assert {name for name in ours if not name.startswith("ladder.games.")} <= {"bots.sdk", "bots.forward"}
    assert 'if __name__ == "__main__":\n    run(' in source


def negotiation(round_: int, standing=()):
    tokens = [token("gold", i) for i in range(4)] + [token("silver", i) for i in range(4)]
    return {"negotiation": {"dragon": "D1", "involved": [0, 1], "order": [0, 1], "tokens": tokens, "rounds": 8,
                            "round": round_, "step": "propose", "standing": list(standing), "last_votes": {},
                            "attack": {"0": 4, "1": 4}}}


def bargainer() -> BargainerBot:
    bot = BargainerBot()
    bot.setup({"game": "drachengold", "seat": 0, "players": 3, "options": {}, "bot_seed": 1})
    return bot


def claimed(decision) -> float:
    worth = {token("gold", i)["id"]: 3 for i in range(4)} | {token("silver", i)["id"]: 1 for i in range(4)}
    return sum(worth[t] for t in decision["shares"]["0"])


def test_the_bargainer_opens_high_and_settles_near_fair():
    fair = 8  # half of 4 gold and 4 silver: equal attack
    opening = claimed(bargainer().propose(negotiation(1)))
    closing = claimed(bargainer().propose(negotiation(8)))
    assert opening >= fair + 2 and abs(closing - fair) <= 3 and closing < opening


def test_the_bargainer_accepts_only_generous_offers_until_late():
    gold, silver = [token("gold", i)["id"] for i in range(4)], [token("silver", i)["id"] for i in range(4)]
    fair = {"id": "p1", "proposer": 1, "round": 1, "shares": {"0": gold[:2] + silver[:2], "1": gold[2:] + silver[2:]}}
    rich = {"id": "p2", "proposer": 1, "round": 1, "shares": {"0": gold[:3] + silver[:3], "1": gold[3:] + silver[3:]}}
    poor = {"id": "p3", "proposer": 1, "round": 1, "shares": {"0": silver, "1": gold}}
    early = bargainer().vote({**negotiation(1, [fair, rich, poor]), "request": {"proposals": ["p1", "p2", "p3"]}})
    late = bargainer().vote({**negotiation(8, [fair, rich, poor]), "request": {"proposals": ["p1", "p2", "p3"]}})
    assert early == {"accept": ["p2"]} and late == {"accept": ["p1", "p2"]}


def trader(ledger_events=()) -> TraderBot:
    bot = TraderBot()
    bot.setup({"game": "drachengold", "seat": 0, "players": 3, "options": {}, "bot_seed": 1})
    for event in ledger_events:
        bot.on_event(event)
    return bot


def test_the_trader_offers_spare_tokens_for_a_contested_majority():
    # Seat 1 publicly took two blue: the trader's two blue only tie, a third would lead. Seat 2
    # holds three of every other gem: out of reach.
    rival = {"type": "treasure_taken", "data": {"dragon": "D1", "seat": 1, "tokens": [token("blue", 5),
                                                                                     token("blue", 6)]}}
    others = [token(c, i) for c in ("green", "purple", "yellow", "white") for i in range(3)]
    far = {"type": "split", "data": {"dragon": "D2", "shares": {"2": others}}}
    hoard = [token("blue", 0), token("blue", 1), token("gold", 0)]
    obs = {"players": 3, "hoard": hoard, "hoard_sizes": [3, 2, 12], "request": {"max_offers": 3}}
    offers = trader([rival, far]).market_offer(obs)["offers"]
    assert {"to": 1, "give": [token("gold", 0)["id"]], "want": {"blue": 1}} in offers
    assert all(token("blue", 0)["id"] not in o["give"] for o in offers)  # never gives what it collects


def test_the_trader_accepts_offers_that_raise_its_estimate_only():
    hoard = [token("silver", 0), token("white", 0)]
    good = {"id": "o1.1.0", "from": 1, "to": 0, "give": [token("blue", 0)], "want": {"silver": 1}}
    bad = {"id": "o1.2.0", "from": 2, "to": 0, "give": [token("silver", 1)], "want": {"white": 1}}
    answer = trader().market_answer({"hoard": hoard, "request": {"offers": [good, bad]}})
    assert answer == {"accept": [{"offer": "o1.1.0", "pay": [token("silver", 0)["id"]]}]}


def test_the_trader_trades_in_real_games():
    trades = 0
    for seed in range(6):
        played = play_builtin("drachengold", ["trader", "greedy", "greedy", "random"], seed=seed)
        log = played.replay.to_json()["log"]
        trades += sum(1 for e in log if e.get("type") == "trade" and 0 in (e["data"]["from"], e["data"]["to"]))
    assert trades >= 3


def test_every_builtin_loads():
    for game, name in builtin_bots():
        assert hasattr(load_builtin(game, name), "decide")
