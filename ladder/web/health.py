"""`/healthz`: this process answers (nothing else is touched: a liveness probe must not fail
because PostgreSQL restarts, or every web process would be restarted with it). `/readyz`: the
database answers at the schema this code needs and the broker answers; 503 with the reasons
otherwise, so a load balancer stops sending requests here until they are back.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from ladder.services.health import readiness

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    return _no_store(jsonify(status="ok")), 200


@bp.get("/readyz")
def readyz():
    state = current_app.extensions["ladder"]
    checks = readiness(state.engine, state.settings.broker_url)
    ok = all(c.ok for c in checks)
    body = {"status": "ready" if ok else "unready", "checks": {c.name: c.as_json() for c in checks}}
    if not ok:
        body["reason"] = "; ".join(f"{c.name}: {c.detail}" for c in checks if not c.ok)
    return _no_store(jsonify(body)), 200 if ok else 503


def _no_store(response):
    response.headers["Cache-Control"] = "no-store"
    return response
