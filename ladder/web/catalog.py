"""What this ladder offers, as the pages list it: its games' titles, the starter kits an author
starts from, and the runtimes an upload may use. None of it is in the database; the pages' reads
are services (ladder/services/)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ladder.games import available_games, get_game


@cache
def game_titles() -> dict[str, str]:
    return {name: get_game(name).title for name in sorted(available_games())}


def starter_kits() -> list[tuple[str, str, str]]:
    """Per game, (its title, its name, the starter bot it names as its reference): where an author
    starts, as a kit to download (a site user has no checkout of the repository to find files in)."""
    from bots import reference_bot

    out = []
    for name in sorted(available_games()):
        game = get_game(name)
        if reference_bot(name) in game.starter_bots:
            out.append((game.title, name, reference_bot(name)))
    return out


@dataclass(frozen=True)
class RuntimeChoice:
    name: str
    title: str
    entry: str
    version: str  # what this machine has, or why it cannot run it
    accepted: bool
    compiled: bool
    build: str | None  # the recipe, run in a copy of the upload inside the sandbox
    run: str


def runtime_choices(accepted: tuple[str, ...] | None) -> list[RuntimeChoice]:
    """The runtime table as the upload page shows it: which entry point picks which runtime, and
    whether this ladder runs it (its operator's list, and what the machine has)."""
    from ladder.bot import runtimes  # pure: reads dpkg's database, starts nothing

    out = []
    for r in runtimes.RUNTIMES:
        ok, detail = runtimes.available(r)
        allowed = accepted is None or r.name in accepted
        out.append(RuntimeChoice(r.name, r.title, r.entry, detail if ok else "not available here",
                                 ok and allowed, r.compiled, r.build, " ".join(r.run)))
    return out
