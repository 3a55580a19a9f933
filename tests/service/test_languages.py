"""Refusals in the request's language: `Accept-Language` chooses English or French
for a problem's `detail`, and the answer says which it chose."""

from __future__ import annotations

import pytest

from domain.registry import BUILT_IN
from service.application.wording import catalogues
from service.http.languages import negotiated
from tests.support.http import create, move


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("fr", "fr"),
        ("fr-FR", "fr"),
        ("FR-ca", "fr"),
        ("fr-CA,en;q=0.5", "fr"),
        ("en;q=0.2, fr;q=0.9", "fr"),
        ("de, fr;q=0.1", "fr"),
        ("en-GB,fr;q=0.8", "en"),
        ("fr;q=0, en;q=0.1", "en"),
        ("fr;q=0", "en"),
        ("de", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("garbage;;q=x", "en"),
    ],
)
def test_accept_language_chooses_the_best_language_spoken(header, code):
    assert negotiated(header, catalogues(BUILT_IN)).code == code


def dobro(client) -> dict:
    return create(client, game="dobro", players=["Ana", "Bo"], first_player="Ana")


def test_a_refused_move_is_worded_in_french_with_its_ruling_D8(client):
    game = dobro(client)
    answer = move(
        client, game, {"type": "take", "player": "Bo"}, **{"Accept-Language": "fr-FR"}
    )
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["rule"] == "D8"
    assert problem["detail"] == "C'est à Ana de jouer, pas à Bo. (D8)"
    assert problem["title"] == "Coup refusé"
    assert answer.headers["content-language"] == "fr"
    assert "accept-language" in answer.headers["vary"].lower()


def test_with_no_accept_language_a_refusal_is_in_english_D8(client):
    game = dobro(client)
    answer = move(client, game, {"type": "take", "player": "Bo"})
    assert answer.status_code == 422
    assert answer.json()["detail"] == "It is Ana's turn, not Bo's. (D8)"
    assert answer.json()["title"] == "Move not allowed"
    assert answer.headers["content-language"] == "en"


def test_a_wrong_token_and_a_late_move_are_refused_in_french(client):
    game = dobro(client)
    french = {"Accept-Language": "fr"}
    wrong = client.post(
        f"/games/{game['id']}/moves",
        json={"type": "take", "player": "Ana"},
        headers={"Authorization": "Bearer nope", **french},
    )
    assert wrong.status_code == 403
    assert wrong.json()["detail"] == "Ce n'est pas le jeton d'écriture de cette partie."
    late = move(
        client,
        game,
        {"type": "play", "player": "Ana", "cards": [5], "expected_version": 7},
        **french,
    )
    assert late.status_code == 409
    assert late.json()["detail"].startswith("La partie est à la version 1, pas 7 :")
    assert late.json()["version"] == 1


def test_a_game_that_is_not_there_is_said_in_french(client):
    missing = "00000000-0000-4000-8000-000000000000"
    answer = client.get(f"/games/{missing}", headers={"Accept-Language": "fr"})
    assert answer.status_code == 404
    assert answer.json()["detail"] == f"Il n'y a pas de partie {missing}."
    assert answer.headers["content-language"] == "fr"


def test_the_replay_tells_each_move_in_the_requests_language(client):
    game = dobro(client)
    assert move(
        client, game, {"type": "play", "player": "Ana", "cards": [5]}
    ).is_success
    path = f"/games/{game['id']}/replay/1"
    english = client.get(path)
    french = client.get(path, headers={"Accept-Language": "fr-FR"})
    assert english.json()["description"] == "Ana plays 5: the value is 5"
    assert french.json()["description"] == "Ana joue 5 : la valeur en jeu est 5"
    assert french.headers["vary"] == "Accept-Language, Authorization"
    # Each language has its own tag: a cache never serves one for the other.
    assert english.headers["etag"] != french.headers["etag"]
    again = client.get(
        path, headers={"Accept-Language": "fr", "If-None-Match": french.headers["etag"]}
    )
    assert again.status_code == 304
    assert again.headers["vary"] == "Accept-Language, Authorization"
    page = client.get(f"/games/{game['id']}/replay", headers={"Accept-Language": "fr"})
    assert page.json()["steps"][0]["description"] == french.json()["description"]
