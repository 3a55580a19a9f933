"""A replay step's picture as described (`domain.picture`): the frame every game
shares, text cut to fit, a card's colour of the table's own."""

from __future__ import annotations

from domain.dobro import Dobro
from domain.dobro.components import DOBRO_DECK
from domain.dozito.components import Card
from domain.dozito.picture import _card
from domain.frame import pictured
from domain.game import Setup
from domain.history import History
from domain.picture import Label, Picture, Scene, fit
from domain.registry import BUILT_IN


def texts(picture: Picture) -> list[str]:
    return [item.text for item in picture.items if isinstance(item, Label)]


def test_a_long_text_is_cut_with_an_ellipsis():
    assert fit("Maëlle", 10) == "Maëlle"
    assert fit("Bartholomew the Third", 10) == "Bartholom…"


def test_every_game_s_picture_names_the_game_the_step_and_its_sentence():
    for name, rules in BUILT_IN.items():
        setup = Setup(players=("Ana", "Bo"), first_player="Ana", seed=1)
        view = History.start(rules, setup).view()
        said = texts(pictured(rules, view, 7, "Ana plays", BUILT_IN.languages["fr"]))
        assert rules.labels["fr"] in said, name
        assert "Étape 7" in said and "Ana plays" in said, name
        assert "À Ana de jouer" in " ".join(said), name


class Bare(Dobro):
    """Dobro's rules with a scene of the table that shows nothing."""

    def picture(self, view, language):
        return Scene((), None, ())


def test_a_game_whose_scene_shows_nothing_gets_the_frame():
    plain = Bare(DOBRO_DECK, "Dobro")
    view = History.start(
        plain, Setup(players=("Ana", "Bo"), first_player="Ana", seed=1)
    )
    said = texts(pictured(plain, view.view(), 0, None, BUILT_IN.languages["en"]))
    assert said == ["Dobro", "Step 0", "The game as created"]


def test_a_dozito_colour_of_the_table_s_own_is_written_on_its_card():
    named = _card(0, 0, Card(color="ochre", number=4, suns=0), 36, 46)
    assert "ochre" in [item.text for item in named if isinstance(item, Label)]
    red = _card(0, 0, Card(color="red", number=4, suns=0), 36, 46)
    assert "red" not in [item.text for item in red if isinstance(item, Label)]
