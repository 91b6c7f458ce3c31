"""Speed measurements behind `ladder bench ...`: each prints numbers and asserts nothing.

`engine` (ladder.bench.engine) times the rules engine in-process; the sandbox bench lives beside it.
"""
