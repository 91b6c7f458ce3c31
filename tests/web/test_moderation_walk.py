"""Issue #42's operator's walk, end to end, from the site and the CLI, without SQL: a hostile
name hidden everywhere it was shown, a ban that holds against a second sign-up from the same
address, sock puppets flagged by the collusion report, their matches voided and the ratings
rewritten so that `ladder ratings recompute` exits 0; every action in the audit log."""

from __future__ import annotations

from click.testing import CliRunner
from sqlmodel import select
from web.helpers import PASSWORD

from ladder.cli import main
from ladder.cli.bench.collusion import FEEDER, TAKER, seat_bots
from ladder.db import session_factory
from ladder.models import Bot, BotVersion, User
from ladder.play import play_game
from ladder.services import matches, results
from ladder.services.tokens import create as create_token
from ladder.services.users import set_admin

RUDE = "AdminsAreIdiots"  # passes the deny list: a moderator's call


def _record(sessions, versions, names, seed):
    """A rated Drachengold match between `versions`, played in-process by `names` (sock puppets
    or house bots) and recorded as a worker records one (its replay included)."""
    with sessions() as session:
        match = matches.queue_match(session=session, game="drachengold", seats=list(versions), seed=seed)
        matches.claim_match(session=session, match_id=match.id, worker_id="w1")
        played = play_game("drachengold", seat_bots(names), seed=match.seed, options=match.options, names=names)
        results.record_result(session=session, match_id=match.id, worker_id="w1",
                              outcome=results.outcome_from_replay(played.replay))
        return match.id


def _starters(sessions, names):
    with sessions() as session:
        rows = session.exec(select(Bot.name, BotVersion.id).join(BotVersion, BotVersion.bot_id == Bot.id).where(
            Bot.game == "drachengold", Bot.builtin.in_(names), BotVersion.status == "active")).all()
    return dict(rows)


def test_the_operators_walk(site, other_site, build, engine, db_url, play, tmp_path, app):
    sessions = session_factory(engine)
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}

    def cli(*args):
        return CliRunner().invoke(main, list(args), env=env)

    visitor = app.test_client()
    # the hostile account signs up on the site (its address is kept, as a keyed hash) and plays
    other_site.signup("mallory")
    rude, rude_version = build.bot("mallory", RUDE)
    rude_match = build.match([rude_version.id, *build.starters()[:1]])
    play(rude_match)
    assert RUDE in visitor.get(f"/matches/{rude_match}/frames.json").get_data(as_text=True)
    # two sock puppets of two accounts, at tables with house bots, and apart
    _, feeder = build.bot("puppet1", "feeder", game="drachengold")
    _, taker = build.bot("puppet2", "taker", game="drachengold")
    house = _starters(sessions, ["greedy", "bargainer", "trader", "hardhead"])
    for i in range(8):
        honest = ["greedy", "bargainer", "trader", "hardhead"][i % 4], ["greedy", "bargainer", "trader", "hardhead"][
            (i + 1) % 4]
        _record(sessions, [feeder.id, taker.id, house[honest[0]], house[honest[1]]], [FEEDER, TAKER, *honest], i)
    for i in range(4):
        apart = [feeder.id, house["greedy"], house["trader"], house["hardhead"]]
        _record(sessions, apart, [FEEDER, "greedy", "trader", "hardhead"], 100 + i)
    build.user("org")
    with sessions() as session:
        set_admin(session=session, username="org")
    site.login("org")

    # the collusion report, on the site and the CLI, flags the puppets
    report = site.text("/admin/collusion?game=drachengold")
    flagged = report.split('class="flagged"')
    assert len(flagged) == 2 and "puppet1/feeder" in flagged[1].split("</tr>")[0], report[-3000:]
    assert cli("admin", "collusion").exit_code == 1
    with sessions() as session:
        token = create_token(session=session, user_id=build.user("org").id, name="t", scopes=["read"])[1]
    answer = visitor.get("/api/v1/admin/collusion?game=drachengold", headers={"Authorization": f"Bearer {token}"})
    top = answer.get_json()["pairs_ranked"][0]
    assert top["flagged"] and {top["a"]["name"], top["b"]["name"]} == {"feeder", "taker"}
    assert top["shared_matches"] == 8 and top["matches"][0].startswith("http")

    # their matches voided from the site, the ratings rewritten: recompute exits 0
    puppet1 = build.user("puppet1")
    voided = site.post(f"/admin/users/{puppet1.id}/void", {"reason": "sock puppets: collusion report"}, page="/",
                       follow_redirects=True)
    assert "12 matches voided" in voided.get_data(as_text=True)
    checked = cli("ratings", "recompute")
    assert checked.exit_code == 0, checked.output
    assert "flagged" not in site.text("/admin/collusion?game=drachengold").split("<tbody>")[1].split("</tbody>")[0] \
        .replace("No pair", "")

    # the rude name hidden from the site: gone from every place it was shown
    site.post(f"/admin/bots/{rude.id}/hide-name", {"reason": "insulting name"}, page="/")
    for url in (f"/matches/{rude_match}/frames.json", f"/matches/{rude_match}/replay.json", f"/matches/{rude_match}",
                f"/bots/{rude.id}", "/users/mallory", "/matches/", f"/api/v1/matches/{rude_match}/replay"):
        assert RUDE not in visitor.get(url).get_data(as_text=True), url

    # the ban, from the CLI: log-in refused with the reason, no second sign-up from the same address
    banned = cli("admin", "suspend", "mallory", "--ban", "--until", "2099-01-01", "--reason", "abusive names")
    assert banned.exit_code == 0, banned.output
    refused = other_site.login("mallory")
    assert refused.status_code == 403 and "abusive names" in refused.get_data(as_text=True)
    again = other_site.post("/auth/signup", {"username": "mallory2", "password": PASSWORD, "confirm": PASSWORD},
                            page="/auth/signup")
    assert again.status_code == 400 and "refused until 2099-01-01" in again.get_data(as_text=True)
    with sessions() as session:
        assert session.exec(select(User).where(User.username == "mallory2")).first() is None

    # every action in the audit log
    log = cli("admin", "log")
    for action in ("void_matches", "hide_bot_name", "ban_user"):
        assert action in log.output, log.output
    page = site.text("/admin/log")
    assert "sock puppets: collusion report" in page and "insulting name" in page and "abusive names" in page
