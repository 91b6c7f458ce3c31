"""Markdown to HTML for the site's own documents (the rules pages).

markdown-it-py in CommonMark mode with tables: raw HTML in the source is escaped, not passed
through (`html: False`), and its link validation drops javascript:, vbscript:, file: and data: URLs,
so a page rendered here is as safe as an autoescaped template and needs no script or style.
"""

from __future__ import annotations

from functools import cache

from markdown_it import MarkdownIt
from markupsafe import Markup


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def render(text: str) -> Markup:
    return Markup(_parser().render(text))
