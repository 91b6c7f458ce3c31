"""A starter bot for the python-ml runtime (Python 3 with PyTorch on the CPU and scikit-learn).

It plays every game as the Python kit's starter bot does (starter.py, the same file as the Python
kit's main.py), except one decision taken by a model: in Treasure of the Dragons, after a flip,
whether to stop. The model is a one-layer torch network (logistic regression) over three features
of the turn so far. Its weights are set by hand here (stop sooner the more the turn has found and
the more dragons it has shown); a `model.pt` beside this file, saved with
`torch.save(model.state_dict(), "model.pt")`, replaces them: train one on the ladder's own games
and ship it in your upload.

The ladder pins every math library's thread pool (OpenMP, OpenBLAS, MKL; torch follows OpenMP) to
the bot's CPU quota through the environment, so `torch.get_num_threads()` is 1 on a ladder whose
bots get one core, however many the worker has.
"""

from __future__ import annotations

import os

import torch
from starter import StarterBot, run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model.pt")
# P(stop) = sigmoid(w . [treasures found this turn, dragons shown this turn] + b)
HAND_WEIGHTS = ([[1.2, 1.5]], [-3.0])


def stop_model() -> torch.nn.Module:
    model = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Sigmoid())
    if os.path.exists(MODEL):
        model.load_state_dict(torch.load(MODEL))
    else:
        with torch.no_grad():
            model[0].weight.copy_(torch.tensor(HAND_WEIGHTS[0]))
            model[0].bias.copy_(torch.tensor(HAND_WEIGHTS[1]))
    return model.eval()


class MLBot(StarterBot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.model = stop_model()
        self.log(f"torch {torch.__version__}, {torch.get_num_threads()} thread(s)")

    def treasure_flip(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        if req["can_stop"]:
            kinds = [tile["kind"] for tile in obs["flipped"]]
            dragons = kinds.count("dragon")
            treasures = len(kinds) - dragons - kinds.count("spider")
            with torch.no_grad():
                p_stop = float(self.model(torch.tensor([[float(treasures), float(dragons)]])))
            if self.rng.random() < p_stop:
                return {"stop": True}
        return {"square": self.rng.choice(req["squares"])}


if __name__ == "__main__":
    run(MLBot)
