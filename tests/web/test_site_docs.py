"""The author's documents on the site (/docs/protocol, /docs/bots, /docs/api-guide, /docs/ratings)
and in every kit's zip: what a new author with only the site, or only a downloaded kit, can read."""

from __future__ import annotations

import io
import re
import zipfile

from ladder.services import kits
from ladder.web import site_docs


def test_the_shipped_copies_are_the_documents():
    """docs/ is the one edition; `make rules` refreshes ladder/docs/, which installs with the package."""
    for filename, _ in site_docs.PAGES.values():
        assert (site_docs.COPIES / filename).read_bytes() == (site_docs.SOURCE / filename).read_bytes(), \
            f"ladder/docs/{filename} differs from docs/{filename}: run `make rules`"


def test_each_document_is_a_page_with_site_links(site):
    html = site.text("/docs/protocol")
    assert "<h1>The bot protocol</h1>" in html and "<table>" in html  # rendered markdown, field tables
    bots = site.text("/docs/bots")
    assert 'id="runtimes"' in bots or "<h2>Runtimes</h2>" in bots
    for page in site_docs.PAGES:
        body = site.text(f"/docs/{page}")
        assert not re.search(r'href="[^":]*\.md[#"]', body), f"/docs/{page} links to a .md file"
    assert "/docs/bots#runtimes" in site.client.get("/docs/runtimes").headers["Location"]
    index = site.text("/docs/")
    for page in site_docs.PAGES:
        assert f'href="/docs/{page}"' in index


def test_write_a_bot_links_the_documents(site):
    html = site.text("/write-a-bot")
    for target in ("/docs/protocol", "/docs/bots", "/docs/api-guide", "/docs/runtimes"):
        assert f'href="{target}"' in html, target
        assert site.client.get(target, follow_redirects=True).status_code == 200


def test_every_kit_readme_link_works_inside_its_zip():
    """Relative links in a downloaded kit's README lead to files in the zip (the docs ship with it)."""
    for kit in kits.language_kits():
        archive = zipfile.ZipFile(io.BytesIO(kits.language_kit_zip(kit)))
        names = set(archive.namelist())
        readme = archive.read("README.md").decode()
        links = [link for link in re.findall(r"\]\(([^)\s]+)\)", readme) if "://" not in link]
        assert any(link.startswith("docs/protocol.md") for link in links), (kit.language, links)
        for link in links:
            assert link.split("#")[0] in names, f"{kit.language}: README links to {link}, not in the zip"


def test_the_repositorys_screenshots_are_left_out_of_the_served_page() -> None:
    """docs/play.md shows pictures from docs/img/, which the site does not serve: no broken image."""
    from ladder.web import site_docs

    assert "](img/" in site_docs.text("play")
    served = str(site_docs.html("play", lambda *args, **kwargs: "/x"))
    assert "<img" not in served and "<p></p>" not in served and "The board" in served
