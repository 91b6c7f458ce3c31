"""The ladder's pure maths over results: multiplayer Elo (ratings.py), who plays whom
(matchmaking.py) and the collusion statistics (collusion.py). No database: the services store
what these compute."""
