"""TCP to services really listening on the host's loopback (Redis, PostgreSQL) and to the outside."""
import socket

import _probe as p

p.context()


def connect(host, port, family=socket.AF_INET):
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        s.connect((host, port))
        return s.recv(100)


p.report(
    redis=p.attempt(connect, "127.0.0.1", 6379),
    postgres=p.attempt(connect, "127.0.0.1", 5432),
    localhost=p.attempt(connect, "localhost", 6379),
    other_port=p.attempt(connect, "127.0.0.2", 22),
)
p.report(done=True)
