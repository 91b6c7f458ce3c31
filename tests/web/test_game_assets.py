"""A game's own viewer files are served from its package, and nothing else is."""

from ladder.games import GAMES, game_files


def test_each_registered_game_serves_its_own_viewer_files(client):
    for game in GAMES:
        folder = game_files(game)
        for name in ("viewer.js", "viewer.css"):
            if not (folder / "static" / name).is_file():
                continue
            response = client.get(f"/games/{game}/{name}")
            assert response.status_code == 200, (game, name)
            assert response.data == (folder / "static" / name).read_bytes()


def test_unknown_games_and_paths_out_of_the_folder_are_404(client):
    game = next(iter(GAMES))
    for path in (f"/games/{game}/state.py", f"/games/{game}/../state.py", f"/games/{game}/%2e%2e/state.py",
                 "/games/nosuchgame/viewer.js", "/games/..%2fweb/viewer.js", f"/games/{game}/static/viewer.js"):
        assert client.get(path).status_code == 404, path


def test_game_files_knows_only_registered_games():
    assert game_files("os") is None and game_files("../web") is None
    assert all(game_files(g) is not None for g in GAMES)
