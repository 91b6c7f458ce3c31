"""DragonFlame's pure rules: the round (state), the decisions, what a seat observes, the village
grid and its fire, the end and its scoring, the card data, and what the house bots reason with
(the forward model's sampler and the outlook). This folder (with the game's __init__.py) is all of
the game a bot's sandbox is given (`Game.rules_files`)."""
