"""Browser fixtures: Debian's chromium driven by Playwright for Python (never `playwright install`),
and the site served by a real HTTP server thread (werkzeug) on 127.0.0.1.

Without chromium or Playwright the tests skip, except with LADDER_REQUIRE_SERVICES=1 (CI), where
they fail with the reason.
"""

from __future__ import annotations

import os
import threading

import pytest
from needs import unavailable
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def sync_playwright():
    """Playwright's sync entry point, once chromium and Playwright are both here."""
    problems = []
    if not os.access(CHROMIUM, os.X_OK):
        problems.append(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright as start
    except ImportError:
        problems.append("playwright is not installed (pip install playwright)")
    if problems:
        unavailable("; ".join(problems))
    return start


def serve(app):
    """Serve `app` on 127.0.0.1 from a thread; returns (base URL, stop function)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="ladder-web", daemon=True)
    thread.start()

    def shutdown() -> None:
        server.shutdown()
        thread.join(10)

    return f"http://127.0.0.1:{server.server_port}", shutdown


@pytest.fixture
def browser():
    with sync_playwright()() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def base_url(app):
    """The test module's `app` (web.conftest's, usually) served over HTTP."""
    url, shutdown = serve(app)
    yield url
    shutdown()
