"""The relay between a running match and the outside world: topics and their backends
(backends.py), what crosses it for a seat played from outside (seat_relay.py), and the websocket
client of such a seat (ws_client.py)."""
