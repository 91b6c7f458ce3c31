"""The bot page's scorecard panel and the match list's filters (ladder/web/scorecard.py): each
measure with its definition, the charts with versions marked, the opponents with the margin; no
500 without data or with bad input. `played` is tests/web/conftest.py's."""

from __future__ import annotations

import re

from ladder.games import get_game
from ladder.scorecard.common import catalogue


def test_a_bot_that_never_played_shows_an_empty_scorecard(site, build, client):
    bot, _ = build.bot("alice", "fresh")
    html = site.text(f"/bots/{bot.id}")
    assert "No measured matches yet" in html
    assert client.get(f"/bots/{bot.id}?result=won").status_code == 200
    api = client.get(f"/api/v1/bots/{bot.id}/scorecard")
    assert api.status_code == 200 and api.get_json()["matches"] == 0 and api.get_json()["measures"] == {}
    assert client.get(f"/api/v1/bots/{bot.id}/scorecard/versions/1").get_json()["matches"] == 0
    assert client.get(f"/api/v1/bots/{bot.id}/scorecard/opponents/1").status_code == 404


def test_the_panel_shows_every_measure_with_its_definition_and_the_charts(site, played):
    bot, _ids, _ = played
    html = site.text(f"/bots/{bot.id}")
    panel = html.split('<section id="scorecard">', 1)[1].split("</section>", 1)[0]
    assert "Over its 5 finished matches" in panel and "v2: 2" in panel
    measures = catalogue(get_game("treasure"))
    for name in ("bust_rate", "flips_per_turn", "ev_optimal", "sets_chest", "first", "first_seat_0", "faults"):
        m = measures.get(name)
        row = re.search(rf'<tr id="measure-{name}">(.*?)</tr>', panel, flags=re.S)
        assert row, name
        assert m.definition.replace("'", "&#39;") in row.group(1)
        assert f'href="/docs/scorecard#{m.anchor or m.name}"' in row.group(1)
    assert '<tr id="measure-score.tiles.chest">' in panel  # the breakdown's categories
    charts = re.findall(r'<svg class="chart".*?</svg>', panel, flags=re.S)
    assert len(charts) == 4  # first places, the score, the game's first two
    assert all(c.count("<circle") == 5 for c in charts)
    assert re.findall(r'<text class="x"[^>]*>(v\d)</text>', charts[0]) == ["v1", "v2"]
    opponents = panel.split("Against each opponent", 1)[1]
    assert opponents.count("?opponent=") == 2 and "margin" in opponents


def test_the_match_list_filters_by_opponent_and_result(site, client, played, sessions):
    from ladder.models import BotVersion

    bot, ids, starters = played
    with sessions() as session:
        second = session.get(BotVersion, starters[1]).bot_id
    html = site.text(f"/bots/{bot.id}?opponent={second}")
    recent = html.split("<h2>Recent matches</h2>", 1)[1].split("</table>", 1)[0]
    assert re.findall(r'href="/matches/(\d+)">#', recent) == [str(m) for m in reversed(ids[:3])]
    won = site.text(f"/bots/{bot.id}?result=won").split("<h2>Recent matches</h2>", 1)[1].split("</table>", 1)[0]
    lost = site.text(f"/bots/{bot.id}?result=lost").split("<h2>Recent matches</h2>", 1)[1].split("</table>", 1)[0]
    shown = re.findall(r'href="/matches/(\d+)">#', won) + re.findall(r'href="/matches/(\d+)">#', lost)
    assert sorted(shown) == sorted(str(m) for m in ids)
    for bad in ("?result=maybe", "?opponent=x", "?opponent=-1", "?result=%00"):
        response = client.get(f"/bots/{bot.id}{bad}")
        assert response.status_code == 400, bad
    nobody = site.text(f"/bots/{bot.id}?opponent=99999")
    assert "No match of this filter." in nobody
