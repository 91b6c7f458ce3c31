"""A game's own viewer files are served from its package, and nothing else is."""

from ladder.game_packages import package_dir
from ladder.games import GAMES


def test_each_registered_game_serves_its_own_viewer_files(client):
    for game in GAMES:
        folder = package_dir(game)
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


def test_package_dir_knows_only_registered_games():
    assert package_dir("os") is None and package_dir("../web") is None
    assert all(package_dir(g) is not None for g in GAMES)
