"""A game's own viewer files are served from its package (view/static/), and nothing else is."""

import pytest

from ladder.games import GAMES, game_files, game_view_files


def test_each_registered_game_serves_its_own_viewer_files(client):
    for game in GAMES:
        folder = game_view_files(game, "static")
        assert folder is not None and folder == game_files(game) / "view" / "static", game
        for name in ("viewer.js", "viewer.css"):  # every game on the ladder draws itself in the viewer
            response = client.get(f"/games/{game}/{name}")
            assert response.status_code == 200, (game, name)
            assert response.data == (folder / name).read_bytes()


def test_unknown_games_and_paths_out_of_the_folder_are_404(client):
    game = next(iter(GAMES))
    for path in (f"/games/{game}/state.py", f"/games/{game}/../state.py", f"/games/{game}/%2e%2e/state.py",
                 f"/games/{game}/..%2f__init__.py", f"/games/{game}/%2e%2e/%2e%2e/__init__.py",
                 "/games/nosuchgame/viewer.js", "/games/..%2fweb/viewer.js", f"/games/{game}/static/viewer.js",
                 f"/games/{game}/view/static/viewer.js"):
        assert client.get(path).status_code == 404, path


def test_game_files_knows_only_registered_games():
    assert game_files("os") is None and game_files("../web") is None
    assert all(game_files(g) is not None for g in GAMES)
    assert game_view_files("os", "static") is None and game_view_files("../web", "templates") is None


def test_a_games_view_files_are_templates_or_static_only():
    game = next(iter(GAMES))
    with pytest.raises(ValueError, match="templates or static"):
        game_view_files(game, "..")
