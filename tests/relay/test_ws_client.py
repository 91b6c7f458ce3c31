"""The remote seat's websocket client against a server that sends its first frames in the same
TCP write as its handshake answer, as a seat's server does with its hello under load."""

from __future__ import annotations

import base64
import hashlib
import socket
import struct
import threading

import pytest

from ladder.relay import ws_client

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode: int, payload: bytes) -> bytes:
    assert len(payload) < 126
    return bytes([0x80 | opcode, len(payload)]) + payload


@pytest.fixture
def bundling_server():
    """Serves one connection: the 101 and then `tail` in a single sendall. Then it waits for the
    client to go, and closes."""
    listener = socket.create_server(("127.0.0.1", 0))
    sent: dict = {}

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(4096)
            key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                       if line.lower().startswith(b"sec-websocket-key"))
            accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + sent["tail"])
            conn.settimeout(10)
            try:
                while conn.recv(4096):
                    pass
            except OSError:
                pass

    def start(tail: bytes) -> str:
        sent["tail"] = tail
        threading.Thread(target=serve, daemon=True).start()
        return f"ws://127.0.0.1:{listener.getsockname()[1]}/api/v1/seats/1/0/ws"

    yield start
    listener.close()


def test_a_line_sent_with_the_handshake_answer_is_received_at_once(bundling_server):
    # simple-websocket's own Client leaves this frame unread until the server's next bytes arrive
    url = bundling_server(frame(0x1, b'{"type":"hello","seat":0}'))
    ws = ws_client.connect(url, "token")
    try:
        assert ws.receive(5) == '{"type":"hello","seat":0}'
    finally:
        ws.close()


def test_a_close_sent_with_the_handshake_answer_ends_the_connection_after_its_lines(bundling_server):
    close = frame(0x8, struct.pack("!H", 1000) + b"the match is over")
    url = bundling_server(frame(0x1, b'{"type":"end"}') + close)
    ws = ws_client.connect(url, "token")
    assert ws.receive(5) == '{"type":"end"}'
    with pytest.raises(ws_client.ConnectionClosed):
        ws.receive(5)
    assert (ws.close_reason, ws.close_message) == (1000, "the match is over")
