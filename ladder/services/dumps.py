"""Daily dumps: each game's matches of each finished day (UTC) as one zip of the Parquet export
(ladder/services/export.py), written by the scheduler and offered for download at /datasets.

A dump is written once, under a temporary name and renamed when complete, and never changes
afterwards (a match finishes once): the web site only lists and serves files. Days without a
finished match of the game get no dump. Each run fills in at most BACKFILL_DAYS missing days, so a
ladder that starts dumping with a long history catches up over a few runs instead of one long one.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

from ladder.games import available_games
from ladder.services.export import ExportFilter, Sessions, count_matches, export_matches, schema_markdown

BACKFILL_DAYS = 31
NAME = re.compile(r"(?P<game>[a-z]+)-(?P<day>\d{4}-\d{2}-\d{2})\.zip")


@dataclass(frozen=True)
class Dump:
    game: str
    day: date
    path: Path
    size: int

    @property
    def filename(self) -> str:
        return self.path.name


def dump_path(root: Path, game: str, day: date) -> Path:
    return root / game / f"{game}-{day.isoformat()}.zip"


def write_daily_dumps(sessions: Sessions, root: Path, today: date, *, backfill: int = BACKFILL_DAYS) -> list[Dump]:
    """Write the missing dumps of the `backfill` days before `today` (today itself is not over)."""
    written = []
    for game in available_games():
        for back in range(backfill, 0, -1):
            day = today - timedelta(days=back)
            target = dump_path(root, game, day)
            where = ExportFilter(game, day, day + timedelta(days=1))
            if target.exists() or count_matches(sessions, where) == 0:
                continue
            if count_matches(sessions, replace(where, held=True)):  # the day is written once its deals are over
                continue
            written.append(_write(sessions, target, game, day, where))
    return written


def _write(sessions: Sessions, target: Path, game: str, day: date, where: ExportFilter) -> Dump:
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{game}-{day}-", dir=target.parent))
    try:
        summary = export_matches(sessions, work / "export", where)
        partial = work / target.name
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_STORED) as zf:  # Parquet is compressed
            zf.writestr("README.md", _readme(game, day, summary.matches))
            for name, path in summary.files.items():
                zf.write(path, f"{name}.parquet")
        partial.replace(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Dump(game, day, target, target.stat().st_size)


def _readme(game: str, day: date, matches: int) -> str:
    until = (day + timedelta(days=1)).isoformat()
    return (f"# {game}, {day.isoformat()} (UTC)\n\n{matches} finished matches of the ladder's {game}, as "
            f"`ladder export --game {game} --since {day.isoformat()} --until {until}` writes them. The tables "
            "join on `match_id`; the site's /docs/dataset says more.\n\n" + schema_markdown())


def list_dumps(root: Path) -> dict[str, list[Dump]]:
    """Every complete dump under `root`, newest day first, by game (registered games only)."""
    found: dict[str, list[Dump]] = {game: [] for game in available_games()}
    for game, dumps in found.items():
        folder = root / game
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            match = NAME.fullmatch(path.name)
            if match and match["game"] == game and path.is_file():
                dumps.append(Dump(game, date.fromisoformat(match["day"]), path, path.stat().st_size))
        dumps.sort(key=lambda d: d.day, reverse=True)
    return found


def find_dump(root: Path, game: str, filename: str) -> Dump | None:
    """The dump a download names, or None: only a registered game and a name of the dump shape
    reach the disk, so no request can name another file."""
    match = NAME.fullmatch(filename)
    if match is None or match["game"] != game or game not in available_games():
        return None
    try:
        day = date.fromisoformat(match["day"])
    except ValueError:
        return None
    path = dump_path(root, game, day)
    return Dump(game, day, path, path.stat().st_size) if path.is_file() else None
