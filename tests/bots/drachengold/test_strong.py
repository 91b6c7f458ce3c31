"""The strongest house bot: tokens valued by their marginal effect on its own final score (sets,
majorities, the curse), an acceptance model learned from votes, and legal games."""

import pytest

from bots.drachengold.strong import SUPPLY, VALUE, StrongBot
from ladder.games.drachengold.rules.data import TOKEN_COLOURS
from ladder.play import play_builtin


def token(colour: str, nth: int = 0) -> dict[str, str]:
    index = [i for i, c in enumerate(TOKEN_COLOURS) if c == colour][nth]
    return {"id": f"t{index}", "colour": colour}


def strong(rules: str = "basic", seat: int = 0) -> StrongBot:
    bot = StrongBot()
    bot.setup({"game": "drachengold", "seat": seat, "players": 4, "options": {"rules": rules}, "bot_seed": 1})
    return bot


def obs(*colours: str, bag: int = 40) -> dict:
    seen: dict[str, int] = {}
    hoard = []
    for c in colours:
        hoard.append(token(c, seen.get(c, 0)))
        seen[c] = seen.get(c, 0) + 1
    return {"hoard": hoard, "bag": bag}


def test_a_gem_that_wins_a_contested_majority_is_worth_more_than_one_far_behind():
    bot = strong()
    bot.ledger[1]["blue"] = 3  # seat 1 leads blue with 3
    bot.ledger[2]["green"] = 8  # seat 2 has green all but won
    position = obs("blue", "blue", "blue", "green")
    assert bot.token_worth(position, "blue") > bot.token_worth(position, "green")
    assert bot.token_worth(position, "blue") > 1.5 * bot.token_worth(position, "silver")  # a silver is just 1
    assert bot.token_worth(position, "silver") == pytest.approx(1.0)
    assert bot.token_worth(position, "gold") == pytest.approx(3.0)


def test_advanced_a_the_gem_that_completes_a_set_is_worth_more_than_a_doubled_one():
    bot = strong("advanced-a")
    position = obs("green", "blue", "purple", "yellow")
    assert bot.token_worth(position, "white") > bot.token_worth(position, "green") + 1.5


def test_the_curse_makes_the_diamond_worth_less_to_a_rich_gem_hoard_than_to_an_empty_one():
    bot = strong("advanced-a")
    rich = obs(*["green"] * 4, *["blue"] * 4, "purple", "yellow", "white")
    empty = obs()
    assert bot.token_worth(rich, "black") < bot.token_worth(empty, "black") - 10
    # And a cursed hoard scores no majority and no set: a gem adds nothing but its (zero) face.
    cursed = obs("black", "green", "blue")
    assert bot.token_worth(cursed, "white") == pytest.approx(0.0)
    # Without the curse (basic), the diamond is its face worth 7 whatever the hoard.
    assert strong("basic").token_worth(rich, "black") == pytest.approx(7.0)


def negotiation(round_: int, tokens: list[dict], standing=()) -> dict:
    return {"hoard": [], "bag": 40,
            "negotiation": {"dragon": "D1", "involved": [0, 1], "order": [0, 1], "tokens": tokens, "rounds": 8,
                            "round": round_, "step": "propose", "standing": list(standing), "last_votes": {},
                            "attack": {"0": 4, "1": 4}}}


def test_it_pays_with_the_tokens_it_values_least_and_keeps_the_gems_it_needs():
    bot = strong()
    # Late in the game (5 tokens left in the bag) seat 0 holds 2 blues, seat 1 3: these two win it.
    bot.ledger[1]["blue"] = 3
    tokens = [token("gold", 0), token("gold", 1), token("blue", 0), token("blue", 1), token("silver", 0)]
    position = {**negotiation(1, tokens), "hoard": [token("blue", 2), token("blue", 3)], "bag": 5}
    shares = bot.propose(position)["shares"]
    assert {token("blue", 0)["id"], token("blue", 1)["id"]} <= set(shares["0"])  # the blues win it a majority
    assert token("gold", 0)["id"] in shares["1"]  # the partner is paid in gold, worth as much to anyone


def test_it_learns_the_least_share_an_opponent_accepts_and_offers_that():
    tokens = [token("silver", i) for i in range(20)]  # worth 20: each side's fair part is 10
    bot = strong()
    before = len(bot.propose(negotiation(1, tokens))["shares"]["1"])
    # Seat 1 is seen accepting a split that gave it 4 of 20 in round 5 (stage 4/7).
    bot.on_event({"type": "attack", "data": {"seat": 0, "adventurer": "k4", "dragon": "D1", "bonus": 0}})
    bot.on_event({"type": "attack", "data": {"seat": 1, "adventurer": "k4", "dragon": "D1", "bonus": 0}})
    bot.on_event({"type": "negotiation", "data": {"dragon": "D1", "involved": [0, 1], "order": [0, 1],
                                                  "tokens": tokens, "rounds": 8}})
    bot.on_event({"type": "proposals", "data": {"dragon": "D1", "round": 5, "proposals": [
        {"id": "p9", "proposer": 0, "round": 5,
         "shares": {"0": [t["id"] for t in tokens[4:]], "1": [t["id"] for t in tokens[:4]]}}]}})
    bot.on_event({"type": "votes", "data": {"dragon": "D1", "round": 5, "votes": {"0": ["p9"], "1": ["p9"]}}})
    assert bot.threshold(1, 4 / 7) == pytest.approx(0.4)
    assert bot.threshold(1, 3 / 7) > 0.4  # earlier than that, nothing is known yet
    after = len(bot.propose(negotiation(1, tokens))["shares"]["1"])
    assert after < before and after >= 4


def test_it_refuses_a_poor_split_early_and_takes_a_fair_one():
    tokens = [token("silver", i) for i in range(10)]
    poor = {"id": "p2", "proposer": 1, "round": 1,
            "shares": {"0": [t["id"] for t in tokens[:3]], "1": [t["id"] for t in tokens[3:]]}}
    fair = {"id": "p3", "proposer": 1, "round": 1,
            "shares": {"0": [t["id"] for t in tokens[:7]], "1": [t["id"] for t in tokens[7:]]}}
    assert strong().vote(negotiation(1, tokens, [poor, fair])) == {"accept": ["p3"]}


@pytest.mark.parametrize(("options", "players"),
                         [({}, 4), ({"rules": "advanced-a"}, 3), ({"rules": "advanced-b", "split": "strategic"}, 5),
                          ({"rules": "advanced-a"}, 6)])
def test_it_plays_whole_legal_games_against_the_other_house_bots(options, players):
    lineup = ["strong", "bargainer", "greedy", "trader", "conceder", "random"][:players]
    for seed in range(3):
        played = play_builtin("drachengold", lineup, seed=seed, options=options)
        assert played.faults == [], played.faults[:3]
        assert played.state.pending() is None and len(played.results) == players


def test_its_ledger_follows_the_strategic_choices():
    bot = strong()
    tokens = [token("blue", 0), token("blue", 1), token("gold", 0)]
    bot.on_event({"type": "divide", "data": {"dragon": "D1", "divider": 2, "order": [1], "tokens": tokens}})
    bot.on_event({"type": "division", "data": {"dragon": "D1", "divider": 2,
                                               "shares": [[tokens[0]["id"], tokens[1]["id"]], [tokens[2]["id"]]]}})
    bot.on_event({"type": "chosen", "data": {"dragon": "D1", "seat": 1, "share": 0}})
    assert bot.ledger[1]["blue"] == 2 and bot.ledger[1]["gold"] == 0


def market(bot: StrongBot, *colours: str, bag: int = 8) -> dict:
    return {**obs(*colours, bag=bag), "players": 4, "hoard_sizes": [len(colours), 9, 4, 0],
            "request": {"kind": "market_offer", "max_offers": 3}}


def test_at_the_market_it_offers_spare_gold_for_the_gem_that_wins_a_majority_to_whoever_holds_it():
    bot = strong()
    bot.seen = dict(SUPPLY)  # late: every token is out of the bag, so the majorities are nearly settled
    bot.ledger[1]["blue"], bot.ledger[2]["blue"] = 3, 1  # seat 1 leads blue by one; seat 3 has nothing
    offers = bot.market_offer(market(bot, "blue", "blue", "gold", "gold", "silver"))["offers"]
    blue = [o for o in offers if o["want"] == {"blue": 1}]
    assert blue and blue[0]["to"] == 1  # the likeliest holder, and taking its blue swings the majority
    hoard = {t["id"]: t["colour"] for t in market(bot, "blue", "blue", "gold", "gold", "silver")["hoard"]}
    given = [t for o in offers for t in o["give"]]
    assert len(given) == len(set(given)) <= len(hoard)  # no token is offered twice
    for o in offers:
        assert all(hoard[t] != "blue" for t in o["give"])  # it keeps the gems it needs
        colour = next(iter(o["want"]))
        # A partner who counts face worth gains too, or no deal would be made.
        assert sum(VALUE[hoard[t]] for t in o["give"]) > VALUE[colour]
        assert o["to"] != 3  # seat 3 holds nothing


def test_it_offers_nothing_that_would_not_raise_its_own_expected_score():
    bot = strong()
    bot.seen = dict(SUPPLY)
    assert bot.market_offer(market(bot))["offers"] == []  # nothing to give
    assert bot.market_offer(market(bot, "silver", "silver"))["offers"] == []  # one silver is not worth a gem
    bot.ledger[1]["green"] = 12  # every green is out: a green cannot win the majority
    offers = bot.market_offer(market(bot, "gold", "gold", "green"))["offers"]
    assert all(o["want"] != {"green": 1} for o in offers)


def test_its_offers_are_traded_in_real_games():
    trades = 0
    for seed in range(4):
        played = play_builtin("drachengold", ["strong", "greedy", "bargainer", "conceder"], seed=seed)
        assert played.faults == []
        trades += sum(1 for e in played.state.events if e.type == "trade_done" and e.data["from"] == 0)
    assert trades > 0


def test_it_never_pays_for_one_offer_with_a_token_another_offer_would_bring():
    # Seen in a strict-sandbox tournament: it accepted a blue for its gold, then paid for a second
    # offer with that blue, which is not its own until the trades are made (an illegal answer).
    bot = strong()
    bot.seen = dict(SUPPLY)
    bot.ledger[1]["blue"] = 3
    hoard = [token("blue", 1), token("blue", 2), token("gold", 0)]
    offers = [{"id": "o1.1.0", "from": 1, "to": 0, "give": [token("blue", 0)], "want": {"gold": 1}},
              {"id": "o1.2.0", "from": 2, "to": 0, "give": [token("gold", 1), token("gold", 2)],
               "want": {"blue": 1}}]
    answer = bot.market_answer({"hoard": hoard, "bag": 8, "request": {"kind": "market_answer", "offers": offers}})
    assert [a["offer"] for a in answer["accept"]] == ["o1.1.0", "o1.2.0"]  # both pay off
    paid = [t for a in answer["accept"] for t in a["pay"]]
    assert len(paid) == len(set(paid)) and set(paid) <= {t["id"] for t in hoard}  # blue 0 is not its own yet


def test_its_ledger_follows_the_thefts_and_trades_it_takes_part_in_and_the_hoard_a_wizard_shows():
    bot = strong()
    bot.ledger[1]["blue"] = 2
    bot.on_event({"type": "stolen", "data": {"seat": 0, "victim": 1, "token": "t5", "colour": "blue"}})
    assert bot.ledger[1]["blue"] == 1
    bot.on_event({"type": "stolen", "data": {"seat": 2, "victim": 0, "token": "t6", "colour": "white"}})
    assert bot.ledger[2]["white"] == 1
    bot.on_event({"type": "trade_done", "data": {"offer": "o1.0.0", "from": 0, "to": 3,
                                                 "give": [token("gold", 0)], "pay": [token("green", 0)]}})
    assert bot.ledger[3]["gold"] == 1 and bot.ledger[3]["green"] == 0
    # Its own thief and wizard see the victim's whole hoard: the ledger becomes exact.
    hoard = [token("purple", 0), token("purple", 1), token("silver", 0)]
    bot.theft_pick({"hoard": [], "bag": 40, "hoard_sizes": [0, 1, 0, 3],
                    "request": {"kind": "theft_pick", "victim": 3, "hoard": hoard}})
    assert bot.ledger[3]["purple"] == 2 and bot.ledger[3]["gold"] == 0


def test_in_the_last_round_it_refuses_a_split_that_hands_a_close_rival_more_than_it_takes():
    tokens = [token("silver", i) for i in range(10)]

    def last_round(offered: int, hoard: list) -> dict:
        split = {"id": "p1", "proposer": 1, "round": 8,
                 "shares": {"0": [t["id"] for t in tokens[:offered]], "1": [t["id"] for t in tokens[offered:]]}}
        position = negotiation(8, tokens, [split])
        position["negotiation"]["attack"] = {"0": 2, "1": 6}  # its fair part is a quarter
        return {**position, "hoard": hoard, "hoard_sizes": [len(hoard), 0, 0, 0]}

    # Level with seat 1: 3 of 10 is more than its fair part, but seat 1 would pull 4 ahead, and a
    # treasure lost leaves the two level: it refuses; an even split it takes.
    assert strong().vote(last_round(3, []))["accept"] == []
    assert strong().vote(last_round(5, []))["accept"] == ["p1"]
    # Far ahead of everyone (60 points to nothing), seat 1's gain hardly matters: it takes the 3.
    rich = [token("gold", i) for i in range(20)]
    assert strong().vote(last_round(3, rich))["accept"] == ["p1"]


def test_a_seat_far_ahead_counts_fully_against_its_own_gains():
    # Seen against a hard bargainer: strong, far behind, took a share of a shared treasure that
    # handed the leader most of it. A point the leader gains is a point further to climb, however far
    # ahead it is; a seat far behind still hardly counts.
    bot = strong()
    mine = [token("gold", i) for i in range(15)]  # 45 points
    bot.ledger[1]["gold"], bot.ledger[1]["silver"] = 20, 30  # seat 1: 90 points, 45 ahead
    position = {"hoard": mine, "bag": 40, "hoard_sizes": [15, 50, 0, 0]}  # seats 2 and 3: 45 behind
    weights = bot.weights(position)
    assert weights[1] == 1.0 and weights[2] < 0.1

    tokens = [token("silver", i) for i in range(10)]
    split = {"id": "p1", "proposer": 1, "round": 8,
             "shares": {"0": [t["id"] for t in tokens[:3]], "1": [t["id"] for t in tokens[3:]]}}
    last = negotiation(8, tokens, [split])
    last["negotiation"]["attack"] = {"0": 2, "1": 6}  # 3 of 10 is more than its fair part
    assert bot.vote({**last, **position})["accept"] == []  # the leader would pull 4 further ahead


def test_it_robs_the_seat_closest_to_it_in_score_rather_than_the_biggest_hoard():
    bot = strong()
    mine = [token("gold", i) for i in range(15)]  # 45 points
    bot.ledger[1]["gold"] = 15  # seat 1: 45 points, level with it
    bot.ledger[2]["silver"] = 18  # seat 2: 18 points, though its hoard is bigger
    request = {"kind": "theft_victim", "candidates": [1, 2], "hoard_sizes": {"1": 15, "2": 18}}
    position = {"hoard": mine, "bag": 40, "hoard_sizes": [15, 15, 18, 0], "request": request}
    assert bot.theft_victim(position) == {"victim": 1}


def test_it_refuses_a_trade_that_wins_it_a_gem_but_hands_a_close_rival_a_majority():
    # Seen against an outside bot: 3 greens for 1 purple, where the purple won the partner its
    # majority. Judged by its own hoard alone the trade looked good (the greens win green).
    bot = strong()
    bot.seen = dict(SUPPLY)  # late: the majorities are nearly settled
    bot.ledger[1]["purple"], bot.ledger[1]["gold"] = 3, 8  # seat 1 is level with it
    bot.ledger[3]["green"] = 4  # seat 3, who would lose green, is far behind
    hoard = [*(token("purple", i) for i in range(4)), token("green", 0), token("green", 1),
             *(token("gold", i) for i in range(8))]
    greens = [token("green", i) for i in range(2, 5)]
    offer = {"id": "o1.1.0", "from": 1, "to": 0, "give": greens, "want": {"purple": 1}}
    position = {"hoard": hoard, "bag": 8, "hoard_sizes": [14, 14, 0, 4],
                "request": {"kind": "market_answer", "offers": [offer]}}
    assert bot.market_answer(position) == {"accept": []}
    # The same greens from seat 2, who holds no purple to speak of, are a good trade.
    assert bot.market_answer({**position, "request": {"kind": "market_answer", "offers": [
        {**offer, "from": 2}]}})["accept"][0]["offer"] == "o1.1.0"
