"""IPv6: Redis also listens on [::1]."""
import socket

import _probe as p

p.context()


def connect():
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        s.connect(("::1", 6379))
        return s.recv(100)


p.report(redis_v6=p.attempt(connect), udp6=p.attempt(socket.socket, socket.AF_INET6, socket.SOCK_DGRAM))
p.report(done=True)
