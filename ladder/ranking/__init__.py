"""The ladder's pure maths over results: multiplayer Elo and its deviation (ratings.py), who plays
whom (matchmaking.py), the collusion statistics (collusion.py) and the ratings' accuracy report
(report.py). No database: the services store
what these compute."""
