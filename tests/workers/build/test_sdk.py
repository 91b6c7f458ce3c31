"""workers/build/sdk.py: the SDK a Python bot finds at /sdk."""

import tempfile

import pytest

from workers.build import sdk


def test_the_sdk_is_staged_once_read_only_and_never_taken_from_someone_elses_folder(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(shared))
    tree = sdk.shared_sdk()
    assert tree == sdk.shared_sdk() and tree.parent.parent == shared  # made once, then reused
    assert (tree / "bots" / "sdk.py").read_bytes() == sdk.sdk_tree()["bots/sdk.py"]
    for path in [tree.parent, *tree.rglob("*")]:
        assert not path.stat().st_mode & 0o222, path  # nobody may write, not even its owner
    assert [p.name for p in shared.iterdir()] == [tree.parent.name]  # no work folder left behind

    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / tree.parent.name / "tree").mkdir(parents=True)  # writable: someone could have changed it
    (planted / tree.parent.name / "tree" / "evil.py").write_text("raise SystemExit")
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(planted))
    with pytest.raises(sdk.SdkError, match="is not this user's read-only SDK"):
        sdk.shared_sdk()
    assert sorted(p.name for p in planted.iterdir()) == [tree.parent.name]
