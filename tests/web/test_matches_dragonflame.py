"""DragonFlame's match page: the moves drawn through its renderer (castles with face-up and
face-down stacks, banners, the village grid with fire, hoards and running scores)."""

from __future__ import annotations


def test_dragonflame_match_page_draws_castles_villages_hoards_and_scores(site, build, play):
    starters = build.starters("dragonflame")[:2]  # the first two starters (random, looter): quick to play
    assert len(starters) == 2
    _bot, mine = build.bot("alice", "flamer", game="dragonflame")
    match_id = build.match([mine.id, *starters], game="dragonflame")
    play(match_id)
    html = site.text(f"/matches/{match_id}")
    assert "/games/dragonflame/viewer.css" in html  # the game's own CSS, from its package
    breakdown = html.split('<table class="board breakdown">', 1)[1].split("</table>", 1)[0]
    for column in ("villages", "banner", "statues", "chests", "jewelry", "princess", "knights", "curse", "total"):
        assert f"<th>{column.capitalize()}</th>" in breakdown  # human labels
    steps = html.split("<h2>Moves</h2>", 1)[1]
    assert "<h3>Round 1: cards played</h3>" in steps and "<h3>Round 1: attacks</h3>" in steps
    assert "<h3>End</h3>" in steps
    assert steps.count('class="df-castles"') >= 6  # one stack drawing per round
    assert "df-card df-" in steps and "face down" in steps
    assert steps.count('<table class="df-grid"') >= 12 and "df-fire-" in steps
    assert "loots the blue castle" in steps and "breathes" in steps
