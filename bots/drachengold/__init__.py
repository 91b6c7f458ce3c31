"""The house bots of drachengold: each file is one whole bot, run as main.py in its sandbox; copy one to start."""
