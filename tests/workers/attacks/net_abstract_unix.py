"""Abstract unix sockets are per network namespace: the engine's listener must stay out of reach."""
import socket

import _probe as p

ctx = p.context()


def connect(name):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(name)
        s.sendall(b"hello from the bot")
        return "connected"


p.report(engine_listener=p.attempt(connect, b"\0" + ctx["abstract_name"].encode()))
p.report(done=True)
