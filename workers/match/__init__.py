"""One match of sandboxed bots: the runner (runner.py) stages the bots and drives the play loop,
each seat speaks the bot protocol (seat.py, protocol.py), and blame.py decides whose failure it is."""
