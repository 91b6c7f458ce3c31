import copy
import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest

from ladder.replay import (
    SCHEMA_VERSION,
    ReplayError,
    dumps_replay,
    load_replay,
    loads_replay,
    verify_replay,
    write_replay,
)

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # tests/ holds the toygame package
    import toygame

    toygame.register(monkeypatch)
    return toygame


@pytest.fixture
def replay(toy):
    from ladder.play import play_builtin

    return play_builtin("toy", ["random", "fixed", "random"], seed=21, options={"pile": 14}).replay.to_json()


def index_of(replay, predicate):
    return next(i for i, e in enumerate(replay["log"]) if predicate(e))


def test_the_format_has_every_documented_key(replay):
    assert set(replay) == {
        "schema_version", "engine_version", "game", "options", "seed", "players",
        "sandbox", "seats", "log", "results",
    }  # fmt: skip
    assert replay["schema_version"] == SCHEMA_VERSION and replay["sandbox"] is None
    assert replay["options"] == {"pile": 14, "bonus": 2, "style": "plain"}
    assert {"seat", "bot", "status", "reason"} <= set(replay["seats"][0])
    assert set(replay["results"][0]) == {"seat", "bot", "score", "rank", "breakdown"}
    kinds = {frozenset(e) for e in replay["log"]}
    assert kinds == {frozenset({"seat", "kind", "decision"}), frozenset({"type", "data", "to"})}


@pytest.mark.parametrize("name", ["r.json", "r.json.gz"])
def test_write_then_load_gives_the_same_replay_and_bytes(replay, tmp_path, name):
    path = write_replay(replay, tmp_path / name)
    assert load_replay(path) == json.loads(json.dumps(replay))
    first = path.read_bytes()
    write_replay(load_replay(path), path)
    assert path.read_bytes() == first  # deterministic, gzip included (no timestamp)
    assert (first[:2] == b"\x1f\x8b") == name.endswith(".gz")


def test_the_bytes_are_sorted_compact_one_entry_per_line(replay):
    text = dumps_replay(replay).decode()
    lines = text.splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and text.endswith("}\n")
    keys = [line.split(":", 1)[0] for line in lines if line.startswith('"')]
    assert keys == sorted(keys) and len(keys) == len(replay)
    # one line per key, per list item, per list's closing bracket, plus the braces
    assert len(lines) == 2 + len(replay) + 3 + len(replay["log"]) + 2 * replay["players"]
    assert ": " not in text and ", " not in text


def test_verify_accepts_an_untouched_replay(replay, tmp_path):
    result = verify_replay(load_replay(write_replay(replay, tmp_path / "r.json")))
    assert result.ok and result.difference is None
    assert result.decisions == sum("decision" in e for e in replay["log"])
    assert result.events == len(replay["log"]) - result.decisions
    assert result.summary().startswith("OK toy seed 21:")


def tamper_event(r):
    i = index_of(r, lambda e: e.get("type") == "took")
    r["log"][i]["data"]["pile"] += 1
    return f"log entry {i}: expected event {{\"data\":{{\"n\":"


def tamper_private_event_audience(r):
    i = index_of(r, lambda e: e.get("type") == "secret")
    r["log"][i]["to"] = None
    return f"log entry {i}: expected event"


def tamper_decision_legally(r):
    i = index_of(r, lambda e: e.get("kind") == "take" and e["decision"]["n"] > 1)
    r["log"][i]["decision"]["n"] -= 1
    return f"log entry {i + 1}: expected event"  # the decision is legal; its event differs


def tamper_decision_illegally(r):
    i = index_of(r, lambda e: e.get("kind") == "take")
    r["log"][i]["decision"] = {"n": 7}
    return f"log entry {i}: decision {{\"n\":7}} is illegal: take 1..3 counters, not 7"


def tamper_seat(r):
    i = index_of(r, lambda e: e.get("kind") == "take")
    r["log"][i]["seat"] = 2
    return f"log entry {i}: expected a 'take' decision by seat 0, found"


def tamper_fault_decision(r):
    i = index_of(r, lambda e: e.get("kind") == "take" and e["decision"]["n"] > 1)
    r["log"][i]["fault"] = {"status": "crash", "reason": "x"}
    return f"log entry {i}: a faulted seat plays the default {{\"n\":1}}"


def drop_last(r):
    r["log"].pop()
    return f"log entry {len(r['log'])}: expected event {{\"data\":{{\"secrets\""


def drop_last_decision(r):
    del r["log"][-3:]  # the last bet, its event and the reveal
    return f"log entry {len(r['log'])}: expected a 'bet' decision by seat 2, found the end of the log"


def add_after_end(r):
    r["log"].append({"seat": 0, "kind": "bet", "decision": {"high": True}})
    return f"log entry {len(r['log']) - 1}: the game is already over"


def tamper_score(r):
    r["results"][1]["score"] += 1
    return "results[1].score: expected"


def tamper_breakdown(r):
    r["results"][2]["breakdown"]["taken"] = 99
    return "results[2].breakdown: expected"


def tamper_bot_name(r):
    r["results"][0]["bot"] = "fixed"
    return 'results[0].bot: expected "random", found "fixed"'


def tamper_seed(r):
    r["seed"] += 1
    return 'expected event {"data":{"seat":'  # the secrets are dealt from the seed


def tamper_option(r):
    r["options"]["pile"] = 99
    return "option pile=99: allowed range is 3..60"


def tamper_game(r):
    r["game"] = "chess"
    return "unknown game 'chess'"


def tamper_seats(r):
    r["seats"].pop()
    return "seats: expected 3 entries, found 2"


def tamper_decision_shape(r):
    i = index_of(r, lambda e: e.get("kind") == "bet")
    r["log"][i]["decision"] = "high"
    return f"log entry {i}: "


TAMPERINGS = [
    tamper_event, tamper_private_event_audience, tamper_decision_legally, tamper_decision_illegally,
    tamper_seat, tamper_fault_decision, drop_last, drop_last_decision, add_after_end, tamper_score,
    tamper_breakdown, tamper_bot_name, tamper_seed, tamper_option, tamper_game, tamper_seats,
    tamper_decision_shape,
]  # fmt: skip


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_verify_reports_the_first_difference(replay, tamper):
    tampered = copy.deepcopy(replay)
    expected = tamper(tampered)
    result = verify_replay(tampered)
    assert not result.ok
    assert result.difference.startswith(expected) or expected in result.difference, result.difference
    assert result.summary() == f"MISMATCH {tampered['game']} seed {tampered['seed']}: {result.difference}"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"\x1f\x8b\x08garbage", "corrupt gzip data"),
        (b"[1, 2]", "a replay is a JSON object"),
        (b"{}", "missing or non-integer schema_version"),
        (b'{"schema_version": 99}', "schema_version 99 is newer than this ladder reads (1); upgrade"),
        (b'{"schema_version": 0}', "unknown schema_version 0"),
        (b'{"schema_version": 1}', "missing key 'engine_version'"),
    ],
)
def test_a_malformed_file_gives_a_clear_error(data, message):
    with pytest.raises(ReplayError, match=message.replace("(", r"\(").replace(")", r"\)")):
        loads_replay(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(seed="7"), "'seed' should be int"),
        (lambda r: r.update(seed=True), "'seed' should be int"),
        (lambda r: r.update(sandbox=3), "'sandbox' should be str or null"),
        (lambda r: r["log"].append({"foo": 1}), "is neither a decision"),
        (lambda r: r["log"].append({"seat": "0", "kind": "take", "decision": {}}), "needs an integer 'seat'"),
        (lambda r: r["results"][0].pop("rank"), r"results\[0\] should have the keys"),
        (lambda r: r["seats"].append({}), r"seats\[3\] should be an object with a 'bot'"),
    ],
)
def test_a_wrongly_shaped_replay_gives_a_clear_error(replay, change, message):
    broken = copy.deepcopy(replay)
    change(broken)
    with pytest.raises(ReplayError, match=message):
        loads_replay(dumps_replay(broken))


def test_a_missing_file_is_a_replay_error(tmp_path):
    with pytest.raises(ReplayError, match="cannot read"):
        load_replay(tmp_path / "nope.json")


def test_a_gzipped_replay_verifies(replay, tmp_path):
    path = tmp_path / "r.json.gz"
    write_replay(replay, path)
    assert gzip.decompress(path.read_bytes()) == dumps_replay(replay)
    assert verify_replay(load_replay(path)).ok


# --- goldens: replays recorded once; a rules change that alters them fails here -----------


def golden_files():
    return sorted(p for p in GOLDEN.iterdir() if p.name.endswith((".json", ".json.gz")))


def test_the_toy_golden_is_rewritten_byte_for_byte(toy):
    # Guards the file format itself: same game, same bytes (bar the engine version).
    golden = toy.GOLDEN.read_bytes()
    fresh = toy.golden_replay()
    fresh = replace(fresh, header=replace(fresh.header, engine_version=json.loads(golden)["engine_version"]))
    assert dumps_replay(fresh) == golden


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.name)
def test_every_golden_replay_verifies(toy, path):
    result = verify_replay(load_replay(path))
    assert result.ok, f"{path.name}: {result.difference} (regenerate: see tests/golden/README.md)"
