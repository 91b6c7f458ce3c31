"""Fit the learned Treasure bot's model (model.json) from a `ladder export` of Treasure games.

    python bots/examples/learned/train.py EXPORT_DIR --out bots/examples/learned/model.json

The tutorial "A bot that learns" in docs/bots.md gives the whole walk. What it does:

1. Reads the export's three Parquet files (docs/dataset.md) and, match by match, plays each one
   again on the ladder's own Treasure rules from its seed and logged decisions. That gives every
   decision's observation exactly as the seat saw it; the events each seat could see (the log's
   `visible_to`) feed the same memory the bot keeps (policy.Memory).
2. Keeps the flip decisions of the seats that won their match (rank 1) and played their own
   answer (no fault): the behaviour to copy.
3. For each such decision, one row per other choice: the chosen choice's features minus the
   other's, labelled 1, and the reverse, labelled 0. A logistic regression without intercept on
   these rows (scikit-learn) learns weights under which the winner's choice scores above the
   others: a pairwise, or ranking, logistic policy. The bot plays the top-scoring choice.
4. Writes the weights, rounded, as JSON with sorted keys: the same export gives the same bytes.

Needs pyarrow and scikit-learn (the ladder's `test` extra installs both) and the ladder itself;
the bot that plays the model needs none of them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # policy.py, beside this file, wherever it is run from

from policy import FEATURES, Memory, choices  # noqa: E402

GAME = "treasure"
# Reproducible bytes: Newton's method (newton-cholesky) reaches the one optimum of the strictly
# convex, L2-regularised loss to about 1e-9 in a dozen steps, whatever the BLAS; lbfgs at its
# default tolerance stopped 1e-2 away from it, and at 1e-10 still 2e-5 away. The weights are then
# rounded far above the remaining error.
DIGITS = 4
TOL = 1e-10
C = 1.0  # scikit-learn's default regularisation strength, stated so it stays fixed


def decision_rows(export: Path) -> tuple[list[list[float]], list[list[list[float]]], int]:
    """(chosen features, the other choices' features) per winning flip decision, in match and
    log order; and the number of matches read."""
    import pyarrow.parquet as pq

    from ladder.games import get_game

    game = get_game(GAME)
    matches = pq.read_table(export / "matches.parquet",
                            columns=["match_id", "game", "options", "seed", "players", "has_replay"]).to_pylist()
    wanted = {m["match_id"]: m for m in matches if m["game"] == GAME and m["has_replay"]}
    winners: dict[int, set[int]] = defaultdict(set)
    for seat in pq.read_table(export / "seats.parquet", columns=["match_id", "seat", "rank"]).to_pylist():
        if seat["match_id"] in wanted and seat["rank"] == 1:
            winners[seat["match_id"]].add(seat["seat"])
    log = pq.read_table(export / "log.parquet",
                        columns=["match_id", "index", "entry", "seat", "kind", "payload", "fault", "visible_to"])
    by_match: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in log.to_pylist():
        if row["match_id"] in wanted:
            by_match[row["match_id"]].append(row)
    chosen_rows: list[list[float]] = []
    other_rows: list[list[list[float]]] = []
    for match_id in sorted(wanted):
        match = wanted[match_id]
        state = game.new_state(json.loads(match["options"]), match["seed"], match["players"])
        memories = [Memory() for _ in range(match["players"])]
        for row in sorted(by_match[match_id], key=lambda r: r["index"]):
            payload = json.loads(row["payload"])
            if row["entry"] == "event":
                event = {"type": row["kind"], "data": payload}
                for seat, memory in enumerate(memories):
                    if row["visible_to"] is None or seat in row["visible_to"]:
                        memory.on_event(event)
                continue
            seat = row["seat"]
            if row["kind"] == "flip" and row["fault"] is None and seat in winners[match_id]:
                options = choices(state.observation(seat), memories[seat].known)
                pick = _picked(payload, memories[seat].known, [answer for answer, _ in options])
                chosen_rows.append(options[pick][1])
                other_rows.append([features for i, (_, features) in enumerate(options) if i != pick])
            state.apply(seat, payload)
    return chosen_rows, other_rows, len(wanted)


def _picked(decision: dict[str, Any], known: dict[tuple[int, int], str], answers: list[dict[str, Any]]) -> int:
    """Which of `choices`' answers the logged decision was."""
    if decision.get("stop"):
        return answers.index({"stop": True})
    square = tuple(decision["square"])
    if square not in known:
        return answers.index({"square": "unseen"})
    kind = known[square]
    for i, answer in enumerate(answers):  # a known kind's choice: any square of that kind is the same
        sq = answer.get("square")
        if isinstance(sq, list) and known.get(tuple(sq)) == kind:
            return i
    raise ValueError(f"decision {decision} is none of {answers}")


def fit(chosen: list[list[float]], others: list[list[list[float]]]) -> list[float]:
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    diffs = [[a - b for a, b in zip(good, other, strict=True)] for good, rest in zip(chosen, others, strict=True)
             for other in rest]
    if not diffs:
        raise SystemExit("no winning flip decision with a choice to learn from: is this a Treasure export?")
    x = np.array(diffs + [[-v for v in d] for d in diffs], dtype=np.float64)
    y = np.array([1] * len(diffs) + [0] * len(diffs))
    model = LogisticRegression(C=C, fit_intercept=False, solver="newton-cholesky", tol=TOL,
                               max_iter=1000)
    model.fit(x, y)
    return [round(float(w), DIGITS) + 0.0 for w in model.coef_[0]]  # + 0.0: never a "-0.0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", type=Path, help="a `ladder export` folder (matches/seats/log.parquet)")
    parser.add_argument("--out", type=Path, default=HERE / "model.json", help="where to write the model")
    args = parser.parse_args(argv)
    chosen, others, matches = decision_rows(args.export)
    weights = fit(chosen, others)
    model = {
        "features": list(FEATURES),
        "weights": weights,
        "trained_on": {"game": GAME, "matches": matches, "decisions": len(chosen),
                       "pairs": sum(len(rest) for rest in others)},
    }
    args.out.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(chosen)} winning flip decisions of {matches} matches -> {args.out}")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"  {name:16} {weight:+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
