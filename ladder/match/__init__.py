"""A match as pure values shared by the site, the worker and the CLI (plan.py); imports no bots/
and no workers/."""

from ladder.match.plan import (
    OUTSIDE,
    SANDBOXED,
    STRIKES,
    HouseBot,
    LocalCode,
    MatchPlan,
    Person,
    RemoteProgram,
    SeatPlan,
    TimeControl,
    UploadedCode,
    local_plan,
    local_seat,
    plan,
)

__all__ = ["OUTSIDE", "SANDBOXED", "STRIKES", "HouseBot", "LocalCode", "MatchPlan", "Person", "RemoteProgram",
           "SeatPlan", "TimeControl", "UploadedCode", "local_plan", "local_seat", "plan"]
