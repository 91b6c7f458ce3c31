"""Daily dumps: each game's matches of each finished day (UTC) as one zip of the Parquet export
(ladder/services/export.py), written by the scheduler and offered for download at /datasets.

A dump is a blob of the store (ladder/storage, `dumps/<game>/<game>-<day>.zip`), made in a local
temporary folder and put whole when complete, and never changes afterwards (a match finishes once):
the web site only lists and streams blobs, so the hosts share the store, not a folder. Days without a
finished match of the game get no dump. Each run fills in at most BACKFILL_DAYS missing days, so a
ladder that starts dumping with a long history catches up over a few runs instead of one long one.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

from ladder.games import available_games
from ladder.services.export import ExportFilter, Sessions, count_matches, export_matches, schema_markdown
from ladder.storage import Store

BACKFILL_DAYS = 31
NAME = re.compile(r"(?P<game>[a-z]+)-(?P<day>\d{4}-\d{2}-\d{2})\.zip")


@dataclass(frozen=True)
class Dump:
    game: str
    day: date
    key: str  # in the store
    size: int

    @property
    def filename(self) -> str:
        return self.key.rsplit("/", 1)[1]


PREFIX = "dumps/"


def dump_key(game: str, day: date) -> str:
    return f"{PREFIX}{game}/{game}-{day.isoformat()}.zip"


def write_daily_dumps(sessions: Sessions, store: Store, today: date, *, backfill: int = BACKFILL_DAYS) -> list[Dump]:
    """Write the missing dumps of the `backfill` days before `today` (today itself is not over)."""
    written = []
    for game in available_games():
        for back in range(backfill, 0, -1):
            day = today - timedelta(days=back)
            key = dump_key(game, day)
            where = ExportFilter(game, day, day + timedelta(days=1))
            if store.exists(key) or count_matches(sessions, where) == 0:
                continue
            if count_matches(sessions, replace(where, held=True)):  # the day is written once its deals are over
                continue
            written.append(_write(sessions, store, key, game, day, where))
    return written


def _write(sessions: Sessions, store: Store, key: str, game: str, day: date, where: ExportFilter) -> Dump:
    with tempfile.TemporaryDirectory(prefix=f"ladder-dump-{game}-{day}-") as tmp:
        work = Path(tmp)
        summary = export_matches(sessions, work / "export", where)
        partial = work / "dump.zip"
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_STORED) as zf:  # Parquet is compressed
            zf.writestr("README.md", _readme(game, day, summary.matches))
            for name, path in summary.files.items():
                zf.write(path, f"{name}.parquet")
        size = store.put_file(key, partial)  # whole: a reader sees no dump or the complete one
    return Dump(game, day, key, size)


def _readme(game: str, day: date, matches: int) -> str:
    until = (day + timedelta(days=1)).isoformat()
    return (f"# {game}, {day.isoformat()} (UTC)\n\n{matches} finished matches of the ladder's {game}, as "
            f"`ladder export --game {game} --since {day.isoformat()} --until {until}` writes them. The tables "
            "join on `match_id`; the site's /docs/dataset says more.\n\n" + schema_markdown())


def list_dumps(store: Store) -> dict[str, list[Dump]]:
    """Every dump in the store, newest day first, by game (registered games only)."""
    found: dict[str, list[Dump]] = {game: [] for game in available_games()}
    for game, dumps in found.items():
        for blob in store.list(f"{PREFIX}{game}/"):
            name = blob.key[len(f"{PREFIX}{game}/"):]
            match = NAME.fullmatch(name)
            if match and match["game"] == game:
                try:
                    day = date.fromisoformat(match["day"])
                except ValueError:
                    continue
                dumps.append(Dump(game, day, blob.key, blob.size))
        dumps.sort(key=lambda d: d.day, reverse=True)
    return found


def dumped_days(store: Store, game: str) -> set[date]:
    """The days of `game` whose dump is in the store (retention prunes only what a dump holds)."""
    return {d.day for d in list_dumps(store).get(game, [])}


def find_dump(store: Store, game: str, filename: str) -> Dump | None:
    """The dump a download names, or None: only a registered game and a name of the dump shape
    reach the store, so no request can name another blob."""
    match = NAME.fullmatch(filename)
    if match is None or match["game"] != game or game not in available_games():
        return None
    try:
        day = date.fromisoformat(match["day"])
    except ValueError:
        return None
    key = dump_key(game, day)
    blob = store.stat(key)
    return Dump(game, day, key, blob.size) if blob is not None else None
