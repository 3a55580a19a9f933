"""A browser app on another origin can call the API: preflights allow what a
scorekeeping app sends, answers expose what it reads back (CORS)."""

from __future__ import annotations

from tests.support.http import create

APP = "https://scores.example"


def test_a_preflight_for_a_move_allows_its_headers(client):
    game = create(client, game="dobro", players=["Ann", "Bob"])
    answer = client.options(
        f"/games/{game['id']}/moves",
        headers={
            "Origin": APP,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, "
            "idempotency-key",
        },
    )
    assert answer.status_code in (200, 204), answer.text
    assert answer.headers["access-control-allow-origin"] in ("*", APP)
    assert "POST" in answer.headers["access-control-allow-methods"]
    allowed = answer.headers["access-control-allow-headers"].lower()
    for header in ("authorization", "content-type", "idempotency-key"):
        assert header in allowed
    assert "access-control-allow-credentials" not in answer.headers


def test_an_answer_to_another_origin_exposes_what_an_app_reads(client):
    answer = client.post(
        "/games",
        json={"game": "dobro", "players": ["Ann", "Bob"]},
        headers={"Origin": APP},
    )
    assert answer.status_code == 201
    assert answer.headers["access-control-allow-origin"] in ("*", APP)
    exposed = answer.headers["access-control-expose-headers"].lower()
    for header in ("etag", "location", "retry-after"):
        assert header in exposed
