import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from workers.match import protocol
from workers.match.protocol import Fault, TimeControl

DOC = (Path(__file__).parents[3] / "docs" / "protocol.md").read_text()


def test_a_message_is_one_ascii_line():
    line = protocol.encode({"type": "event", "event": {"type": "x", "data": {"name": "Drachengöld\n"}}})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert line.isascii()
    assert json.loads(line)["event"]["data"]["name"] == "Drachengöld\n"


def test_hello_carries_every_documented_field():
    hello = protocol.hello(game="drachengold", seat=2, players=4, options={"rules": "basic"}, bot_seed=7,
                           time=TimeControl())
    documented = json.loads(re.search(r"### hello\n\n```json\n(.*?)```", DOC, re.S).group(1))
    assert set(hello) == set(documented)
    assert hello["time"] == documented["time"] and hello["limits"] == documented["limits"]
    assert (hello["protocol"], hello["seat"], hello["bot_seed"]) == (1, 2, 7)


def test_the_documented_defaults_are_the_ones_in_force():
    for name, value in TimeControl().as_json().items():
        assert re.search(rf"\| `{name}` \| {value} \|", DOC), name
    assert f"| strikes | {protocol.STRIKES}" in DOC or f'"strikes": {protocol.STRIKES}' in DOC
    for code in protocol.STATUS:
        assert f"| `{code}` |" in DOC, f"fault code {code} is not documented"


def test_events_lose_their_addressing_and_end_keeps_four_keys():
    assert protocol.event({"type": "card", "data": {"card": "m1"}, "to": [2]}) == {
        "type": "event", "event": {"type": "card", "data": {"card": "m1"}}}
    results = [{"seat": 0, "bot": "x", "score": 5, "rank": 1, "status": "ok", "reason": None, "breakdown": {}}]
    assert protocol.end(results, 0) == {"type": "end", "results": [{"seat": 0, "score": 5, "rank": 1,
                                                                    "status": "ok"}], "you": 0}
    assert protocol.error(3, "illegal", "no", {"card": None})["default"] == {"card": None}


def test_a_good_answer_gives_its_decision():
    assert protocol.decode_answer(b'{"id": 4, "decision": {"card": null}, "extra": 1}', 4) == ({"card": None}, None)


def test_ready_keeps_short_name_and_version_only():
    info, fault = protocol.decode_ready(b'{"type":"ready","name":"' + b"n" * 500 + b'","version":3,"x":1}')
    assert fault is None and info == {"name": "n" * 100}


def fault_of(line: bytes, rid: int = 4) -> Fault:
    decision, fault = protocol.decode_answer(line, rid)
    assert decision is None and fault is not None
    return fault


def test_bad_answers_get_their_codes():
    assert fault_of(b"hello").code == "bad_json"
    assert fault_of(b"\xff\xfe{}").code == "bad_json"
    assert "UTF-8" in fault_of(b'{"id": 4, "decision": "\xff"}').reason
    assert fault_of(b"[1, 2]").code == "bad_json"
    assert fault_of(b'{"id": 4, "decision": NaN}').code == "bad_json"
    assert fault_of(b'{"id": 4, "decision": [1]}').code == "bad_json"
    assert fault_of(b'{"id": 4}').code == "bad_json"
    assert fault_of(b"[" * 100000 + b"]" * 100000).code == "bad_json"
    assert fault_of(b'{"id": ' + b"9" * 5000 + b"}").code == "bad_json"
    assert fault_of(b'{"id": 5, "decision": {}}').code == "wrong_id"
    assert fault_of(b'{"id": true, "decision": {}}', rid=1).code == "wrong_id"
    assert fault_of(b'{"id": 4.0, "decision": {}}').code == "wrong_id"
    assert fault_of(b'{"decision": {}}').reason == "answer to request 4 has no id"
    assert fault_of(b"x" * (protocol.MAX_LINE_BYTES + 1)).code == "oversized"


def test_reasons_quote_the_line_short_and_printable():
    reason = fault_of(b"\x1b[2J garbage " + b"z" * 500).reason
    assert "\x1b" not in reason and len(reason) < 200 and "garbage" in reason


def test_a_line_that_is_not_ready_is_a_startup_fault():
    for line in (b'{"type": "reddy"}', b"ready", b""):
        info, fault = protocol.decode_ready(line)
        assert info is None and fault.code == "startup"


def test_every_fault_code_maps_to_a_result_status():
    assert set(protocol.STATUS.values()) <= set(protocol.RESULT_STATUSES)
    assert set(protocol.STATUS) == protocol.STRIKE_CODES | protocol.TAKEOVER_CODES
    assert {Fault(c, "").strike for c in ("bad_json", "wrong_id", "illegal")} == {True}
    assert not Fault("timeout", "").strike and Fault("timeout", "").status == "timeout"


@given(st.binary(max_size=2000))
def test_decoding_never_raises_on_any_bytes(data):
    for decode in (lambda b: protocol.decode_answer(b, 1), protocol.decode_ready):
        value, fault = decode(data)
        assert (value is None) != (fault is None)
        if fault is not None:
            assert fault.code in protocol.STATUS and isinstance(fault.reason, str)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.sampled_from(["id", "decision", "type", "x"]), json_values))
def test_any_json_object_decodes_to_a_decision_object_or_a_fault(message):
    decision, fault = protocol.decode_answer(json.dumps(message).encode(), 1)
    if fault is None:
        assert message.get("id") == 1 and type(message["id"]) is int and isinstance(decision, dict)
    else:
        assert fault.code in ("bad_json", "wrong_id")


def test_event_lines_encode_each_event_once_for_every_seat():
    lines = protocol.EventLines()
    first = {"type": "took", "data": {"seat": 0, "n": 2}, "to": None}
    line = lines.line(first)
    assert line == protocol.encode(protocol.event(first))
    assert lines.line(first) is line  # the next seat gets the same bytes, not a new encoding
    second = {"type": "took", "data": {"seat": 1, "n": 1}, "to": None}
    assert lines.line(second) == protocol.encode(protocol.event(second))


wire_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-5, -4.5e-5, 1e-7, 2.5e-9, 1e-4, 1e16, 1e-310]) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4),
    max_leaves=24,
)


@given(wire_values)
def test_a_line_is_the_standard_encoders_bytes(value):
    # what bots were sent before the faster encoder: the same bytes for every value, escapes and
    # floats (1e-05 against orjson's 0.00001), ints past 64 bits and non-string keys included
    message = {"type": "event", "event": {"type": "x", "data": value}}
    assert protocol.encode(message) == json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"
