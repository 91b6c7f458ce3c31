"""How a Toy Nim replay is shown: one pass over its log (`timeline`), from which both the match
page's step list (`steps`, the game's `Game.renderer`) and the replay viewer's frames (`frames`, its
`Game.view`) are drawn; the page's partial (templates/) and the viewer's script and style (static/).
Pure, and never staged into a bot's sandbox."""
