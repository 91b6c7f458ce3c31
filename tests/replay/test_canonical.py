"""canonical() builds its C encoder once (recording a match called json.dumps per entry): it must
give the very text, and the very errors, of json.dumps with the canonical options, which stored
replays and verify depend on."""

import json

import pytest

from ladder.replay import canonical


def reference(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@pytest.mark.parametrize("value", [
    1, -0.0, 0.1 + 0.2, 1e300, 2 ** 70, None, True, "é\u2028\"\\\n", "", [], {}, (1, "ü"),
    {"b": [1, {"z": 1.5, "a": "x"}], "a": None, "é": False}, {1: 2, 3: [None]},
])
def test_same_text_as_json_dumps(value):
    assert canonical(value) == reference(value)


@pytest.mark.parametrize("value", [float("nan"), [float("inf")], {"a": object()}, {1: 2, "x": 3}])
def test_same_refusals_as_json_dumps(value):
    with pytest.raises((ValueError, TypeError)) as ours:
        canonical(value)
    with pytest.raises((ValueError, TypeError)) as theirs:
        reference(value)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))
