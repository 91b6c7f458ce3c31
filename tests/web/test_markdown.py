"""The rules pages' Markdown: tables render, raw HTML and unsafe links do not."""

from __future__ import annotations

from ladder.web.markdown import render


def test_tables_and_code_render():
    html = str(render("## Title\n\n| n | rule |\n|---|---|\n| 1 | `x` wins |\n"))
    assert "<h2>Title</h2>" in html and "<td>1</td>" in html and "<code>x</code>" in html


def test_raw_html_is_escaped_and_script_links_are_dropped():
    html = str(render('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n'
                      "[a](javascript:alert(1)) [b](data:text/html,hi) [c](https://example.org/)"))
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert html.count("<a ") == 1  # the unsafe links stay text
    assert '<a href="https://example.org/">c</a>' in html
