"""A bot as files, before anything runs it: what a package may be (packages.py), its data folder
as values (data.py) and the runtime table (runtimes.py). Pure, and this package imports nothing:
`python3 -m ladder.bot.runtimes --packages` runs with the system python (the Dockerfile, .ci/run)."""
