"""`ladder bench botdata`: bot data under concurrent strict matches (#27's done-when), on a scratch
SQLite file and a scratch PostgreSQL database.

Two bots of one owner play `matches` matches of a game against each other (`--game`, default the
flagship; the game's smallest table, with house starter bots filling any seat beyond two), `workers` at a time,
each worker a process playing its share through the real worker path (workers/queue/jobs.py:
claim, stage each seat's data, the strict sandbox, record with the data in the result's
transaction). Both bots read-modify-write their folder at the start of every match:

- `keeper` bumps a counter, rewrites a 256 KiB blob with its digest beside it, and adds one file of
  its own per match (`runs/<token>`, holding its token, the version it started from and a digest);
- `hog` does the same and then tries to write past the cap, which must keep nothing of its match.

Afterwards: every clean `keeper` match must have left its `runs/` file (no write lost), every file
must match its digest (nothing torn), every stored version must be within the cap, and `hog` must
still hold the data it was given, with a note saying why. Prints times; exit 1 on any breach.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ladder.bot.data import Cap

# Run by each bench bot before it plays (the starter bot follows): LIMIT is 0 for keeper, else the
# bytes hog tries to write past the cap.
PRELUDE = '''
import hashlib as _h, json as _j, os as _os, secrets as _s
_d = _os.environ["LADDER_BOT_DATA"]
_v = int(_os.environ["LADDER_BOT_DATA_VERSION"])
try:
    _n = _j.load(open(_d + "/counter.json"))["n"]
except FileNotFoundError:
    _n = 0
open(_d + "/counter.json", "w").write(_j.dumps({"n": _n + 1}))
_blob = _s.token_bytes(256 * 1024)
open(_d + "/blob.bin", "wb").write(_blob)
open(_d + "/blob.sha256", "w").write(_h.sha256(_blob).hexdigest())
_os.makedirs(_d + "/runs", exist_ok=True)
_t = _s.token_hex(8)
_body = f"{_t} {_v}"
open(_d + "/runs/" + _t, "w").write(_body + " " + _h.sha256(_body.encode()).hexdigest())
if LIMIT:
    try:
        with open(_d + "/hog.bin", "wb") as _f:
            for _ in range(LIMIT >> 20):
                _f.write(b"h" * (1 << 20))
    except OSError:
        pass  # ENOSPC from the sized tmpfs: play on
'''


@dataclass
class Checked:
    database: str
    matches: int = 0
    seconds: float = 0.0
    finished: int = 0
    failed: int = 0
    keeper_clean: int = 0
    keeper_version: int = 0
    runs: int = 0
    counter: int = 0
    breaches: list[str] = field(default_factory=list)
    hog_note: str | None = None

    @property
    def ok(self) -> bool:
        return not self.breaches


def bot_source(game: str, limit: int) -> bytes:
    """The game's first starter bot, with PRELUDE run before it plays."""
    from bots import builtin_names
    from workers.match.runner import builtin_source

    source = builtin_source(game, builtin_names(game)[0]).read_text()
    marker = 'if __name__ == "__main__":'
    if marker not in source:
        raise RuntimeError(f"the starter bot of {game} has no {marker!r} line to run the bench's prelude before")
    return source.replace(marker, f"LIMIT = {limit}\n{PRELUDE}\n{marker}").encode()


def _seed(url: str, store: str, game: str, matches: int, cap: Cap) -> tuple[list[int], int, int]:
    """The owner, the two bots, hog's starting data, and the queued matches: (match ids, keeper, hog)."""
    from sqlmodel import select

    from ladder.bot.data import write_zip
    from ladder.db import make_engine, session_factory
    from ladder.games import get_game
    from ladder.models import Bot, BotCreate, BotVersion, User, VersionStatus
    from ladder.services import botdata, bots
    from ladder.services import matches as match_service
    from ladder.services.bots import seed_house_bots
    from ladder.storage import FolderStore

    engine = make_engine(url)
    try:
        with session_factory(engine)() as session:
            seed_house_bots(session=session, games=[game])
            house = sorted(session.exec(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id).where(
                Bot.game == game, Bot.builtin.is_not(None), BotVersion.status == VersionStatus.ACTIVE)).all())
            owner = User(username="bench", password_hash="!")
            session.add(owner)
            session.commit()
            made = {}
            for name, limit in (("keeper", 0), ("hog", 2 * cap.max_bytes)):
                bot = bots.create_bot(session=session, owner_id=owner.id, data=BotCreate(name=name, game=game))
                version = bots.add_version(session=session, bot_id=bot.id, code=bot_source(game, limit),
                                           filename="main.py", placement_games=0)
                bots.activate_version(session=session, version_id=version.id)
                made[name] = (bot.id, version.id)
            botdata.replace(session=session, bot_id=made["hog"][0], user_id=owner.id,
                            data=write_zip({"sentinel": b"hog's own data"}), cap=cap,
                            store=FolderStore(Path(store)))
            others = house[: max(get_game(game).min_players - 2, 0)]
            pair = [made["keeper"][1], made["hog"][1]]
            ids = [match_service.queue_match(session=session, game=game,
                                             seats=[*pair[:: 1 if i % 2 else -1], *others]).id
                   for i in range(matches)]
            return ids, made["keeper"][0], made["hog"][0]
    finally:
        engine.dispose()


def _worker(url: str, store: str, ids: list[int], worker_id: str) -> None:
    """One worker process: plays its matches one after another, through the real worker path."""
    from ladder.config import Settings
    from ladder.db import make_engine, session_factory
    from workers.queue.jobs import play_match

    engine = make_engine(url)
    settings = Settings(env="development", database_url=url, store=f"file://{store}")
    for match_id in ids:
        play_match(match_id, sessions=session_factory(engine), settings=settings, worker_id=worker_id)
    engine.dispose()


def _check(url: str, store_dir: str, label: str, keeper: int, hog: int, ids: list[int], seconds: float) -> Checked:
    import json

    from sqlmodel import select

    from ladder.bot.data import read_zip
    from ladder.config import Settings
    from ladder.db import make_engine, session_factory
    from ladder.models import BotDataVersion, Match, Seat
    from ladder.services import botdata
    from ladder.storage import FolderStore

    store = FolderStore(Path(store_dir))  # where the workers wrote the versions
    cap = Settings().bot_data_cap
    out = Checked(label, len(ids), seconds)
    engine = make_engine(url)
    try:
        with session_factory(engine)() as session:
            statuses = session.exec(select(Match.status).where(Match.id.in_(ids))).all()
            out.finished, out.failed = statuses.count("finished"), statuses.count("failed")
            out.keeper_clean = len(session.exec(
                select(Seat.match_id).join(Match, Match.id == Seat.match_id)
                .where(Seat.bot_id == keeper, Match.status == "finished", Seat.status == "ok",
                       Seat.forfeited.is_(False))).all())
            out.keeper_version, data = botdata.download(session=session, bot_id=keeper, user_id=_owner(session, keeper),
                                                        store=store)
            files = read_zip(data, botdata.STORED)
            runs = {name: body for name, body in files.items() if name.startswith("runs/")}
            out.runs = len(runs)
            if out.runs != out.keeper_clean:
                out.breaches.append(f"keeper: {out.keeper_clean} clean matches but {out.runs} runs files (lost writes)")
            if out.keeper_version != out.keeper_clean:
                out.breaches.append(f"keeper: version {out.keeper_version} after {out.keeper_clean} clean matches")
            for name, body in runs.items():
                text, _, digest = body.decode().rpartition(" ")
                if hashlib.sha256(text.encode()).hexdigest() != digest or not name.endswith(text.split()[0]):
                    out.breaches.append(f"keeper: {name} is torn")
            if files and hashlib.sha256(files["blob.bin"]).hexdigest() != files["blob.sha256"].decode():
                out.breaches.append("keeper: blob.bin does not match its digest (torn)")
            out.counter = json.loads(files["counter.json"])["n"] if files else 0
            for row in session.exec(select(BotDataVersion).where(BotDataVersion.bot_id.in_([keeper, hog]))):
                if row.size > cap.max_bytes or row.files > cap.max_files:
                    out.breaches.append(f"bot {row.bot_id} version {row.number} is over the cap")
            hog_version, hog_data = botdata.download(session=session, bot_id=hog, user_id=_owner(session, hog),
                                                     store=store)
            if read_zip(hog_data, botdata.STORED) != {"sentinel": b"hog's own data"} or hog_version != 1:
                out.breaches.append(f"hog: its data changed (version {hog_version}), though every match of it "
                                    "went over the cap")
            info = botdata.info(session=session, bot_id=hog, user_id=_owner(session, hog), cap=cap)
            out.hog_note = info.note
            if out.finished and (info.note is None or "over the cap" not in info.note):
                out.breaches.append(f"hog: no note saying it went over the cap ({info.note!r})")
            if out.finished + out.failed != len(ids):
                out.breaches.append(f"{len(ids) - out.finished - out.failed} matches neither finished nor failed")
    finally:
        engine.dispose()
    return out


def _owner(session, bot_id: int) -> int:
    from ladder.models import Bot

    return session.get(Bot, bot_id).owner_id


@contextmanager
def _sqlite() -> Iterator[str]:
    from ladder.db import make_engine, upgrade

    with tempfile.TemporaryDirectory(prefix="ladder-bench-botdata-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'ladder.sqlite3'}"
        engine = make_engine(url)
        upgrade(engine)
        engine.dispose()
        yield url


def run_botdata_bench(*, matches: int, workers: int, databases: list[str], postgres: str,
                      echo: Callable[[str], None], game: str | None = None) -> list[Checked]:
    from ladder.cli.bench.service import scratch_database
    from ladder.config import Settings
    from ladder.games import FLAGSHIP
    from workers.match.runner import choose_mode

    choose_mode("strict")  # fails here, with the reason, where the strict sandbox cannot run
    cap = Settings().bot_data_cap
    game = game or FLAGSHIP
    results = []
    for label in databases:
        scratch = _sqlite() if label == "sqlite" else scratch_database(postgres, "botdata", keep=False)
        with scratch as url, tempfile.TemporaryDirectory(prefix="ladder-bench-store-") as store:
            ids, keeper, hog = _seed(url, store, game, matches, cap)
            # each worker a fresh process: bots are started from a main thread (workers/sandbox/process.py)
            context = multiprocessing.get_context("spawn")
            procs = [context.Process(target=_worker, args=(url, store, ids[k::workers], f"bench-{k}"), daemon=False)
                     for k in range(workers)]
            echo(f"{label}: {matches} strict {game} matches of keeper and hog, {workers} at a time ...")
            start = time.monotonic()
            for proc in procs:
                proc.start()
            for proc in procs:
                proc.join()
            seconds = time.monotonic() - start
            result = _check(url, store, label, keeper, hog, ids, seconds)
            results.append(result)
            echo(render(result))
    return results


def render(r: Checked) -> str:
    rate = r.matches / r.seconds if r.seconds else 0.0
    lines = [
        f"{r.database}: {r.matches} matches in {r.seconds:.0f} s ({rate:.2f}/s, load {os.getloadavg()[0]:.1f}); "
        f"{r.finished} finished, {r.failed} failed",
        f"  keeper: {r.keeper_clean} clean matches, {r.runs} runs files kept, data version {r.keeper_version}, "
        f"counter {r.counter} (a read-modify-write of one file from concurrent snapshots: the last commit wins)",
        f"  hog: {r.hog_note}",
        "  no write lost, nothing torn, the cap held" if r.ok else "  BREACHES:\n    " + "\n    ".join(r.breaches),
    ]
    return "\n".join(lines)
