"""Treasure of the Dragons' pure rules: the state, its decisions, what a seat observes, the tiles,
and the forward model's sampler. This folder (with the game's __init__.py) is all of the game a
bot's sandbox is given (`Game.rules_files`)."""
