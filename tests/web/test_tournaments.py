"""TournamentEvent pages: an admin creates and starts an event, owners enter, the page shows the results."""

from sqlmodel import select

from ladder.db import session_factory
from ladder.models import RatingChange, TournamentEvent
from ladder.services.tournaments import feed_events
from ladder.services.users import set_admin


def admin(site, build, engine, name="org"):
    build.user(name)
    with session_factory(engine)() as session:
        set_admin(session=session, username=name)
    site.login(name)


def new_event(site, **kw):
    data = {"name": "Cup", "game": "treasure", "table_size": "2", "deals": "2", "format": "round-robin",
            "rounds": "1", "duplicate": "y", **kw}
    return site.post("/events/new", data, page="/events/new")


def test_only_admins_create_events_and_bad_settings_write_nothing(site, build, engine):
    build.user("bob")
    site.login("bob")
    assert site.client.get("/events/new").status_code == 403
    site.logout()
    admin(site, build, engine)
    bad = new_event(site, options="nonsense=1")
    assert bad.status_code == 400 and "nonsense" in bad.get_data(as_text=True)
    assert new_event(site, deals="0").status_code == 400
    with session_factory(engine)() as session:
        assert session.exec(select(TournamentEvent)).all() == []
    assert site.client.get("/events/999").status_code == 404


def test_an_event_from_invitation_to_standings(site, other_site, build, engine, play):
    admin(site, build, engine)
    response = new_event(site, name="Autumn <cup>")
    assert response.status_code == 302
    page = response.headers["Location"]
    event_id = int(page.rstrip("/").rsplit("/", 1)[1])
    fast, _ = build.bot("alice", "fast")
    slow, _ = build.bot("bob", "slow")
    build.bot("carol", "late")
    for ref in ("alice/fast", "bob/slow", "carol/late"):
        site.post(f"/events/{event_id}/enter", {"bot": ref}, page=page)
    refused = site.post(f"/events/{event_id}/enter", {"bot": "nobody/none"}, page=page)
    assert refused.status_code == 302
    assert "Invited, not yet accepted" in site.text(page)
    other_site.login("alice")  # accepts on the event page
    assert other_site.text(page).count(">accept<") == 1  # her bot's invitation only
    assert other_site.post(f"/events/{event_id}/invitation/{slow.id}/accept", page=page).status_code == 403
    other_site.post(f"/events/{event_id}/invitation/{fast.id}/accept", page=page)
    assert other_site.post(f"/events/{event_id}/start", page=page).status_code == 403  # not the organizer
    other_site.logout()
    other_site.login("bob")  # accepts on his bot's page; carol never answers
    assert "Autumn &lt;cup&gt;" in other_site.text(f"/bots/{slow.id}")
    other_site.post(f"/events/{event_id}/invitation/{slow.id}/accept", page=f"/bots/{slow.id}")
    assert other_site.post(f"/events/{event_id}/invitation/{slow.id}/maybe", page=page).status_code == 404
    site.post(f"/events/{event_id}/start", page=page)
    with session_factory(engine)() as session:
        ids = feed_events(session=session, slots=10)
    assert len(ids) == 4
    for match_id in ids:
        play(match_id)
    with session_factory(engine)() as session:
        assert feed_events(session=session, slots=10) == []
        assert session.get(TournamentEvent, event_id).status == "finished"
        assert session.exec(select(RatingChange)).all() == []
    html = site.text(page)
    assert "Autumn &lt;cup&gt;" in html and "<strong>finished</strong>" in html
    assert "alice/fast v1" in html and "bob/slow v1" in html and "Crosstable" in html
    assert "carol/late" not in html  # never accepted: no entrant
    assert "4 of 4 matches" in html and "95% interval" in html and "Per deal" in html
    deal_rows = html.split("<h2>Per deal</h2>")[1].split("</table>")[0].count("<tr><td>")
    assert deal_rows == 2
    for match_id in ids:
        assert f'href="/matches/{match_id}"' in html
    assert "Autumn &lt;cup&gt;" in site.text("/events/")


def test_open_registration_lets_owners_enter_their_own_bots_only(site, other_site, build, engine):
    admin(site, build, engine)
    page = new_event(site, open_registration="y", deadline="2099-01-01T00:00").headers["Location"]
    event_id = int(page.rstrip("/").rsplit("/", 1)[1])
    build.bot("alice", "mine")
    build.bot("bob", "theirs")
    other_site.login("alice")
    assert other_site.post(f"/events/{event_id}/enter", {"bot": "bob/theirs"}, page=page).status_code == 403
    other_site.post(f"/events/{event_id}/enter", {"bot": "alice/mine"}, page=page)
    html = other_site.text(page)
    assert "alice/mine" in html and "bob/theirs" not in html
    assert html.count(">withdraw<") == 1  # her own bot only


def test_the_organizer_cancels_and_nothing_more_is_queued(site, other_site, build, engine):
    admin(site, build, engine)
    page = new_event(site).headers["Location"]
    event_id = int(page.rstrip("/").rsplit("/", 1)[1])
    build.bot("org", "one")
    build.bot("org", "two")
    for ref in ("org/one", "org/two"):  # the organizer's own bots need no acceptance
        site.post(f"/events/{event_id}/enter", {"bot": ref}, page=page)
    site.post(f"/events/{event_id}/start", page=page)
    with session_factory(engine)() as session:
        assert len(feed_events(session=session, slots=2)) == 2
    build.user("mallory")
    other_site.login("mallory")
    assert other_site.post(f"/events/{event_id}/cancel", page=page).status_code == 403
    assert site.post(f"/events/{event_id}/cancel", page=page).status_code == 302
    assert "2 queued or running match(es) stopped" in site.text(page)
    with session_factory(engine)() as session:
        assert session.get(TournamentEvent, event_id).status == "cancelled"
        assert feed_events(session=session, slots=10) == []
        assert session.exec(select(RatingChange)).all() == []
    site.post(f"/events/{event_id}/cancel", page=page)  # twice: refused with the reason, nothing changes
    assert f"event {event_id} is cancelled" in site.text(page)
