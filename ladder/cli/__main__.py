"""`python -m ladder.cli`: the `ladder` command without its console script (the supervisor's children)."""

from ladder.cli import main

main()
