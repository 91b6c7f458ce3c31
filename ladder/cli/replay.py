"""`ladder replay verify FILE` re-simulates a replay; `ladder replay view FILE` watches it in the
site's replay viewer.

Serves one page on 127.0.0.1 (a free port the system picks), with the same viewer.js, the game's
own viewer.js and viewer.css (ladder/games/<game>/view/static/) and the same frames
(ladder.services.viewer.replay_frames) as a match page. The file is yours, so every view is
offered: the table's, everything, and each seat's own. Nothing but the replay and the viewer's
static files is served.
"""

from __future__ import annotations

import html
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import click

if TYPE_CHECKING:
    from ladder.replay import Replay

STATIC = resources.files("ladder.web").joinpath("static")
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'"


def page_html(replay: Replay, title: str) -> str:
    game = replay.header.game
    names = [s.bot for s in replay.seats]
    seats = "".join(f'<option value="seat:{i}">seat {i}: {html.escape(n)} (its own view)</option>'
                    for i, n in enumerate(names))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/ladder.css"><link rel="stylesheet" href="/static/viewer.css">
<link rel="stylesheet" href="/game/viewer.css">
<script src="/static/viewer.js" defer></script><script src="/game/viewer.js" defer></script>
</head><body><main>
<h1>{html.escape(title)}</h1>
<section class="viewer" id="viewer" data-viewer data-game="{html.escape(game)}" data-frames="/frames.json" hidden>
  <label class="view-label">View <select class="view" aria-label="whose view">
    <option value="public">what the table saw</option>
    <option value="all">everything (hidden information)</option>{seats}</select></label>
</section>
<noscript>The viewer needs JavaScript; `ladder demo` prints a game as text.</noscript>
</main></body></html>
"""


def make_server(replay: Replay, title: str, port: int = 0) -> ThreadingHTTPServer:
    from ladder.games import game_view_files
    from ladder.services.errors import ServiceError
    from ladder.services.viewer import replay_frames, viewer_module

    game = replay.header.game
    if viewer_module(game) is None:
        raise click.ClickException(f"no viewer for the game {game!r}")
    page = page_html(replay, title).encode("utf-8")
    allowed = {"ladder.css", "viewer.css", "viewer.js"}
    game_static = game_view_files(game, "static")  # None: the game draws with the site's script alone
    cache: dict[tuple[str, int | None], bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def send(self, code: int, body: bytes, kind: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", CSP)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/":
                return self.send(200, page, "text/html; charset=utf-8")
            if url.path.startswith("/static/") and url.path[8:] in allowed:
                name = url.path[8:]
                kind = "text/css" if name.endswith(".css") else "text/javascript"
                return self.send(200, STATIC.joinpath(name).read_bytes(), kind + "; charset=utf-8")
            if (url.path in ("/game/viewer.js", "/game/viewer.css") and game_static is not None
                    and (game_static / url.path[6:]).is_file()):
                kind = "text/css" if url.path.endswith(".css") else "text/javascript"
                return self.send(200, (game_static / url.path[6:]).read_bytes(), kind + "; charset=utf-8")
            if url.path == "/frames.json":
                query = parse_qs(url.query)
                view = query.get("view", ["public"])[0]
                seat_text = query.get("seat", [None])[0]
                seat = int(seat_text) if seat_text and seat_text.isdigit() and len(seat_text) < 4 else None
                try:
                    key = (view, seat)
                    if key not in cache:
                        cache[key] = json.dumps(replay_frames(replay, view=view, seat=seat),
                                                separators=(",", ":")).encode("utf-8")
                    return self.send(200, cache[key], "application/json")
                except ServiceError as exc:
                    return self.send(400, json.dumps({"error": str(exc)}).encode(), "application/json")
                except Exception as exc:  # a hand-edited log the game cannot follow: say so, keep serving
                    error = f"this replay's log cannot be drawn: {type(exc).__name__}: {exc}"
                    return self.send(400, json.dumps({"error": error}).encode(), "application/json")
            return self.send(404, b"There is nothing here.", "text/plain; charset=utf-8")

        def log_message(self, format: str, *args: Any) -> None:
            pass  # a local viewer: the terminal shows the URL, not every request

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


@click.command("view")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--open/--no-open", "open_browser", default=False, help="Open the page in the default browser.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port on 127.0.0.1 (0: a free one).")
def view(file: Path, open_browser: bool, port: int) -> None:
    """Watch FILE (a replay, .json or .json.gz) in the replay viewer, served on 127.0.0.1."""
    from ladder.replay import Replay, ReplayError, load_replay

    try:
        replay = Replay.from_json(load_replay(file))
    except ReplayError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    server = make_server(replay, f"{replay.header.game} seed {replay.header.seed} — {file.name}", port)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    click.echo(f"Watching {file} at {url} (Ctrl-C stops)")
    if open_browser:
        import webbrowser

        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()




@click.group()
def replay() -> None:
    """Work with replay files."""


@replay.command("verify")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay_verify(file: Path) -> None:
    """Re-simulate FILE; exit 0 when every event and result matches, 1 with the first difference."""
    from ladder.replay import ReplayError, load_replay, verify_replay

    try:
        loaded = load_replay(file)
    except ReplayError as exc:
        click.echo(f"MALFORMED {file}: {exc}")
        sys.exit(1)
    result = verify_replay(loaded)
    click.echo(result.summary())
    sys.exit(0 if result.ok else 1)


replay.add_command(view)
