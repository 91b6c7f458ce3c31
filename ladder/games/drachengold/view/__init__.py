"""How a Drachengold replay is shown: one pass over its log (`timeline`, with the table as one
viewer knows it in `knowledge`), from which both the match page's step list (`steps`, the game's
`Game.renderer`) and the replay viewer's frames (`frames`, its `Game.view`) are drawn. Pure, and
never staged into a bot's sandbox."""
