"""Every page of the site at the common widths, phone to wide desktop (390, 768, 1024, 1366 and
1920 px), in headless Chromium: no page scrolls sideways, no box overlaps its neighbour (a table
wider than its column used to lie under the next one on the home page at 1280 to 1920 px), and no
text is cut off by a box that hides its overflow; a match's replay viewer starts in the first half
of the screen.

The pages are the phone test's (test_phone.py): every GET route of the app, filled from the same
seeded site, seen by the owner of the bots (who sees the most: forms, logs, controls). Each page
is loaded once and the window resized through the widths, so the whole walk stays well under a
minute. With LADDER_SCREENSHOTS=DIR it saves the home page at every width.
"""

from __future__ import annotations

import os
from pathlib import Path

from browser.test_phone import DRAWN, OWNER, _seed, _urls
from web.conftest import app, build, dispatched, play, settings  # noqa: F401 (fixtures)
from web.helpers import PASSWORD

WIDTHS = (390, 768, 1024, 1366, 1920)
HEIGHT = 900
SHOTS = os.environ.get("LADDER_SCREENSHOTS")

# Measured in the page, for one width:
# - the page scrolls sideways when the document is wider than the window;
# - a box overlaps its neighbour when two children of a grid or flex container intersect, or when a
#   descendant of such a child reaches outside the child (over the next column) with no box in
#   between that scrolls sideways by itself;
# - text is cut off when a box hiding its overflow is narrower than its content (an ellipsis is a
#   deliberate, visible cut, so it is allowed).
# Drawings (svg) and positioned layers (the viewer's overlays) place their own contents.
LAYOUT = """(width) => {
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
    + ' "' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 30) + '"';
  const shown = (box) => box.width > 0.5 && box.height > 0.5;
  const placed = (el) => el.closest('svg') || ['absolute', 'fixed'].includes(getComputedStyle(el).position);
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const problems = [];
  const doc = document.documentElement;
  const wide = Math.max(doc.scrollWidth, document.body.scrollWidth);
  if (wide > width + 0.5) problems.push('scrolls sideways: the page is ' + wide + 'px wide');
  for (const container of document.body.querySelectorAll('*')) {
    const display = getComputedStyle(container).display;
    if (!/grid|flex/.test(display) || scrolls(container) || placed(container)) continue;
    const items = [...container.children].filter((el) => !placed(el) && shown(el.getBoundingClientRect()));
    for (let i = 0; i < items.length; i++) {
      const a = items[i].getBoundingClientRect();
      for (let j = i + 1; j < items.length; j++) {
        const b = items[j].getBoundingClientRect();
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) problems.push('overlap: ' + describe(items[i]) + ' and ' + describe(items[j]));
      }
      if (scrolls(items[i])) continue;
      for (const inner of items[i].querySelectorAll('*')) {
        const box = inner.getBoundingClientRect();
        if (!shown(box) || placed(inner) || (box.right <= a.right + 1 && box.left >= a.left - 1)) continue;
        let parent = inner.parentElement, inside = false;
        while (parent && parent !== items[i]) {
          if (scrolls(parent)) { inside = true; break; }
          parent = parent.parentElement;
        }
        if (!inside) { problems.push('sticks out of ' + describe(items[i]) + ': ' + describe(inner)
          + ' spans ' + Math.round(box.left) + '..' + Math.round(box.right) + ', its box '
          + Math.round(a.left) + '..' + Math.round(a.right)); break; }
      }
    }
  }
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (!['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis') continue;
    if (el.closest('svg')) continue;
    if (el.scrollWidth > el.clientWidth + 1 && (el.textContent || '').trim())
      problems.push('text cut off: ' + describe(el) + ' shows ' + el.clientWidth + ' of ' + el.scrollWidth + 'px');
  }
  return [...new Set(problems)].slice(0, 6);
}"""


def test_every_page_fits_every_width(app, browser, base_url, build, play, engine):  # noqa: F811
    seeded = _seed(build, play, engine)
    context = browser.new_context(viewport={"width": WIDTHS[-1], "height": HEIGHT})
    context.set_default_timeout(15_000)
    page = context.new_page()
    problems, checked = [], 0

    def measure(url: str) -> None:
        nonlocal checked
        if page.locator("[data-viewer]").count():  # drawn by its script: measure it drawn
            page.wait_for_selector(DRAWN)
        viewer = page.locator("[data-viewer]")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT})
            problems.extend(f"{url} at {width}px: {text}" for text in page.evaluate(LAYOUT, width))
            checked += 1
            if viewer.count():  # watching the match is why most come: it starts in the first half screen
                top = page.evaluate("document.querySelector('[data-viewer]').getBoundingClientRect().top")
                if top > HEIGHT / 2:
                    problems.append(f"{url} at {width}px: the viewer starts {round(top)}px down")

    page.goto(base_url + "/")  # a visitor's home page, with its invitation
    measure("/ (visitor)")
    page.goto(base_url + "/auth/login")
    page.fill("#username", OWNER)
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    page.wait_for_load_state()
    for url in _urls(app, seeded, first_only=True):
        answer = page.request.get(base_url + url, headers={"Authorization": f"Bearer {seeded.token}"}
                                  if url.startswith("/api/") else {})
        assert answer.status == 200, f"{url}: {answer.status}"
        if not answer.headers.get("content-type", "").startswith("text/html"):
            continue
        page.set_viewport_size({"width": WIDTHS[-1], "height": HEIGHT})
        page.goto(base_url + url)
        measure(url)
    if SHOTS:
        for name, url in (("home", "/"), ("match", f"/matches/{seeded.values['match_id'][0]}")):
            page.goto(base_url + url)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": HEIGHT})
                if name == "match":
                    page.wait_for_selector("[data-viewer][data-ready='1']")
                page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=name == "home")
    context.close()
    assert checked >= 15 * len(WIDTHS), checked
    assert not problems, "\n".join(problems)


def test_a_table_wider_than_its_column_fails(app, browser, base_url):  # noqa: F811
    """The check itself: the home page's old fault (a table sticking out of its grid column, over
    the next one) and text cut off by a hidden overflow are reported; a table that scrolls inside
    its own box is not."""
    context = browser.new_context(viewport={"width": 1366, "height": HEIGHT})
    page = context.new_page()
    long = '<td style="white-space:nowrap">a_very_long_bot_name_that_never_breaks_anywhere_at_all</td>'
    page.set_content(f"""<body style="margin:0">
      <div style="display:grid; grid-template-columns: 300px 300px">
        <section><table><tr>{long}</tr></table></section>
        <section>next column</section></div>
      <div style="display:grid; grid-template-columns: 300px 300px">
        <section><div style="overflow-x:auto"><table><tr>{long}</tr></table></div></section>
        <section>next column</section></div>
      <p style="width:50px; overflow:hidden; white-space:nowrap">clipped words here</p></body>""")
    found = page.evaluate(LAYOUT, 1366)
    context.close()
    assert any(p.startswith("sticks out of section") for p in found), found
    assert sum(p.startswith("sticks out") for p in found) == 1, found  # the scrolling table is fine
    assert any(p.startswith("text cut off: p") for p in found), found


def test_gold_and_yellow_tokens_differ_by_shape(browser, base_url):
    """Drachengold's gold coins and yellow gems differ by more than shade: a coin is round with a
    rim, a gem a cut square (tokens drawn by the game's viewer.css)."""
    context = browser.new_context(viewport={"width": 800, "height": 600})
    page = context.new_page()
    page.goto(base_url + "/")
    page.set_content(f"""<link rel="stylesheet" href="{base_url}/games/drachengold/viewer.css">
      <span class="chip tok-gold">3</span> <span class="chip tok-yellow">3</span>""")
    page.wait_for_load_state()
    style = """(c) => { const s = getComputedStyle(document.querySelector('.tok-' + c));
      return [s.borderTopLeftRadius, s.backgroundImage, s.boxShadow]; }"""
    gold, yellow = page.evaluate(style, "gold"), page.evaluate(style, "yellow")
    context.close()
    assert gold[0] != yellow[0], (gold, yellow)  # round against square
    assert gold[1] != "none" and yellow[1] == "none" and gold[2] != "none", (gold, yellow)  # a struck coin
