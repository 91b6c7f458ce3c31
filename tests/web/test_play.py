"""'Play it yourself' (ladder/web/play.py over ladder/services/person_seat.py): starting a table, the
limits per user and per address, nobody else reaching a person's seat, refusals of bad forms, and
a whole Treasure game played through the pages while a worker thread plays the match for real over
the database relay (only the sandbox is left out: tests/web/play_support.py)."""

from __future__ import annotations

import json
import time

import pytest
from sqlmodel import select
from web.helpers import Site
from web.play_support import play_in_background

from ladder.db import session_factory
from ladder.games import get_game
from ladder.models import Bot, Match, PersonSeat, Seat, User
from ladder.relay.backends import relay_for, topics


def _bot_ids(engine, game: str, names: list[str]) -> list[int]:
    with session_factory(engine)() as session:
        rows = dict(session.exec(select(Bot.name, Bot.id).join(User, User.id == Bot.owner_id)
                                 .where(Bot.game == game, User.username == "house")).all())
    return [rows[n] for n in names]


def _start(site, engine, game="treasure", seat=0, bots=("random", "careful")):
    opponents = [str(b) for b in _bot_ids(engine, game, list(bots))]
    return site.post(f"/play/{game}", {"seat": str(seat), "opponent": opponents}, page=f"/play/{game}")


def _match_of(response) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def test_the_start_page_needs_a_log_in_and_each_game_page_links_to_it(site) -> None:
    assert site.client.get("/play/treasure").status_code == 302
    site.signup("pia")
    for game in ("treasure", "drachengold", "dragonflame"):
        assert "/play/" + game in site.text(f"/leaderboard/{game}")
        page = site.text(f"/play/{game}")
        assert "house/random" in page and "Your seat" in page
    assert site.client.get("/play/chess").status_code == 404


def test_starting_a_table_queues_an_unrated_match_with_the_person_at_their_seat(site, engine, dispatched) -> None:
    site.signup("pia")
    match_id = _match_of(_start(site, engine, seat=1))
    assert dispatched == [match_id]
    with session_factory(engine)() as session:
        match = session.get(Match, match_id)
        assert match.ranked is False and match.kind == "challenge" and match.status == "queued"
        person = session.get(PersonSeat, match_id)
        assert person.seat == 1 and person.clock_s == 120
        seats = session.exec(select(Seat.seat, Bot.name).join(Bot, Bot.id == Seat.bot_id)
                             .where(Seat.match_id == match_id).order_by(Seat.seat)).all()
        assert [name for _, name in seats] == ["random", "person", "careful"]
    assert "you are seat 1" in site.text(f"/play/match/{match_id}")


@pytest.mark.parametrize(("form", "message"), [
    ({"seat": "5"}, "seat 5 is not at a table of 3"),
    ({"opponent": []}, "choose 1 to 5 bots"),
    ({"seat": "x"}, "choose a seat and bots"),
    ({"opponent": ["999999"]}, "is not an active"),
])
def test_a_bad_table_is_refused_with_the_reason_and_nothing_queued(site, engine, form, message) -> None:
    site.signup("pia")
    data = {"seat": "0", "opponent": [str(b) for b in _bot_ids(engine, "treasure", ["random", "careful"])]} | form
    response = site.post("/play/treasure", data, page="/play/treasure", follow_redirects=True)
    assert message in response.get_data(as_text=True)
    with session_factory(engine)() as session:
        assert session.exec(select(PersonSeat)).all() == []


def test_a_bot_of_another_game_cannot_sit_at_the_table(site, engine) -> None:
    site.signup("pia")
    other = _bot_ids(engine, "drachengold", ["greedy"])
    response = site.post("/play/treasure", {"seat": "0", "opponent": [str(other[0])]}, page="/play/treasure",
                         follow_redirects=True)
    assert "is not an active Treasure of the Dragons bot" in response.get_data(as_text=True)


def test_one_unfinished_table_per_user_and_a_few_per_address(app, site, engine) -> None:
    site.signup("pia")
    _match_of(_start(site, engine))
    again = _start(site, engine)
    assert again.status_code == 302 and "/play/treasure" in again.headers["Location"]
    assert "already at 1 unfinished table" in site.text("/play/treasure")
    # the same address: three users may play, the fourth is refused
    for name in ("quin", "ruth"):
        other = Site(app.test_client())
        other.signup(name)
        _match_of(_start(other, engine))
    other = Site(app.test_client())
    other.signup("sven")
    _start(other, engine)
    assert "already playing from your address" in other.text("/play/treasure")


def test_nobody_else_reaches_a_persons_seat(site, other_site, engine) -> None:
    site.signup("pia")
    match_id = _match_of(_start(site, engine))
    other_site.signup("mallory")
    for url in (f"/play/match/{match_id}", f"/play/match/{match_id}/updates"):
        assert other_site.client.get(url).status_code == 404
        assert site.client.get(url).status_code == 200
    forged = other_site.post(f"/play/match/{match_id}/answer", {"request": "1", "square": "0,0"}, page="/play/treasure")
    assert forged.status_code == 404
    other_site.logout()
    assert other_site.client.get(f"/play/match/{match_id}").status_code == 302  # to the log-in


def test_a_whole_treasure_game_through_the_pages(app, site, engine, settings) -> None:
    site.signup("pia")
    match_id = _match_of(_start(site, engine, seat=0, bots=("random", "careful")))
    thread, outcome = play_in_background(match_id, sessions=session_factory(engine), settings=settings)
    relay = relay_for(settings, engine)
    forms = get_game("treasure").part("forms")
    after, answered, refused_once, kinds = "0", 0, False, set()
    deadline = time.monotonic() + 120
    ended = False
    while not ended and time.monotonic() < deadline:
        body = site.client.get(f"/play/match/{match_id}/updates?after={after}").get_json()
        for item in body["items"]:
            if item["type"] == "end":
                ended = True
            if item["type"] != "request":
                continue
            # the form, the observation dump folded away, and the cave as the viewer draws it
            assert 'name="square"' in item["html"] and '<details class="play-sight">' in item["html"]
            assert len(item["frame"]["board"]["cells"]) == 7 and item["picks"]["targets"][0]["field"] == "square"
            # the observation the worker sent, read as the page's form would be filled in
            request = next(m.data for m in relay.read(topics.seat_down(match_id, 0), after, limit=500)
                           if m.data.get("type") == "request" and m.data["id"] == item["id"])
            kinds.add(request["kind"])
            token_page = f"/play/match/{match_id}"
            if not refused_once:  # a forged square first: refused with the form's message, nothing sent
                bad = site.post(f"/play/match/{match_id}/answer", {"request": str(item["id"]), "after": after,
                                                                   "square": "9,9"}, page=token_page)
                assert bad.status_code == 400 and "not one of the choices" in bad.get_json()["error"]
                refused_once = True
            choice = request["observation"]["request"]["squares"][0]
            values = forms.fill(request["observation"], {"square": choice})
            ok = site.post(f"/play/match/{match_id}/answer", {"request": str(item["id"]), "after": after, **values},
                           page=token_page)
            assert ok.status_code == 200, ok.get_data(as_text=True)
            answered += 1
            stale = site.post(f"/play/match/{match_id}/answer", {"request": str(item["id"] - 1), "after": "0",
                                                                 **values}, page=token_page)
            assert stale.status_code == 400 and "no longer asked" in stale.get_json()["error"]
        after = body["after"]
        time.sleep(0.05)
    thread.join(60)
    assert ended and outcome and outcome[0].status == "finished", outcome
    assert answered > 0 and "flip" in kinds
    with session_factory(engine)() as session:
        seat = session.get(Seat, (match_id, 0))
        assert seat.status == "ok" and not seat.forfeited
        assert session.get(Match, match_id).status == "finished"
    assert "pia (in person)" in site.text(f"/matches/{match_id}")  # named for the person, as the viewer does
    replay = json.loads(site.client.get(f"/matches/{match_id}/replay.json").get_data())
    assert replay["seats"][0]["bot"] == "pia (in person)"  # the replay names the person


def test_a_bad_relay_id_is_refused_and_long_polls_are_capped_per_process(site, engine, app) -> None:
    site.signup("pia")
    match_id = _match_of(_start(site, engine))
    assert site.client.get(f"/play/match/{match_id}/updates?after=not-an-id").status_code == 400
    places = app.extensions["ladder_long_lived"]  # the process's one budget of held requests
    taken = [places.try_take() for _ in range(places.limit)]
    try:
        assert all(taken)
        answer = site.client.get(f"/play/match/{match_id}/updates?after=0&wait=1")
        assert answer.status_code == 429 and answer.get_json()["retry_ms"] > 0
        assert int(answer.headers["Retry-After"]) > 0
        body = site.client.get(f"/play/match/{match_id}/updates?after=0").get_json()  # no wait: answered
        assert body["waited"] is False and body["items"] == [] and body["status"] == "queued"
    finally:
        for _ in taken:
            places.give_back()
    assert places.held == 0


def test_an_answer_with_no_request_waiting_is_refused(site, engine) -> None:
    site.signup("pia")
    match_id = _match_of(_start(site, engine))
    page = f"/play/match/{match_id}"
    for data, message in (({"request": "1", "square": "0,0"}, "no longer asked"),
                          ({"request": "x"}, "which decision"),
                          ({"request": "1", "after": "bogus"}, "")):
        response = site.post(f"/play/match/{match_id}/answer", data, page=page)
        assert response.status_code == 400 and message in response.get_json()["error"]


def test_the_log_names_the_seats_and_follows_the_persons_market_offers() -> None:
    """Events as the page gets them: names, not "you sends" or "seat 2"; the person's offer, its trade and
    the end of the market round are marked, so the page can say which offers were refused."""
    from ladder.web.play import _drawn

    names = ["ada", "greedy", "bargainer"]

    def drawn(event: dict) -> dict:
        return _drawn("drachengold", 1, 0, {"type": "event", "event": event}, "0", names)

    offer = drawn({"type": "offer", "data": {"id": "o1.0.0", "from": 0, "to": 2, "give": [], "want": {"red": 1}}})
    assert offer == {"type": "event", "offer": "o1.0.0",
                     "text": "ada offers bargainer nothing for 1 red (offer o1.0.0)"}
    assert drawn({"type": "trade_skipped", "data": {"offer": "o1.0.0", "from": 0, "to": 2}})["settled"] == "o1.0.0"
    assert drawn({"type": "market_close", "data": {}})["market_round_over"] is True
    shared = drawn({"type": "split", "data": {"dragon": "D9", "shares": {"0": [], "2": []}}})
    assert shared["text"] == "D9 is shared: ada gets nothing; bargainer gets nothing"  # seats as JSON keys too
    hello = _drawn("drachengold", 1, 0, {"type": "hello", "players": 3}, "0", names)
    assert hello["text"] == "The game starts: you are ada (seat 0) against greedy, bargainer."


def test_without_javascript_the_table_shows_the_plain_form_which_posts_and_comes_back(app, site, engine,
                                                                                      settings) -> None:
    """A browser without JavaScript: the table page itself carries the log and the decision asked
    (in <noscript>), the form posts to `answer`, which reads it with the same validation and sends the
    person back to the table with what happened."""
    site.signup("nia")
    match_id = _match_of(_start(site, engine, seat=0, bots=("random", "careful")))
    observation = get_game("treasure").new_state({}, 3, 3).observation(0)
    relay = relay_for(settings, engine)
    relay.publish_many(topics.seat_down(match_id, 0), [
        {"type": "hello", "game": "treasure", "seat": 0, "players": 3, "options": {}, "clock_s": 120},
        {"type": "request", "id": 1, "kind": "flip", "observation": observation, "deadline": time.time() + 120}])
    page = site.text(f"/play/match/{match_id}")
    assert "<noscript>" in page and f'action="/play/match/{match_id}/answer"' in page
    assert "The game starts: you are nia (seat 0) against random, careful." in page
    html = {"Accept": "text/html"}
    after = relay.read(topics.seat_down(match_id, 0))[0].id
    table = f"/play/match/{match_id}"
    refused = site.post(f"{table}/answer", {"request": "1", "after": after, "square": "9,9"}, page=table,
                        headers=html)
    assert refused.status_code == 302 and refused.headers["Location"].endswith(table)
    assert "Not sent: The tile to flip: &#39;9,9&#39; is not one of the choices" in site.text(table)
    sent = site.post(f"{table}/answer", {"request": "1", "after": after, "square": "0,0"}, page=table, headers=html)
    assert sent.status_code == 302
    answers = [m.data for m in relay.read(topics.seat_up(match_id, 0)) if m.data.get("type") == "answer"]
    assert answers == [{"type": "answer", "id": 1, "decision": {"square": [0, 0]}}]
