"""The compile step: a compiled upload builds in the strict sandbox with its runtime's compiler
only, within its limits, and the artifact is kept by key and reused; a build that fails says why
with the compiler's own words."""

from __future__ import annotations

import io
import shutil
import stat
import tarfile
import tempfile
from pathlib import Path

import pytest
from needs import unavailable

from ladder.bot import runtimes
from workers.build import builds, packaging

GOOD_C = "#include <stdio.h>\nint main(void) { puts(\"{}\"); return 0; }\n"


@pytest.fixture
def parent():
    """A folder the sandbox's uids can reach (pytest's tmp_path is root's alone)."""
    path = Path(tempfile.mkdtemp(prefix="builds-test-"))
    path.chmod(0o755)
    yield path
    for item in path.iterdir():
        packaging.remove_staged(item)
    shutil.rmtree(path, ignore_errors=True)


def _c_bot(parent: Path, source: str, name: str = "src") -> packaging.StagedBot:
    if not runtimes.available(runtimes.BY_NAME["c"])[0]:
        unavailable("the c runtime: " + runtimes.available(runtimes.BY_NAME["c"])[1])
    folder = parent / f"upload-{name}"
    folder.mkdir()
    (folder / "main.c").write_text(source)
    return packaging.stage(folder, parent)


def test_a_c_bot_builds_in_the_sandbox_into_an_executable(strict_sandbox, parent):
    staged = _c_bot(parent, GOOD_C)
    assert staged.needs_build and staged.runtime == "c"
    build = builds.compile_bot(staged, mode=strict_sandbox)
    assert build.ok, build.log
    assert build.runtime == "c" and "gcc" in build.toolchain and build.seconds > 0
    with tarfile.open(fileobj=io.BytesIO(build.artifact)) as tar:
        assert "./bot" in tar.getnames() or "bot" in tar.getnames()
    ready = builds.stage_artifact(build.artifact, staged.entry, parent, build.key)
    assert ready.built and not ready.needs_build and ready.command == ["./bot"] and ready.build_key == build.key
    mode = (ready.path / "bot").stat().st_mode
    assert mode & stat.S_IXOTH and not mode & stat.S_IWUSR  # runnable by the bot's uid, read-only


def test_a_failed_build_says_what_the_compiler_said(strict_sandbox, parent):
    staged = _c_bot(parent, "int main(void) { return undeclared_thing; }\n")
    build = builds.compile_bot(staged, mode=strict_sandbox)
    assert not build.ok and build.artifact is None
    assert "undeclared_thing" in build.log and "error" in build.log
    assert "exited with code 1" in build.log
    reason = build.failure()
    assert reason.startswith("the c build failed (gcc-12") and "undeclared_thing" in reason


def test_a_build_sees_none_of_the_hosts_files(strict_sandbox, parent):
    # the compiler is real, but the host's /etc is not there: only the runtime's build tree
    staged = _c_bot(parent, '#include "/etc/passwd"\nint main(void) { return 0; }\n')
    build = builds.compile_bot(staged, mode=strict_sandbox)
    assert not build.ok and "/etc/passwd" in build.log and "No such file" in build.log


def test_a_build_that_runs_too_long_is_stopped(strict_sandbox, parent):
    staged = _c_bot(parent, '#include "/dev/zero"\n')  # the preprocessor reads forever
    build = builds.compile_bot(staged, mode=strict_sandbox,
                               limits=builds.BuildLimits(wall_seconds=3, memory_bytes=256 << 20))
    assert not build.ok
    assert "longer than 3 s" in build.log or "out of memory" in build.log


def test_a_build_whose_output_is_too_big_is_refused(strict_sandbox, parent):
    staged = _c_bot(parent, GOOD_C)
    build = builds.compile_bot(staged, mode=strict_sandbox, limits=builds.BuildLimits(artifact_bytes=2000))
    assert not build.ok and "over 2000 bytes" in build.log


def test_the_cache_keeps_an_artifact_and_a_changed_source_builds_again(strict_sandbox, parent):
    cache = builds.DirCache(parent / "cache")
    built: list[str] = []
    first = _c_bot(parent, GOOD_C, "a")
    _ready, build = builds.ensure_built(first, mode=strict_sandbox, cache=cache, parent=parent, announce=built.append)
    assert build is not None and built == ["c"] and cache.get(build.key) == build.artifact
    assert (parent / "cache" / f"{build.key}.log").is_file()
    same = _c_bot(parent, GOOD_C, "b")
    again, none = builds.ensure_built(same, mode=strict_sandbox, cache=cache, parent=parent, announce=built.append)
    assert none is None and built == ["c"] and again.build_key == build.key  # the same files: no second build
    changed = _c_bot(parent, GOOD_C.replace("{}", "{ }"), "c")
    _, other = builds.ensure_built(changed, mode=strict_sandbox, cache=cache, parent=parent, announce=built.append)
    assert other is not None and other.key != build.key and built == ["c", "c"]


def test_a_failed_build_raises_with_the_build_and_is_not_cached(strict_sandbox, parent):
    cache = builds.DirCache(parent / "cache")
    broken = _c_bot(parent, "int main(void) { syntax error }\n")
    with pytest.raises(builds.BuildFailed) as info:
        builds.ensure_built(broken, mode=strict_sandbox, cache=cache, parent=parent)
    assert "syntax" in str(info.value) or "error" in str(info.value)
    assert not (parent / "cache").exists() or not list((parent / "cache").iterdir())


def test_the_key_names_the_runtime_its_toolchain_and_the_source():
    c, cpp = runtimes.BY_NAME["c"], runtimes.BY_NAME["cpp"]
    assert builds.build_key(c, "s1") == builds.build_key(c, "s1")
    assert len({builds.build_key(c, "s1"), builds.build_key(c, "s2"), builds.build_key(cpp, "s1")}) == 3


def test_an_artifact_with_a_link_or_without_its_executable_is_refused():
    def tar_of(*members: tarfile.TarInfo) -> bytes:
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as tar:
            for m in members:
                tar.addfile(m, io.BytesIO(b"x" * m.size) if m.isfile() else None)
        return out.getvalue()

    c = runtimes.BY_NAME["c"]
    link = tarfile.TarInfo("bot")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    with pytest.raises(ValueError, match="not a plain file"):
        builds._check_artifact(tar_of(link), c, builds.BUILD_LIMITS)
    other = tarfile.TarInfo("a.out")
    other.size = 3
    with pytest.raises(ValueError, match="made no bot"):
        builds._check_artifact(tar_of(other), c, builds.BUILD_LIMITS)
