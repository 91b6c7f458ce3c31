"""The author's documents on the site: docs/protocol.md, docs/bots.md (runtimes, packaging),
docs/api.md, docs/ratings.md (and the operator's two) served as /docs/<page>, rendered with
markdown-it-py.

docs/ is not installed with the package (the Dockerfile installs ladder/, workers/ and bots/), so
the site (and the kit zips, ladder/services/kits.py) read copies shipped in ladder/docs/;
`make rules` (python -m ladder.web.site_docs) writes them and tests/web/test_site_docs.py fails
while a copy differs from its source. Links between the documents become site links; a kit's
folder becomes its zip.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

from markupsafe import Markup

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "docs"
COPIES = Path(__file__).resolve().parents[1] / "docs"
# page (the URL's last part) -> (document, its title on the site)
PAGES = {
    "protocol": ("protocol.md", "The bot protocol"),
    "remote": ("remote.md", "Run your bot at home"),
    "bots": ("bots.md", "Writing, packaging and running a bot"),
    "api-guide": ("api.md", "The JSON API, with curl examples"),
    "ratings": ("ratings.md", "Ratings and matchmaking"),
    "dataset": ("dataset.md", "The games as a dataset (Parquet exports and daily dumps)"),
    "scorecard": ("scorecard.md", "Scorecards: each measure and its formula"),
    "operations": ("operations.md", "Running a ladder"),
    "performance": ("performance.md", "Performance: benchmarks and measured figures"),
    "play": ("play.md", "Play it yourself"),
}
BY_FILE = {filename: page for page, (filename, _) in PAGES.items()}
_DOC_LINK = re.compile(r'href="(?:\.\./docs/|\.\./\.\./\.\./docs/|\./)?([a-z-]+\.md)(#[^"]*)?"')
_KIT_LINK = re.compile(r'href="(?:\.\./)*bots/examples/([a-z-]+)/?"')
_REPO_IMAGE = re.compile(r'<img src="img/[^"]*"[^>]*>')  # docs/img/ is the repository's, not the site's


def text(page: str) -> str | None:
    entry = PAGES.get(page)
    path = COPIES / entry[0] if entry else None
    return path.read_text(encoding="utf-8") if path and path.is_file() else None


def _relink(html: str, url_for) -> str:
    def doc(found: re.Match) -> str:
        page = BY_FILE.get(found.group(1))
        if found.group(1) == "rules.md":  # the rules are one page per game, listed on the index
            return f'href="{url_for("guide.docs_index")}"'
        if page is None:
            return found.group(0)
        return f'href="{url_for("guide.doc_" + page.replace("-", "_"))}{found.group(2) or ""}"'

    html = _REPO_IMAGE.sub("", _DOC_LINK.sub(doc, html)).replace("<p></p>", "")
    return _KIT_LINK.sub(lambda m: f'href="{url_for("guide.language_kit", language=m.group(1))}"', html)


@cache
def _rendered(page: str) -> str | None:
    from ladder.web.markdown import render

    body = text(page)
    return str(render(body)) if body is not None else None


def html(page: str, url_for) -> Markup | None:
    rendered = _rendered(page)
    return Markup(_relink(rendered, url_for)) if rendered is not None else None


def write_copies() -> list[Path]:
    COPIES.mkdir(exist_ok=True)
    written = []
    for filename, _ in PAGES.values():
        target = COPIES / filename
        data = (SOURCE / filename).read_bytes()
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
            written.append(target)
    return written


if __name__ == "__main__":
    for path in write_copies():
        print(f"wrote {path}", file=sys.stderr)
