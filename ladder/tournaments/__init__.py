"""Tournaments: a fixed field, a fixed schedule, and duplicate seating so luck cancels.

Pure code, no I/O, clock or global random: `model` makes the schedule (which entrants sit where,
on which deal), `standings` turns played matches into standings, a crosstable and per-deal
results. `ladder tournament` (ladder/cli/tournament.py) runs a schedule on the author's
machine; the site runs the same schedule on its workers.
"""
