"""Raw packets: AF_PACKET and raw IP sockets."""
import socket

import _probe as p

p.context()
AF_PACKET = 17
p.report(
    packet=p.attempt(socket.socket, AF_PACKET, socket.SOCK_RAW, 0x0300),
    raw_ip=p.attempt(socket.socket, socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP),
)
p.report(done=True)
