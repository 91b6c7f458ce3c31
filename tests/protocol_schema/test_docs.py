"""docs/protocol.md's field tables are exactly what `ladder protocol docs` generates from the schemas."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ladder.cli import main
from ladder.protocol_schema import game_schema, schema_games
from ladder.protocol_schema.docs import fill, generated

PAGE = Path(__file__).parents[2] / "docs" / "protocol.md"


def test_the_page_holds_the_generated_tables():
    page = PAGE.read_text()
    assert fill(page, generated()) == page, "run: ladder protocol docs --write docs/protocol.md"


def test_every_message_decision_and_event_has_a_table_on_the_page():
    page = PAGE.read_text()
    assert {"drachengold", "treasure", "dragonflame"} <= set(schema_games())
    for game in schema_games():
        for name in game_schema(game)["$defs"]:
            assert f'id="{game}-{name}"'.replace(".", "-").replace("_", "-") in page.replace("_", "-"), (game, name)
    for message in ("hello", "ready", "request", "answer", "event", "error", "end"):
        assert f'<a id="envelope-{message}"></a>' in page


def test_the_undocumented_fields_of_the_issue_are_documented():
    """The payloads a new author had to guess (issue #12) each have a row now."""
    text = generated()["drachengold"]
    for row in ("| `negotiation.tokens` | list of [token](#drachengold-token) |", "| `colour` | [colour]",
                "| `negotiation.standing` | list of [proposal](#drachengold-proposal) |",
                "| `shares` | object: seat (string) → list of [token_id]", "| `negotiation.last_votes` | object: seat",
                "| `negotiation.attack` | object: seat (string) → integer |", "| `hoard_sizes` | object: seat",
                "| `chosen` | boolean |", "| `max_offers` | integer", "| `offers` | list of [offer]",
                '<a id="drachengold-request-market-answer"></a>'):
        assert row in text, row
    assert "how many shares to make (a count" in text
    assert "`second_wind`" in text and "`windfall`" in text  # the card kinds


def test_the_command_prints_and_writes_the_blocks(tmp_path):
    result = CliRunner().invoke(main, ["protocol", "docs"])
    assert result.exit_code == 0 and "<!-- BEGIN generated: treasure -->" in result.output
    page = tmp_path / "p.md"
    blocks = "".join(f"<!-- BEGIN generated: {g} -->\n<!-- END generated: {g} -->\n" for g in schema_games())
    page.write_text("intro\n<!-- BEGIN generated: envelope -->\nstale\n<!-- END generated: envelope -->\n"
                    f"{blocks}end\n")  # a block for every game: none is appended after "end"
    result = CliRunner().invoke(main, ["protocol", "docs", "--write", str(page)])
    assert result.exit_code == 0, result.output
    written = page.read_text()
    assert "stale" not in written and "**`hello`**" in written and written.endswith("end\n")
    page.write_text("<!-- BEGIN generated: envelope -->\n<!-- END generated: envelope -->\n")
    result = CliRunner().invoke(main, ["protocol", "docs", "--write", str(page)])
    assert result.exit_code == 0, result.output  # a game without a block (a new game) gets a section
    written = page.read_text()
    assert "### treasure field reference" in written and '<a id="treasure-decision-flip"></a>' in written
    page.write_text("no markers\n")
    result = CliRunner().invoke(main, ["protocol", "docs", "--write", str(page)])
    assert result.exit_code == 2 and "has no block for envelope" in result.output


def test_the_page_links_every_games_published_schema():
    # the links named drachengold and treasure only: DragonFlame's schema was served but not linked
    head = PAGE.read_text().split("## The conversation", 1)[0]
    for game in schema_games():
        assert f"[`{game}`](/protocol/{game}.schema.json)" in head
