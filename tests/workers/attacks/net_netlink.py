"""netlink: routing tables, audit, uevents."""
import socket

import _probe as p

p.context()
AF_NETLINK = 16
p.report(
    route=p.attempt(socket.socket, AF_NETLINK, socket.SOCK_RAW, 0),
    uevent=p.attempt(socket.socket, AF_NETLINK, socket.SOCK_DGRAM, 15),
)
p.report(done=True)
