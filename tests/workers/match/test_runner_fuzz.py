"""Protocol fuzzing: whatever bytes a bot writes, the runner finishes the match and never raises."""

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from match_support import run_specs

from ladder.replay import verify_replay
from workers.build.packaging import remove_staged
from workers.match.protocol import RESULT_STATUSES, TimeControl

CLOCK = TimeControl(decision_ms=150, bank_ms=150, startup_ms=2000)

# Replays payload.json: for the hello and for each request, the next chunk, round and round.
# A chunk is ["raw", hex bytes], ["answer", decision] (right id, any decision) or ["ready"].
REPLAYER = '''
import json, sys

chunks = json.load(open("payload.json"))
out = sys.stdout.buffer
turn = 0
for line in sys.stdin.buffer:
    msg = json.loads(line)
    if msg["type"] == "end":
        break
    if msg["type"] not in ("hello", "request") or not chunks:
        continue
    chunk = chunks[turn % len(chunks)]
    turn += 1
    if chunk[0] == "raw":
        out.write(bytes.fromhex(chunk[1]))
    elif chunk[0] == "answer":
        out.write(json.dumps({"id": msg.get("id"), "decision": chunk[1]}).encode() + b"\\n")
    else:
        out.write(b'{"type": "ready"}\\n')
    out.flush()
'''

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
structured = st.sampled_from([
    b"\n", b"{}\n", b'{"id": 1}\n', b'{"id": 1, "decision": {}}\n', b'{"type":"ready"}\n',
    b'{"id": 2, "decision": {"stop": true}}\n', b'{"id": 1, "decision": {"square": [0, 0]}}\n',
    b"\xff\xfe\n", b'{"id": 1e999, "decision": NaN}\n', b"[" * 5000 + b"\n",
])
raw = st.one_of(st.binary(max_size=200), structured, st.lists(structured, max_size=4).map(b"".join))
chunks = st.lists(
    st.one_of(
        raw.map(lambda b: ["raw", b.hex()]),
        st.fixed_dictionaries({"square": st.lists(st.integers(-1, 7), max_size=2)}).map(lambda d: ["answer", d]),
        st.one_of(json_values, st.just({"stop": True})).map(lambda d: ["answer", d]),
        st.just(["ready"]),
    ),
    max_size=5,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=chunks)
def test_the_runner_survives_any_bytes(strict_sandbox, payload):
    bot = Path(tempfile.mkdtemp(prefix="ladder-fuzz-"))
    try:
        (bot / "main.py").write_text(REPLAYER)
        (bot / "payload.json").write_text(json.dumps(payload))
        result = run_specs([str(bot), "builtin:random"], game="treasure", seed=1, sandbox=strict_sandbox,
                           clock=CLOCK)
    finally:
        remove_staged(bot)
    assert verify_replay(result.replay).ok
    assert [r["seat"] for r in result.results] == [0, 1]
    assert result.results[0]["status"] in RESULT_STATUSES
    assert result.results[1]["status"] == "ok", result.results[1]["reason"]
    assert result.replay.to_json()["seats"][1]["forfeit"] is False
    assert all(seat["clean"] for seat in result.replay.to_json()["seats"])
    if result.results[0]["status"] != "ok":
        assert result.results[0]["rank"] == 2 and result.replay.to_json()["seats"][0]["forfeit"]
