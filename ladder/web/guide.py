"""The site explains itself: each game's rules page, the "write a bot" page with its starter-kit
downloads, and the API reference rendered from the OpenAPI document. Everything here only reads
files (the rules sections, the kits' sources); nothing is imported from a kit or run."""

from __future__ import annotations

from functools import cache

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from ladder.games import get_game
from ladder.rules_doc import rules_text
from ladder.services import kits
from ladder.web import site_docs
from ladder.web.api import openapi
from ladder.web.api import reference as api_reference
from ladder.web.catalog import game_titles, runtime_choices
from ladder.web.common import settings
from ladder.web.markdown import render

bp = Blueprint("guide", __name__)


@cache
def _rules_html(game: str) -> Markup | None:
    """Rendered once per registered game (the longest section takes about 150 ms to render)."""
    text = rules_text(game)
    return render(text) if text is not None else None


@bp.get("/games/<game>/rules")
def rules(game: str):
    body = _rules_html(game) if game in game_titles() else None  # only registered names reach the cache
    if body is None:
        abort(404)
    return render_template("guide/rules.html", game=get_game(game), body=body)


@bp.get("/write-a-bot")
def write_a_bot():
    games = [get_game(name) for name in game_titles()]
    python = {}
    for kit in kits.python_kits():
        python.setdefault(kit.game, []).append(kit)
    return render_template("guide/write_a_bot.html", games=games, python=python, languages=kits.language_kits(),
                           runtimes=runtime_choices(settings().accepted_runtimes))


@bp.get("/kits/python/<game>/<bot>.zip")
def python_kit(game: str, bot: str):
    kit = kits.python_kit(game, bot)
    if kit is None:
        abort(404)
    return _zip(kits.python_kit_zip(kit), kit.filename)


@bp.get("/kits/<language>.zip")
def language_kit(language: str):
    kit = kits.language_kit(language)
    if kit is None:
        abort(404)
    try:
        data = kits.language_kit_zip(kit)
    except ValueError as exc:  # a kit folder grown past the limit: the operator's to fix, not the visitor's
        current_app.logger.error("starter kit not served: %s", exc)
        abort(404)
    return _zip(data, kit.filename)


def _zip(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/zip")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "public, max-age=3600"
    response.add_etag()  # the bytes are deterministic: the same kit keeps its ETag across restarts
    return response.make_conditional(request)


@bp.get("/docs/api")
def api_docs():
    document = openapi.document()
    # OpenAPI descriptions are CommonMark by the specification
    return render_template("guide/api.html", info=document["info"], description=render(document["info"]["description"]),
                           operations=api_reference.operations(document),
                           schemas=api_reference.schemas(document))


def _doc_view(page: str):
    def view():
        body = site_docs.html(page, url_for)
        if body is None:  # a copy missing from an install: the operator's to fix (make rules)
            abort(404)
        return render_template("guide/doc.html", title=site_docs.PAGES[page][1], body=body,
                               source=site_docs.PAGES[page][0])

    view.__name__ = "doc_" + page.replace("-", "_")
    return view


for _page in site_docs.PAGES:  # one route each: /docs/protocol, /docs/bots, /docs/api-guide, /docs/ratings
    bp.add_url_rule(f"/docs/{_page}", view_func=_doc_view(_page), methods=["GET"])


@bp.get("/docs/runtimes")
def doc_runtimes():
    return redirect(url_for("guide.doc_bots", _anchor="runtimes"))


@bp.get("/docs/")
def docs_index():
    games = [get_game(name) for name in game_titles()]
    return render_template("guide/docs.html", pages=site_docs.PAGES, games=games)
