"""UDP datagrams to the loopback and to a resolver."""
import socket

import _probe as p

p.context()


def send(host, port):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        return s.sendto(b"ping", (host, port))


p.report(loopback=p.attempt(send, "127.0.0.1", 53), resolver=p.attempt(send, "127.0.0.53", 53))
p.report(done=True)
