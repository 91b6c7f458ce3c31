"""`python -P tests/toygame [OUT]`: rewrite the toy golden replay (tests/golden/README.md)."""

import importlib.util
import sys
from pathlib import Path


def main() -> None:
    # The package is loaded by its registry name, "toygame", from its folder, without tests/ on the
    # path (its `bots` test folder would shadow the real `bots` package); Python put the package's
    # own folder first on the path for `python tests/toygame`, so that comes off too.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    spec = importlib.util.spec_from_file_location("toygame", here / "__init__.py",
                                                  submodule_search_locations=[str(here)])
    toygame = importlib.util.module_from_spec(spec)
    sys.modules["toygame"] = toygame
    spec.loader.exec_module(toygame)

    import ladder.games
    from ladder.replay import write_replay

    ladder.games.GAMES.setdefault(*toygame.REGISTRY_ENTRY)
    write_replay(toygame.golden_replay(), sys.argv[1] if len(sys.argv) > 1 else toygame.GOLDEN)


main()
