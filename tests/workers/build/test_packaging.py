import io
import os
import re
import stat
import zipfile
from pathlib import Path

import pytest

from ladder.bot import packages
from ladder.bot.packages import PackagingError, check_bytes, check_filename
from workers.build.packaging import remove_staged, stage

MAIN = b"print('hi')\n"


@pytest.fixture
def out(tmp_path):
    d = tmp_path / "staged"
    d.mkdir()
    return d


def make_zip(path: Path, members: dict[str, bytes], **kw) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, **kw) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def refused(source, out, *words):
    with pytest.raises(PackagingError) as info:
        stage(source, out)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert list(out.iterdir()) == [], "nothing may be left behind after a refusal"
    return message


def test_a_single_file_becomes_main_py_read_only(tmp_path, out):
    src = tmp_path / "mybot.py"
    src.write_bytes(MAIN)
    staged = stage(src, out)
    assert staged.entry == "main.py" and staged.command[-1] == "main.py"
    assert (staged.path / "main.py").read_bytes() == MAIN
    assert stat.S_IMODE(staged.path.stat().st_mode) == 0o555
    assert stat.S_IMODE((staged.path / "main.py").stat().st_mode) == 0o444
    assert staged.path.stat().st_uid == os.geteuid() and staged.path.parent == out
    again = stage(src, out)
    assert again.path != staged.path  # a fresh directory every time
    remove_staged(staged.path)
    assert not staged.path.exists() and again.path.exists()


def test_a_zip_is_unpacked_with_its_modules(tmp_path, out):
    src = make_zip(tmp_path / "bot.zip", {"main.py": MAIN, "lib/helper.py": b"X = 1\n", "data/": b""})
    staged = stage(src, out)
    assert (staged.path / "lib" / "helper.py").read_bytes() == b"X = 1\n"
    assert stat.S_IMODE((staged.path / "lib").stat().st_mode) == 0o555


def test_a_directory_is_copied_without_its_clutter(tmp_path, out):
    src = tmp_path / "bot"
    (src / "pkg" / "__pycache__").mkdir(parents=True)
    (src / "main.js").write_text("// js\n")
    (src / "pkg" / "m.js").write_text("1\n")
    (src / "pkg" / "__pycache__" / "m.pyc").write_bytes(b"\0")
    staged = stage(src, out)
    assert staged.entry == "main.js" and staged.command == ["/usr/bin/node", "main.js"]
    assert sorted(p.relative_to(staged.path).as_posix() for p in staged.path.rglob("*")) == ["main.js", "pkg",
                                                                                             "pkg/m.js"]


def test_a_rust_directory_is_staged_without_its_target(tmp_path, out):
    """`cargo build` beside the kit leaves target/ (with a lock file the read-only sandbox copy
    cannot open): the README's next step, `ladder match bots/examples/rust`, must still work."""
    src = tmp_path / "bot"
    (src / "src").mkdir(parents=True)
    (src / "target" / "release").mkdir(parents=True)
    (src / "Cargo.toml").write_text("[package]\nname = \"bot\"\n")
    (src / "src" / "main.rs").write_text("fn main() {}\n")
    (src / "target" / "release" / ".cargo-lock").write_bytes(b"")
    (src / "src" / "target").mkdir()  # only the root's build output is left out
    (src / "src" / "target" / "x.rs").write_text("\n")
    (src / "bot").write_bytes(b"\x7fELF")  # not Rust's output: kept, so the runtime stays ambiguous
    refused(src, out, "has both Cargo.toml and bot")
    (src / "bot").unlink()
    staged = stage(src, out)
    assert sorted(p.relative_to(staged.path).as_posix() for p in staged.path.rglob("*")) == [
        "Cargo.toml", "src", "src/main.rs", "src/target", "src/target/x.rs"]


def test_a_local_build_beside_its_source_is_left_out(tmp_path, out):
    """`gcc -o bot main.c` (or `go build -o bot .`), then `ladder match .`: the C bot is staged,
    not refused as both a C bot and a static executable."""
    for entry in ("main.c", "main.cpp", "go.mod"):
        src = tmp_path / entry.replace(".", "-")
        src.mkdir()
        (src / entry).write_text("source\n")
        (src / "bot").write_bytes(b"\x7fELF built here")
        staged = stage(src, out)
        assert staged.entry == entry and not (staged.path / "bot").exists()
        remove_staged(staged.path)
    zipped = make_zip(tmp_path / "c.zip", {"main.c": b"int main(){}\n", "bot": b"\x7fELF"})
    refused(zipped, out, "has both")


def test_a_rust_zip_with_target_is_refused_naming_target(tmp_path, out):
    members = {"Cargo.toml": b"[package]\n", "src/main.rs": b"fn main() {}\n", "target/release/.cargo-lock": b""}
    src = make_zip(tmp_path / "bot.zip", members)
    refused(src, out, "target/", "zip -r bot.zip Cargo.toml Cargo.lock src")
    with pytest.raises(PackagingError, match="holds target/"):
        check_bytes(src.read_bytes(), "bot.zip")
    # a Python bot may have a folder called target: it is not a build's output there
    assert check_bytes(make_zip(tmp_path / "py.zip", {"main.py": MAIN, "target/x.txt": b"1"}).read_bytes(),
                       "py.zip") == "main.py"


def test_refusals_of_single_files(tmp_path, out, monkeypatch):
    refused(tmp_path / "missing.py", out, "no such file")
    (tmp_path / "bot.txt").write_text("x")
    refused(tmp_path / "bot.txt", out, "a .py file, a .zip, or a directory")
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * 100)
    monkeypatch.setattr(packages, "MAX_UPLOAD_BYTES", 99)
    refused(big, out, "is too big: a bot may have at most 99 bytes")
    (tmp_path / "empty.py").write_bytes(b"")
    refused(tmp_path / "empty.py", out, "empty.py is empty")
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    refused(fifo, out, "not a regular file")


def test_refusals_of_zip_entries(tmp_path, out):
    cases = {
        "abs.zip": ({"main.py": MAIN, "/etc/passwd": b"x"}, "absolute path"),
        "up.zip": ({"main.py": MAIN, "../../evil.py": b"x"}, "'..'"),
        "nomain.zip": ({"bot.py": MAIN}, ("no entry point at the root", "main.py", "Cargo.toml")),
        "nested.zip": ({"mybot/main.py": MAIN}, "found mybot/main.py"),
        "both.zip": ({"main.py": MAIN, "main.js": b""}, ("both main.py and main.js", "ambiguous")),
        "ctrl.zip": ({"main.py": MAIN, "a\x1bb.py": b""}, "control characters"),
        "backslash.zip": ({"main.py": MAIN, "a\\..\\b.py": b""}, "backslash"),
    }
    for name, (members, words) in cases.items():
        refused(make_zip(tmp_path / name, members), out, *((words,) if isinstance(words, str) else words))


def test_a_symlink_in_a_zip_is_refused(tmp_path, out):
    path = tmp_path / "link.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("main.py", MAIN)
        link = zipfile.ZipInfo("secrets")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/shadow")
    refused(path, out, "secrets is a symbolic link")


def test_special_files_and_duplicates_in_a_zip_are_refused(tmp_path, out):
    path = tmp_path / "fifo.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("main.py", MAIN)
        fifo = zipfile.ZipInfo("pipe")
        fifo.external_attr = (stat.S_IFIFO | 0o644) << 16
        zf.writestr(fifo, "")
    refused(path, out, "pipe is not a regular file")
    with pytest.warns(UserWarning):
        dup = make_zip(tmp_path / "dup.zip", {"main.py": MAIN, "x.py": b""})
        with zipfile.ZipFile(dup, "a") as zf:
            zf.writestr("x.py", b"again")
    refused(dup, out, "x.py appears twice")


def patch_name(data: bytes, old: bytes, new: bytes, clear_utf8: bool) -> bytes:
    """Rewrite a member name in place (same length) and optionally clear the UTF-8 flag bit."""
    assert len(old) == len(new)
    data = data.replace(old, new)
    if clear_utf8:
        buf = bytearray(data)
        for sig, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            start = 0
            while (i := buf.find(sig, start)) >= 0:
                buf[i + offset + 1] &= ~0x08  # bit 11 of the little-endian flags
                start = i + 4
        data = bytes(buf)
    return data


def test_names_that_are_not_utf8_are_refused(tmp_path, out):
    good = make_zip(tmp_path / "good.zip", {"main.py": MAIN, "é.py": b""})
    bad = tmp_path / "bad.zip"
    bad.write_bytes(patch_name(good.read_bytes(), "é.py".encode(), b"\xff\xfe.py", clear_utf8=True))
    refused(bad, out, "not valid UTF-8")


def test_an_encrypted_member_is_refused(tmp_path, out):
    data = bytearray(make_zip(tmp_path / "plain.zip", {"main.py": MAIN}).read_bytes())
    i = data.find(b"PK\x01\x02")
    data[i + 8] |= 0x01
    (tmp_path / "enc.zip").write_bytes(bytes(data))
    refused(tmp_path / "enc.zip", out, "encrypted")


def test_archive_bombs_are_refused(tmp_path, out, monkeypatch):
    zeros = b"\0" * (3 << 20)  # 3 MiB that deflate to a few KiB
    refused(make_zip(tmp_path / "bomb.zip", {"main.py": MAIN, "zeros": zeros}), out, "expands more than 100x")
    # many small members, each under the per-member floor, still add up
    many = {f"z{i}": b"\0" * (600 << 10) for i in range(4)}
    refused(make_zip(tmp_path / "many.zip", {"main.py": MAIN, **many}), out, "expands more than 100x")
    monkeypatch.setattr(packages, "MAX_TOTAL_BYTES", 1000)
    refused(make_zip(tmp_path / "total.zip", {"main.py": MAIN, "a": os.urandom(600), "b": os.urandom(600)}),
            out, "more than 1000 bytes")
    monkeypatch.setattr(packages, "MAX_MEMBER_BYTES", 500)
    refused(make_zip(tmp_path / "member.zip", {"main.py": MAIN, "a": os.urandom(600)}), out, "a unpacks to 600")
    monkeypatch.setattr(packages, "MAX_MEMBERS", 3)
    refused(make_zip(tmp_path / "count.zip", {f"{i}.py": b"" for i in range(4)}), out, "4 entries")
    monkeypatch.setattr(packages, "MAX_UPLOAD_BYTES", 100)
    refused(make_zip(tmp_path / "size.zip", {"main.py": os.urandom(200)}), out, "a bot may have at most 100 bytes")


def test_a_member_larger_than_declared_is_cut_off(tmp_path, out):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("main.py", MAIN)
    data = bytearray(buf.getvalue())
    i = data.find(b"PK\x01\x02")  # central directory: declared uncompressed size at offset 24
    data[i + 24: i + 28] = (4).to_bytes(4, "little")
    (tmp_path / "liar.zip").write_bytes(bytes(data))
    refused(tmp_path / "liar.zip", out, "liar.zip", "main.py")  # a CRC mismatch or "more than it declares"


def test_garbage_is_not_a_zip(tmp_path, out):
    (tmp_path / "junk.zip").write_bytes(os.urandom(300))
    refused(tmp_path / "junk.zip", out, "not a valid zip")


def test_refusals_of_directory_entries(tmp_path, out, monkeypatch):
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "main.py").write_bytes(MAIN)
    (linked / "passwd").symlink_to("/etc/passwd")
    refused(linked, out, "passwd is a symbolic link")
    special = tmp_path / "special"
    special.mkdir()
    (special / "main.py").write_bytes(MAIN)
    os.mkfifo(special / "pipe")
    refused(special, out, "pipe is not a regular file")
    badname = tmp_path / "badname"
    badname.mkdir()
    (badname / "main.py").write_bytes(MAIN)
    Path(os.fsdecode(bytes(badname) + b"/\xff.py")).write_bytes(b"")
    refused(badname, out, "not valid UTF-8")
    crowded = tmp_path / "crowded"
    crowded.mkdir()
    for i in range(5):
        (crowded / f"{i}.py").write_bytes(b"")
    (crowded / "main.py").write_bytes(MAIN)
    monkeypatch.setattr(packages, "MAX_MEMBERS", 3)
    refused(crowded, out, "more than 3 files")
    empty = tmp_path / "empty"
    empty.mkdir()
    refused(empty, out, "no entry point")


def test_check_bytes_applies_the_staging_rules_to_an_upload():
    assert check_bytes(b"print('hi')\n", "bot.py") == "main.py"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("main.js", "console.log(1)\n")
    assert check_bytes(buf.getvalue(), "bot.zip") == "main.js"
    bad = io.BytesIO()
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("../main.py", "x")
    for code, name, reason in [
        (b"\xff\xfe", "bot.py", "UTF-8"),
        (b"not a zip", "bot.zip", "not a valid zip"),
        (bad.getvalue(), "bot.zip", ".."),
        (b"x", "bot.exe", "one .py file, or a .zip"),
    ]:
        with pytest.raises(PackagingError, match=re.escape(reason)):
            check_bytes(code, name)


@pytest.mark.parametrize("name", ["é" * 130 + ".py", "a" * 300 + ".py", "bot\x00.py", ".py", "a/.py", "a\\b.py",
                                  "bot\n.py", "\u202egnp.py", " bot.py", "bot.py ", "bot.exe", "", "\udcff.py"])
def test_check_filename_refuses_names_no_worker_could_write(name):
    with pytest.raises(PackagingError):
        check_filename(name)
    with pytest.raises(PackagingError):
        check_bytes(b"print(1)\n", name)


def test_check_filename_is_one_rule_for_uploads_and_stage(tmp_path, out):
    assert [check_filename(n) for n in ("main.py", "BOT.PY", "my bot.zip", "é" * 126 + ".py")] == \
        [".py", ".py", ".zip", ".py"]
    assert check_bytes(b"print(1)\n", "BOT.PY") == "main.py"  # the same verdict as the first check
    hidden = tmp_path / ".py"
    hidden.write_text("print(1)\n")
    refused(hidden, out, "starts with a dot")
