"""Drachengold's pure rules: the state and its turn flow, the decisions, what a seat observes, the
splits (negotiation, the strategic divide-and-choose), magic, the market, scoring, the deck, and
the forward model's sampler. This folder (with the game's __init__.py) is all of the game a bot's
sandbox is given (`Game.rules_files`)."""
