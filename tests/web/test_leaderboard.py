"""Leaderboards: starter bots as reference points, rating order, the columns, pagination, escaping."""

from __future__ import annotations

import re

from bots import builtin_names
from ladder.games import get_game
from ladder.models import Bot, BotVersion, Rating


def _rows(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr.*?</tr>", body, flags=re.S)


def test_starter_bots_stand_on_every_leaderboard(client):
    for game in ("treasure", "drachengold"):
        starters = builtin_names(game)
        html = client.get(f"/leaderboard/{game}").get_data(as_text=True)
        rows = _rows(html)
        assert len(rows) == len(starters) >= 2
        for name in starters:
            assert f">{name}</a>" in html
        assert all('class="house"' in row and "starter" in row for row in rows)
        assert all("1500" in row for row in rows)  # nobody has played: everyone at the initial rating
        boss = get_game(game).boss  # the strongest house bot wears the tag, and only it
        assert [row for row in rows if 'class="tag boss"' in row] == [r for r in rows if f">{boss}</a>" in r]


def test_front_page_lists_each_game(client):
    html = client.get("/").get_data(as_text=True)
    assert "Treasure of the Dragons" in html and "Drachengold" in html
    assert "Latest matches" in html


def test_rated_matches_order_the_board_and_fill_the_columns(client, build, play, sessions):
    _, mine = build.bot("alice", "alpha")
    first, second = build.starters()[:2]
    match_id = build.match([mine.id, first, second])
    play(match_id, crash=(2,))  # seat 2 crashes: ranked last; alpha and seat 1 share first
    html = client.get("/leaderboard/treasure").get_data(as_text=True)
    rows = _rows(html)
    assert len(rows) == 1 + len(builtin_names("treasure"))
    names = [re.search(r'/bots/\d+">([^<]+)</a>', row).group(1) for row in rows]
    with sessions() as session:
        loser = session.get(BotVersion, second)
        assert names[-1] == session.get(Bot, loser.bot_id).name  # the forfeit lost rating: last
    alpha = next(row for row in rows if ">alpha</a>" in row)
    cells = [re.sub(r"<.*?>", "", c).strip() for c in re.findall(r"<td.*?</td>", alpha, flags=re.S)]
    _rank, _bot, owner, elo, games, win_rate, last = cells
    assert owner == "alice"
    rating, plus_minus = elo.split(" ±")
    assert rating.endswith("?") and int(rating[:-1]) > 1500 and games == "1" and win_rate == "100%"
    assert 300 < int(plus_minus) < 600  # one game in: still unsure, "?"
    assert last in ("just now",) or last.endswith("s ago")
    assert "starter" not in alpha


def test_pagination(app, client, build):
    app.config["LEADERBOARD_PAGE_SIZE"] = 2
    starters = len(builtin_names("treasure"))
    for i in range(5 - starters):  # five bots: pages of 2, 2 and 1
        build.bot("alice", f"bot{i}")
    first = client.get("/leaderboard/treasure").get_data(as_text=True)
    assert "page 1 of 3" in first and "next →" in first and "← previous" not in first
    last = client.get("/leaderboard/treasure?page=3").get_data(as_text=True)
    assert len(_rows(last)) == 1 and "← previous" in last and "next →" not in last
    ranks = [re.search(r'class="num">(\d+)</td>', row).group(1) for row in _rows(last)]
    assert ranks == ["5"]  # ranks continue across pages
    assert client.get("/leaderboard/treasure?page=4").status_code == 404
    assert client.get("/leaderboard/treasure?page=zero").status_code == 400
    assert client.get("/leaderboard/chess").status_code == 404


def test_retired_bots_leave_the_board(client, build, sessions):
    bot, _ = build.bot("alice", "oldtimer")
    assert ">oldtimer</a>" in client.get("/leaderboard/treasure").get_data(as_text=True)
    from ladder.services.bots import retire_bot

    with sessions() as session:
        retire_bot(session=session, bot_id=bot.id)
    assert ">oldtimer</a>" not in client.get("/leaderboard/treasure").get_data(as_text=True)


def test_names_are_escaped_on_the_board(client, build, sessions):
    owner = build.user("alice")
    with sessions() as session:  # straight into the table: the pages must escape whatever is stored
        bot = Bot(name="<script>alert(1)</script>", game="treasure", owner_id=owner.id)
        session.add(bot)
        session.commit()
        session.add(Rating(bot_id=bot.id, game="treasure"))
        session.commit()
    html = client.get("/leaderboard/treasure").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_every_page_and_the_front_page_name_the_boss(app, client, build):
    app.config["LEADERBOARD_PAGE_SIZE"] = 1
    for game in ("treasure", "drachengold"):
        boss = get_game(game).boss
        for page in (1, 2, 3):  # pages of one bot: the boss stands on one of them at most
            html = client.get(f"/leaderboard/{game}?page={page}").get_data(as_text=True)
            line = html.split('class="boss-line"', 1)[1].split("</p>", 1)[0]
            assert f">{boss}</a>" in line and re.search(r"rank \d+", line)
    front = client.get("/").get_data(as_text=True)
    assert front.count('class="boss-line"') == front.count("Full leaderboard")


def test_the_api_board_names_the_boss_and_tags_its_row(client):
    board = client.get("/api/v1/leaderboards/treasure?per_page=1&page=2").get_json()
    boss = board["boss"]
    assert boss["bot"] == get_game("treasure").boss and boss["rank"] >= 1 and boss["rating"] == 1500
    full = client.get("/api/v1/leaderboards/treasure").get_json()
    assert [r["bot_id"] for r in full["rows"] if r["boss"]] == [boss["bot_id"]]
    assert next(r["rank"] for r in full["rows"] if r["boss"]) == boss["rank"]
    other = next(r["bot_id"] for r in full["rows"] if not r["boss"])
    record = client.get(f"/api/v1/bots/{other}").get_json()["boss"]
    assert (record["bot_id"], record["meetings"], record["beaten"]) == (boss["bot_id"], 0, False)
    assert client.get(f"/api/v1/bots/{boss['bot_id']}").get_json()["boss"] is None  # the boss has no boss


def test_remote_bots_stand_on_the_open_ladder_only(client, build, sessions):
    from ladder.services import outside

    user = build.user("homer")
    with sessions() as session:
        remote = outside.remote_bot(session=session, user_id=user.id, game="treasure", name="homebot",
                                    open_ladder=True).bot
        session.add(Rating(bot_id=remote.id, game="treasure", rating=1_600_000, games=3))
        session.commit()
    board = client.get("/leaderboard/treasure").get_data(as_text=True)
    assert "homebot" not in board and "/leaderboard/treasure/open" in board
    open_board = client.get("/leaderboard/treasure/open").get_data(as_text=True)
    assert "homebot" in open_board and "careful" not in open_board
    api_rows = client.get("/api/v1/leaderboards/treasure/open").get_json()["rows"]
    assert [r["bot"] for r in api_rows] == ["homebot"]
    assert "homebot" not in [r["bot"] for r in client.get("/api/v1/leaderboards/treasure").get_json()["rows"]]
    for path in ("/leaderboard/tre%00asure/open", "/api/v1/leaderboards/%00/open", "/leaderboard/nope/open"):
        assert client.get(path).status_code == 404
