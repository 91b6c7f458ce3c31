"""The pages that explain the site: rules per game, "write a bot" with starter-kit zips, the API
reference. The kits are only read by the app; a downloaded Python kit plays through `ladder match`."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

from click.testing import CliRunner

from ladder.cli import main
from ladder.games import available_games, get_game
from ladder.rules_doc import DOC, game_titles, sections
from ladder.web.api.openapi import document

ROOT = Path(__file__).resolve().parents[2]


def _unzip(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_each_game_has_a_rules_page_with_its_section_of_docs_rules_md(client):
    texts = sections(DOC.read_text(encoding="utf-8"), game_titles())
    for name in available_games():
        game = get_game(name)
        response = client.get(f"/games/{name}/rules")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert f"<h2>{game.title}" in html
        # the section's first and last table rows are on the page, as table cells
        rows = [line for line in texts[name].splitlines() if re.match(r"\| \d+ \|", line)]
        for row in (rows[0], rows[-1]):
            number, source = (cell.strip() for cell in row.split("|")[1:3])
            assert f"<td>{number}</td>\n<td>{source}</td>" in html
        assert f"{game.min_players}\u2013{game.max_players} players" in html  # en dash
        assert response.headers["Content-Security-Policy"].count("script-src 'self'") == 1


def test_rules_are_linked_from_the_leaderboard_and_unknown_games_are_404(client):
    for name in available_games():
        assert f'href="/games/{name}/rules"' in client.get(f"/leaderboard/{name}").get_data(as_text=True)
    for bad in ("nope", "..", "%00", "rules"):
        assert client.get(f"/games/{bad}/rules").status_code == 404


def test_write_a_bot_links_the_schemas_the_rules_and_every_kit(client):
    html = client.get("/write-a-bot").get_data(as_text=True)
    assert 'href="/protocol/schema.json"' in html
    for name in available_games():
        assert f'href="/games/{name}/rules"' in html
        assert f'href="/protocol/{name}.schema.json"' in html
        for bot in get_game(name).starter_bots:
            assert f'href="/kits/python/{name}/{bot}.zip"' in html
    languages = [p.name for p in (ROOT / "bots" / "examples").iterdir() if (p / "README.md").is_file()]
    assert "node" in languages
    for language in languages:
        assert f'href="/kits/{language}.zip"' in html
    assert "ladder match" in html
    assert 'href="/write-a-bot"' in client.get("/").get_data(as_text=True)  # in the navigation


def test_a_python_kit_is_main_py_and_the_sdk_with_download_headers(client):
    response = client.get("/kits/python/treasure/careful.zip")
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert response.headers["Content-Disposition"] == 'attachment; filename="treasure-careful.zip"'
    files = _unzip(response.data)
    assert sorted(f for f in files if not f.startswith("docs/")) == ["bots/__init__.py", "bots/sdk.py", "main.py"]
    assert "docs/remote.md" in files  # and the documents every kit ships (tests/services/test_kits.py)
    assert files["main.py"] == (ROOT / "bots" / "treasure/careful.py").read_bytes()
    assert files["bots/sdk.py"] == (ROOT / "bots" / "sdk.py").read_bytes()
    again = client.get("/kits/python/treasure/careful.zip", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304  # deterministic bytes: the ETag holds


def test_a_language_kit_holds_its_folder(client):
    response = client.get("/kits/node.zip")
    assert response.status_code == 200 and response.mimetype == "application/zip"
    folder = ROOT / "bots" / "examples" / "node"
    files = _unzip(response.data)
    # the folder, its README's links pointed at the documents shipped beside it (tests/web/test_site_docs.py)
    assert {n: d for n, d in files.items() if n != "README.md" and not n.startswith("docs/")} == \
        {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.name != "README.md"}
    assert files["README.md"].decode() == (folder / "README.md").read_text().replace("../../../docs/", "docs/")


def test_unknown_kits_are_404(client):
    for url in ("/kits/python/treasure/nope.zip", "/kits/python/nope/random.zip", "/kits/nope.zip",
                "/kits/..%2Fjs.zip", "/kits/python/treasure/..%2Fsdk.zip", "/kits/__pycache__.zip"):
        assert client.get(url).status_code == 404, url


def test_a_downloaded_python_kit_plays_a_game_through_ladder_match(client, tmp_path):
    kit = tmp_path / "careful.zip"
    kit.write_bytes(client.get("/kits/python/treasure/careful.zip").data)
    replay = tmp_path / "replay.json"
    result = CliRunner().invoke(main, ["match", str(kit), "builtin:random", "--game", "treasure", "--seed", "3",
                                       "--sandbox", "none", "--replay", str(replay), "--json"])
    assert result.exit_code == 0, result.output
    seats = json.loads(replay.read_text())["seats"]
    assert seats[0]["clean"] and seats[0]["exit"] == {"code": 0, "signal": None}


def test_the_api_reference_lists_every_path_method_parameter_and_the_token_scope(client):
    html = client.get("/docs/api").get_data(as_text=True)
    doc = document()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            assert f"<code>{method.upper()} {path}</code>" in html
            for parameter in operation.get("parameters", []):
                assert f"<code>{parameter['name']}</code>" in html
    assert html.count("Needs a token") == sum(1 for item in doc["paths"].values() for op in item.values()
                                              if op.get("security"))
    for name in doc["components"]["schemas"]:
        assert f'id="schema-{name}"' in html
    assert 'href="/docs/api"' in client.get("/").get_data(as_text=True)



def test_a_kit_over_the_size_limit_is_not_served(client, monkeypatch):
    from ladder.services import kits

    kits.language_kit_zip.cache_clear()
    monkeypatch.setattr(kits, "MAX_KIT_BYTES", 10)
    try:
        assert client.get("/kits/node.zip").status_code == 404
    finally:
        kits.language_kit_zip.cache_clear()


def test_the_api_reference_renders_the_documents_description_as_markdown(client):
    html = client.get("/docs/api").get_data(as_text=True)
    assert "<code>Authorization: Bearer &lt;token&gt;</code>" in html and "`Authorization" not in html


def test_each_rules_page_starts_with_how_to_play_and_scoring(site):
    """A person learns the game from the top of the page; the rule-to-test table comes after."""
    from ladder.games import available_games

    for game in available_games():
        html = site.text(f"/games/{game}/rules")
        how, scoring, table = (html.find(h) for h in ("<h3>How to play, in short</h3>", "<h3>Scoring</h3>",
                                                      "<h3>Every rule sentence and its test</h3>"))
        assert 0 < how < scoring < table, (game, how, scoring, table)
        assert "wins" in html[scoring:table], game
