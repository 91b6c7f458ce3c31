"""The websocket client of a remote seat (`ladder connect`, and the tests that stand for it).

It is simple-websocket's Client, with one fix. Version 1.1 takes only the handshake's own event from
its first read of the socket. Any frame the server sent right after its 101, in the same TCP
segment, stays in wsproto's buffer until more bytes arrive. Here that is the server's next ping,
10 s later. A seat's server sends its hello (or a waiting request) at once, so under load the
first line reached the program 10 s late. That could be a decision's whole clock.
"""

from __future__ import annotations

import simple_websocket

ConnectionClosed = simple_websocket.ConnectionClosed
ConnectionError = simple_websocket.ConnectionError  # the library's name: callers catch it as they would its own


class Client(simple_websocket.Client):
    def handshake(self) -> None:
        super().handshake()
        # Process the frames that came with the 101 before the reader thread starts; wsproto is not
        # thread-safe. A close among them ends the connection as the reader would: the socket is
        # closed, the reader finds it so, and receive() returns the lines that came before the close,
        # then raises. `connected` stays True until then, or Base.__init__ would raise ConnectionError.
        if not self._handle_events():
            self.sock.close()
        self.connected = True


def connect(url: str, token: str) -> Client:
    return Client.connect(url, headers={"Authorization": f"Bearer {token}"})
