"""Each slot's network namespace (workers/sandbox/netns.py): kept for the slot, never shared by two
bots that run at once, never holding anything of the slot's previous bot, never held by a bot."""

from __future__ import annotations

import json
import os
import secrets
import time

import pytest

from workers.sandbox import netns as sandbox_netns

# Allowance for a start and first line (a VM under software emulation is slow: test_attacks.SLOW).
SLOW = 15 if os.environ.get("LADDER_VM_CLOCK") == "1" else 3

WHERE = """import json, os, sys
fds = {}
for fd in os.listdir("/proc/self/fd"):
    try:
        fds[fd] = os.readlink(f"/proc/self/fd/{fd}")
    except FileNotFoundError:  # the listing's own descriptor, closed by now
        pass
print(json.dumps({"net": os.readlink("/proc/self/ns/net"), "fds": fds}), flush=True)
sys.stdin.readline()
"""

# Binds an abstract unix socket, and reaches it from a second socket of its own (the control: the
# name is really there); or (role "connect") tries to reach one.
MEET = """import errno, json, socket, sys
ask = json.loads(sys.stdin.readline())
name = b"\\0" + ask["name"].encode()
try:
    if ask["role"] == "listen":
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(name)
        listener.listen(1)
    own = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    own.connect(name)
    said = "connected"
except OSError as exc:
    said = "err:" + errno.errorcode.get(exc.errno, str(exc.errno))
print(json.dumps({"said": said}), flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def fresh_namespaces():
    """No namespace kept from an earlier test, none left to a later one."""
    sandbox_netns.forget()
    yield
    sandbox_netns.forget()


def _line(bp) -> dict:
    line, reason = bp.read_line(time.monotonic() + SLOW)
    assert reason == "ok", (reason, bp.stderr_tail())
    return json.loads(line)


def _kept(slot: int) -> str:
    return os.readlink(f"/proc/self/fd/{sandbox_netns.for_slot(slot)}")


def test_a_slot_keeps_one_namespace_and_bots_that_run_at_once_never_share_one(strict_sandbox, kit, fresh_namespaces):
    host = os.readlink("/proc/self/ns/net")
    first, second = kit.start(WHERE, mode=strict_sandbox), kit.start(WHERE, mode=strict_sandbox)
    a, b = _line(first)["net"], _line(second)["net"]
    assert first.slot != second.slot
    assert len({host, a, b}) == 3  # neither bot is in the host's, nor in the other's
    assert a == _kept(first.slot) and b == _kept(second.slot)
    slot = first.slot
    first.close()
    again = kit.start(WHERE, mode=strict_sandbox, slot=slot)
    assert _line(again)["net"] == a  # the slot's own, made once


def test_an_abstract_socket_goes_with_its_bot(strict_sandbox, kit, fresh_namespaces):
    """What a namespace holds for a bot (its abstract unix socket names) is gone once the bot is:
    the slot's next bot cannot reach it, nor can a bot of another slot while it is there."""
    name = "ladder-netns-" + secrets.token_hex(6)

    def meet(role: str, **kw) -> tuple[object, str]:
        bot = kit.start(MEET, mode=strict_sandbox, **kw)
        assert bot.send_line(json.dumps({"role": role, "name": name}).encode(), time.monotonic() + 5)[0]
        return bot, _line(bot)["said"]

    listener, said = meet("listen")
    assert said == "connected"  # bound: its own second socket reaches it
    assert meet("connect")[1] == "err:ECONNREFUSED"  # another slot's bot, meanwhile
    slot = listener.slot
    listener.close()
    assert listener.clean
    assert meet("connect", slot=slot)[1] == "err:ECONNREFUSED"  # the slot's next bot


def test_the_namespace_descriptor_never_reaches_the_bot(strict_sandbox, kit, fresh_namespaces, start_window):
    bot = kit.start(WHERE, mode=strict_sandbox)
    seen = _line(bot)
    assert seen["net"] == _kept(bot.slot)  # joined by this window
    assert not [link for link in seen["fds"].values() if link.startswith("net:")], seen["fds"]
    assert sorted(seen["fds"]) == ["0", "1", "2"]  # stdio only


def test_where_no_namespace_can_be_kept_bwrap_makes_one_per_bot(
    monkeypatch, strict_sandbox, kit, capfd, fresh_namespaces
):
    def refused():
        raise PermissionError(1, "unshare(CLONE_NEWNET): Operation not permitted")

    monkeypatch.setattr(sandbox_netns, "_make", refused)
    host = os.readlink("/proc/self/ns/net")
    # at once: a freed namespace's number is given to the next one made, so compare live ones only
    first, second = kit.start(WHERE, mode=strict_sandbox), kit.start(WHERE, mode=strict_sandbox)
    assert len({host, _line(first)["net"], _line(second)["net"]}) == 3  # bwrap's own, never the host's
    assert sandbox_netns._kept == {}
    said = capfd.readouterr().err
    assert said.count("one per slot could not be made (") == 1, said  # once, with why
