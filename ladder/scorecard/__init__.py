"""The scorecard (issue #45), pure: every game's measures of a finished match (common.py, beside
each game's own part, ladder/games/scorecard.py) and how stored tallies merge and read (tallies.py).
The database side is ladder/services/scorecard.py; the formulas are docs/scorecard.md."""
