"""One upload limit: ladder.bot.packages.MAX_UPLOAD_BYTES, for a .py file and a .zip alike, read by
`ladder match` and the workers (workers/build/packaging.py stages with it), the site and the API
(Settings.max_upload_bytes defaults to it and may only lower it) and docs/bots.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.bot import packages
from ladder.bot.packages import MAX_UPLOAD_BYTES, PackagingError
from ladder.config import Settings
from ladder.services import bots
from workers.build import packaging

DOCS = Path(__file__).parents[2] / "docs"


def test_the_site_the_api_and_the_runner_share_the_limit(tmp_path):
    assert Settings(instance_dir=tmp_path).max_upload_bytes == MAX_UPLOAD_BYTES
    assert bots.add_version.__kwdefaults__["max_bytes"] == MAX_UPLOAD_BYTES  # no second default
    with pytest.raises(ValueError, match="less than or equal"):
        Settings(instance_dir=tmp_path, max_upload_bytes=MAX_UPLOAD_BYTES + 1)
    assert Settings(instance_dir=tmp_path, max_upload_bytes=1000).max_upload_bytes == 1000  # lower is allowed


def test_the_docs_state_the_same_number():
    mib = f"| {MAX_UPLOAD_BYTES >> 20} MiB |"
    upload_rows = [line for line in (DOCS / "bots.md").read_text().splitlines() if line.startswith("| an upload")]
    assert len(upload_rows) == 1 and upload_rows[0].endswith(mib)
    assert f"`{MAX_UPLOAD_BYTES}`" in (DOCS / "operations.md").read_text()
    assert f"at most {MAX_UPLOAD_BYTES} bytes" in (DOCS / "api.md").read_text()


def test_one_byte_over_the_limit_is_refused_on_upload_and_by_ladder_match_with_one_message(tmp_path):
    over = b"#" * (MAX_UPLOAD_BYTES + 1)
    said = f"is too big: a bot may have at most {MAX_UPLOAD_BYTES} bytes"
    for name in ("bot.zip", "bot.py"):
        with pytest.raises(PackagingError, match=f"^{name} {said}$"):
            packages.check_bytes(over, name)  # the site and the API
        big = tmp_path / name
        big.write_bytes(over)
        with pytest.raises(PackagingError, match=f"^{big} {said}$"):
            packaging.stage(big, tmp_path)  # ladder match and the workers
    assert packages.check_bytes(b"#" * MAX_UPLOAD_BYTES, "bot.py") == "main.py"
