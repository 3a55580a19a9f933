"""A replay step as a picture (`GET /games/{id}/replay/{step}/image`): SVG, PNG and
GIF over HTTP on the real database, showing the public state of each game, its
names escaped, in the language asked, with the bounds and caching of docs/api.md."""

from __future__ import annotations

import asyncio
import io
import threading
import uuid
from collections import defaultdict
from xml.etree import ElementTree

import pytest
from PIL import Image, ImageSequence

from domain.picture import CARD_BACK, HEADER, TOP, Label, Picture
from domain.registry import BUILT_IN
from service import bootstrap
from service.application.errors import Busy, Invalid
from service.application.games import Games
from service.application.observers import NoReadSide, Unobserved
from service.application.pictures import MAX_FRAMES, Pictures, step_picture
from service.http.pictures import RENDERERS
from service.http.pictures.svg import svg
from tests.support.http import create, live_histories, move, play_simulated, view
from tests.support.snapshots import cold_timelines, snapshotted_game

SVG = "{http://www.w3.org/2000/svg}"
ENGLISH = BUILT_IN.languages["en"]
# Names a table might type, and one an attacker picks to break out of the markup.
PLAYERS = {
    "dobro": ["Zoë", "Bo <b>&amp;", "Caio"],
    "dobro-pixar": ["Priscila", 'Ma"uri</text>', "Karen", "Zoë"],
    "dozito": ["Arthur", "Maëlle", "<script>x</script>"],
    "double-donkey": ["Olivia", "Fran&", "Jan", "Zoë"],
}
MOVES = 30


@pytest.fixture(scope="module", params=sorted(PLAYERS))
def played(request, client):
    players = PLAYERS[request.param]
    game = create(client, game=request.param, players=players, seed=5)
    play_simulated(client, game, limit=MOVES)
    return game


def url(game: dict, step: int) -> str:
    return f"/games/{game['id']}/replay/{step}/image"


def labels(svg: bytes, size: int | None = None) -> list[tuple[int, int, str]]:
    """The texts of an SVG picture (of one size, or all): (x, y, text), the document
    parsed as XML."""
    root = ElementTree.fromstring(svg)
    return [
        (int(t.get("x")), int(t.get("y")), t.text or "")
        for t in root.iter(f"{SVG}text")
        if size is None or t.get("font-size") == str(size)
    ]


def rows(svg: bytes) -> dict[int, list[str]]:
    """The texts of a picture by line (their baseline)."""
    lines = defaultdict(list)
    for _, y, text in sorted(labels(svg), key=lambda label: label[0]):
        lines[y].append(text)
    return lines


def test_each_game_s_svg_shows_names_hand_sizes_scores_and_whose_turn(client, played):
    state = view(live_histories(played, limit=MOVES)[MOVES])
    answer = client.get(url(played, MOVES), params={"format": "svg"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("image/svg+xml")
    lines = rows(answer.content)
    texts = [text for line in lines.values() for text in line]
    columns = sum(k in state for k in ("hand_sizes", "score_piles", "personal_piles"))
    columns += "totals" in state
    for name in played["players"]:
        # A player's values follow the first label of their name (as far as the
        # picture has room for it) on a line.
        values = next(
            line[n + 1 : n + 1 + columns]
            for _, line in sorted(lines.items())
            for n, text in enumerate(line)
            if n + 1 < len(line)
            and len(text) > 2
            and name.startswith(text.removesuffix("…"))
        )
        if "hand_sizes" in state:
            assert values[0] == str(state["hand_sizes"][name])
        if "totals" in state:
            assert values[-1].split()[0] == str(state["totals"][name])
    if state["next_player"] is not None:
        assert f"{state['next_player']} to play" in " ".join(texts)
    assert "Step 30" in texts


def test_names_are_escaped_so_the_svg_holds_no_markup_of_theirs(client, played):
    answer = client.get(url(played, MOVES), params={"format": "svg"})
    root = ElementTree.fromstring(answer.content)
    assert {element.tag for element in root.iter()} <= {
        f"{SVG}{tag}" for tag in ("svg", "title", "rect", "text")
    }
    for raw in (b"<b>", b"<script>", b'</text>"', b"Fran&<"):
        assert raw not in answer.content


def test_a_dozito_picture_shows_only_the_cards_face_up(client):
    game = create(client, game="dozito", players=["Ana", "Bo"], seed=11)
    play_simulated(client, game, limit=12)
    state = view(live_histories(game, limit=12)[12])
    svg = client.get(url(game, 12), params={"format": "svg"}).content
    # The grids lie between the names and the piles: every face there is a card.
    grid = (TOP + 30, TOP + 200)
    faces = sorted(t for _, y, t in labels(svg, 18) if grid[0] < y < grid[1])
    shown = [
        "★" if card["joker"] else str(card["number"])
        for spots in state["grids"].values()
        for card in spots
        if card is not None
    ]
    assert faces == sorted(shown)
    root = ElementTree.fromstring(svg)
    backs = [
        r
        for r in root.iter(f"{SVG}rect")
        if r.get("fill") == CARD_BACK and grid[0] < int(r.get("y")) < grid[1]
    ]
    face_down = sum(spot is None for g in state["grids"].values() for spot in g)
    assert len(backs) == 2 * face_down  # a back is drawn as two boxes


def test_step_0_is_the_game_as_created_and_says_so(client, played):
    svg = client.get(url(played, 0), params={"format": "svg"}).content
    assert "The game as created" in [t for _, _, t in labels(svg)]
    assert "Step 0" in [t for _, _, t in labels(svg)]


def test_a_png_decodes_at_the_picture_s_size_and_colours(client, played):
    answer = client.get(url(played, 5), headers={"Accept": "image/png"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(answer.content))
    assert image.format == "PNG" and image.size == (960, 540)
    assert image.convert("RGB").getpixel((4, 4)) == _rgb(HEADER)


def test_a_gif_has_a_frame_per_step_of_its_range(client, played):
    answer = client.get(url(played, 0), params={"format": "gif", "from": 3, "to": 12})
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/gif"
    image = Image.open(io.BytesIO(answer.content))
    assert image.is_animated and image.n_frames == 10
    assert image.size == (960, 540)
    frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]
    assert {frame.getpixel((4, 4)) for frame in frames} == {_rgb(HEADER)}
    # Each frame shows its own step (its number, at least, changes).
    assert len({frame.tobytes() for frame in frames}) == 10


def test_a_gif_runs_from_the_path_s_step_to_the_last_by_default(client, played):
    answer = client.get(url(played, 25), headers={"Accept": "image/gif"})
    assert Image.open(io.BytesIO(answer.content)).n_frames == MOVES - 25 + 1


def test_from_or_to_ask_for_a_gif(client, played):
    answer = client.get(url(played, 0), params={"to": 2})
    assert answer.headers["content-type"] == "image/gif"
    assert Image.open(io.BytesIO(answer.content)).n_frames == 3


@pytest.mark.parametrize(
    ("accept", "media_type"),
    [
        (None, "image/png"),
        ("*/*", "image/png"),
        ("image/svg+xml", "image/svg+xml"),
        ("image/webp,image/svg+xml,image/*;q=0.8", "image/svg+xml"),
        ("image/*", "image/png"),
        ("image/gif", "image/gif"),
    ],
)
def test_accept_chooses_the_format(client, played, accept, media_type):
    headers = {} if accept is None else {"Accept": accept}
    answer = client.get(url(played, 3), headers=headers)
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] == media_type
    assert "Accept" in answer.headers["vary"]


def test_format_in_the_query_wins_over_accept(client, played):
    answer = client.get(
        url(played, 3), params={"format": "svg"}, headers={"Accept": "image/png"}
    )
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")


def test_an_accept_no_picture_meets_is_a_406(client, played):
    answer = client.get(url(played, 3), headers={"Accept": "application/json"})
    assert answer.status_code == 406
    assert answer.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"format": "bmp"}, 422),
        ({"format": "png", "from": 1}, 422),
        ({"format": "gif", "from": 5, "to": 4}, 422),
        ({"format": "gif", "from": 0, "to": MAX_FRAMES}, 422),
        ({"format": "gif", "from": 0, "to": MOVES + 1}, 404),
        ({"format": "gif", "from": MOVES + 1}, 404),
        ({"format": "gif", "from": -1}, 422),
    ],
)
def test_a_bad_format_or_range_is_refused(client, played, params, status):
    answer = client.get(url(played, 0), params=params)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize("step", [MOVES + 1, -1])
def test_a_step_the_game_does_not_have_is_a_404(client, played, step):
    answer = client.get(url(played, step), params={"format": "svg"})
    assert answer.status_code == 404, answer.text


def test_a_game_that_does_not_exist_is_a_404(client):
    answer = client.get(f"/games/{uuid.uuid4()}/replay/0/image")
    assert answer.status_code == 404


def test_a_gif_holds_at_most_200_frames(client):
    game = create(
        client, game="dobro", players=["Ana", "Bo"], seed=2, options={"rounds": 6}
    )
    logged = play_simulated(client, game, limit=MAX_FRAMES + 10)
    assert logged == MAX_FRAMES + 10
    answer = client.get(url(game, 0), params={"format": "gif"})
    assert answer.status_code == 200, answer.text
    assert Image.open(io.BytesIO(answer.content)).n_frames == MAX_FRAMES
    too_many = client.get(url(game, 0), params={"to": MAX_FRAMES})
    assert too_many.status_code == 422


def test_a_picture_is_tagged_per_format_and_answers_304_until_a_move(client):
    game = create(client, game="dobro", players=["Ana", "Bo"], first_player="Ana")
    assert move(client, game, {"type": "play", "player": "Ana", "cards": [4]})
    svg = client.get(url(game, 1), params={"format": "svg"})
    png = client.get(url(game, 1), params={"format": "png"})
    assert svg.headers["etag"] != png.headers["etag"]
    again = client.get(
        url(game, 1),
        params={"format": "svg"},
        headers={"If-None-Match": svg.headers["etag"]},
    )
    assert again.status_code == 304 and again.content == b""
    assert move(client, game, {"type": "play", "player": "Bo", "cards": [5]})
    moved = client.get(
        url(game, 1),
        params={"format": "svg"},
        headers={"If-None-Match": svg.headers["etag"]},
    )
    assert moved.status_code == 200 and moved.content == svg.content


def test_a_picture_speaks_french(client):
    game = create(client, game="dozito", players=["Zoë", "Maëlle"], seed=4)
    play_simulated(client, game, limit=3)
    state = view(live_histories(game, limit=3)[3])
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    svg = client.get(url(game, 3), params={"format": "svg"}, headers=french)
    texts = [t for _, _, t in labels(svg.content)]
    assert "Étape 3" in texts and "Manche 1 sur 3" in " ".join(texts)
    assert f"À {state['next_player']} de jouer" in " ".join(texts)
    english = client.get(url(game, 3), params={"format": "png"})
    in_french = client.get(url(game, 3), params={"format": "png"}, headers=french)
    assert english.headers["etag"] != in_french.headers["etag"]
    assert english.content != in_french.content


def test_lang_in_the_query_chooses_the_language_over_the_header(client):
    game = create(client, game="dobro", players=["Zoë", "Maëlle"], first_player="Zoë")
    english = {"Accept-Language": "en"}
    asked = client.get(url(game, 0), params={"format": "svg"}, headers=english)
    linked = client.get(
        url(game, 0), params={"format": "svg", "lang": "fr"}, headers=english
    )
    assert "Étape 0" in [t for _, _, t in labels(linked.content)]
    assert "Step 0" in [t for _, _, t in labels(asked.content)]
    assert linked.headers["etag"] != asked.headers["etag"]
    again = client.get(
        url(game, 0),
        params={"format": "svg", "lang": "fr"},
        headers={"If-None-Match": linked.headers["etag"]},
    )
    assert again.status_code == 304
    wrong = client.get(url(game, 0), params={"lang": "de"})
    assert wrong.status_code == 422


def test_the_raster_font_draws_accented_letters(client):
    """Pillow's own scalable font has no "ë": it would draw the empty box it draws
    for any letter it lacks."""
    from service.http.pictures.raster import _font

    font = _font(20)
    missing = bytes(font.getmask("\U000f0000"))
    for letter in "ëéèçàÀœ\u202f":
        assert bytes(font.getmask(letter)) != missing, letter


def test_the_svg_parses_whatever_a_name_holds():
    hostile = 'Zoë <script>&"\x01]]>\ud800'
    picture = Picture(10, 10, "#ffffff", hostile, (Label(1, 1, hostile),))
    root = ElementTree.fromstring(svg(picture))
    (label,) = root.iter("{http://www.w3.org/2000/svg}text")
    assert label.text == 'Zoë <script>&"\ufffd]]>\ufffd'


# --- the bounds, on the application's `Pictures` -------------------------------------


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.fixture
def stored_game(client) -> dict:
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=1)
    play_simulated(client, game, limit=5)
    return game


def test_pictures_past_the_workers_and_the_waiting_are_refused_busy(
    store, run, stored_game
):
    release = threading.Event()
    drawing = threading.Event()

    def slow(pictures):
        drawing.set()
        release.wait(10)
        return b"drawn"

    games = bootstrap.shell_games(store, BUILT_IN)
    pictures = Pictures(games, {"svg": slow}, workers=1, waiting=1)
    game_id = uuid.UUID(stored_game["id"])

    async def crowd():
        first = asyncio.create_task(pictures.draw(game_id, 1, 1, "svg", ENGLISH))
        second = asyncio.create_task(pictures.draw(game_id, 2, 2, "svg", ENGLISH))
        # The first drawing, the second waiting for the one worker: the third is
        # past them both.
        while not drawing.is_set() or pictures.workers.statistics().tasks_waiting < 1:
            await asyncio.sleep(0.01)
        with pytest.raises(Busy):
            await pictures.draw(game_id, 3, 3, "svg", ENGLISH)
        release.set()
        return await first, await second

    first, second = run(crowd())
    assert first.content == second.content == b"drawn"


def test_a_picture_asked_again_is_not_drawn_again(store, run, stored_game):
    drawn = []

    def counting(pictures):
        drawn.append(len(pictures))
        return RENDERERS["svg"](pictures)

    games = bootstrap.shell_games(store, BUILT_IN)
    pictures = Pictures(games, {"svg": counting})
    game_id = uuid.UUID(stored_game["id"])
    one = run(pictures.draw(game_id, 2, 2, "svg", ENGLISH))
    two = run(pictures.draw(game_id, 2, 2, "svg", ENGLISH))
    assert one == two and drawn == [1]


def test_a_picture_asked_while_it_is_drawn_is_drawn_once(store, run, stored_game):
    drawn = []

    def counting(pictures):
        drawn.append(len(pictures))
        return RENDERERS["svg"](pictures)

    games = bootstrap.shell_games(store, BUILT_IN)
    pictures = Pictures(games, {"svg": counting}, workers=1, waiting=0)
    game_id = uuid.UUID(stored_game["id"])

    async def together():
        asked = [pictures.draw(game_id, 3, 3, "svg", ENGLISH) for _ in range(5)]
        return await asyncio.gather(*asked)

    answers = run(together())
    assert drawn == [1] and len({answer.content for answer in answers}) == 1


def test_steps_before_a_snapshot_are_drawn_from_the_game_folded_whole(store, run):
    """A game resumed from its snapshot holds no step before it: step 0 to 2 of
    it are drawn from the game folded from its creation."""

    def titles(pictures) -> bytes:
        return "\n".join(picture.title for picture in pictures).encode()

    async def check() -> tuple[bytes, list[str]]:
        game_id = await snapshotted_game(store, "dozito")
        games = Games(
            cold_timelines(store), read_side=NoReadSide(), observer=Unobserved()
        )
        assert (await games.timeline(game_id)).truncated
        drawn = await Pictures(games, {"gif": titles}).draw(
            game_id, 0, 2, "gif", ENGLISH
        )
        whole = await cold_timelines(store).load(game_id, whole=True)
        expected = [step_picture(*whole.steps(), n, ENGLISH).title for n in range(3)]
        return drawn.content, expected

    drawn, expected = run(check())
    assert drawn.decode().split("\n") == expected


def test_a_drawing_over_the_byte_limit_is_refused(store, run, stored_game):
    games = bootstrap.shell_games(store, BUILT_IN)
    pictures = Pictures(games, RENDERERS, max_bytes=1000)
    with pytest.raises(Invalid):
        run(pictures.draw(uuid.UUID(stored_game["id"]), 2, 2, "png", ENGLISH))


def test_the_cache_drops_the_least_recently_asked_past_its_bytes():
    from service.application.pictures import DrawnCache

    cache = DrawnCache(10)
    cache.put("a", b"1234")
    cache.put("b", b"1234")
    assert cache.get("a") == b"1234"
    cache.put("c", b"1234")
    assert cache.get("b") is None and cache.get("a") and cache.get("c")
    assert cache.held == 8
    cache.put("huge", b"x" * 11)
    assert cache.get("huge") is None
