"""/api/v1/events: the list and one event with entrants, standings (intervals) and progress;
bad input is a JSON 400 or 404, never a 500."""

from ladder.db import session_factory
from ladder.services import tournaments
from ladder.services.users import set_admin


def test_an_event_in_json_from_registration_to_standings(client, build, engine, play):
    organizer = build.user("org")
    fast, _ = build.bot("org", "fast")
    slow, _ = build.bot("org", "slow")
    invited, _ = build.bot("bob", "maybe")
    with session_factory(engine)() as session:
        set_admin(session=session, username="org")
        ev = tournaments.create_event(session=session, organizer_id=organizer.id, name="Cup", game="treasure",
                                      table_size=2, deals=1)
        for bot in (fast, slow, invited):
            tournaments.add_entrant(session=session, event_id=ev.id, bot_id=bot.id, acting_user_id=organizer.id)
        event_id = ev.id
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    assert body["event"]["status"] == "registration" and body["event"]["format"] == "round-robin"
    assert [e["bot_id"] for e in body["entrants"]] == [fast.id, slow.id]
    assert [i["bot_id"] for i in body["invitations"]] == [invited.id]
    assert body["progress"] == {"done": 0, "scheduled": 0}
    with session_factory(engine)() as session:
        assert tournaments.start_event(session=session, event_id=event_id, acting_user_id=organizer.id) == ["maybe"]
        ids = tournaments.feed_events(session=session, slots=10)
    assert len(ids) == 2
    play(ids[0])
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    assert body["event"]["status"] == "running" and body["progress"] == {"done": 1, "scheduled": 2}
    assert body["invitations"] == [] and all(e["version_id"] for e in body["entrants"])
    top = body["standings"][0]
    assert top["position"] == 1 and top["matches"] == 1 and top["rank"]["low"] <= top["rank"]["mean"] == 1.0
    assert {m["status"] for m in body["matches"]} == {"finished", "queued"}
    listed = client.get("/api/v1/events").get_json()["events"]
    assert [e["id"] for e in listed] == [event_id] and listed[0]["url"].endswith(f"/api/v1/events/{event_id}")


def test_bad_input_is_a_json_error(client):
    assert client.get("/api/v1/events/999").status_code == 404
    assert client.get("/api/v1/events/99999999999999999999").status_code == 404
    for bad in ("0", "201", "x"):
        response = client.get(f"/api/v1/events?limit={bad}")
        assert response.status_code == 400 and "limit" in response.get_json()["error"]
