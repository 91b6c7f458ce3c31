"""The house bots of treasure: each file is one whole bot, run as main.py in its sandbox; copy one to start."""
