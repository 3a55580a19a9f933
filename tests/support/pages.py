"""The app's pages in the browser, opened and read as a player sees them, and checked
with axe-core for what keeps a player out."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def open_game(
    page: Page, game: dict, *, with_token: bool = True, heading: str = "On the table"
) -> None:
    """Open a game's page; with its write token on this device, as its creator has.
    `heading`: the state's heading in the page's language."""
    page.goto("/app/")
    if with_token:
        page.evaluate(
            "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
            [game["id"], game["write_token"]],
        )
    page.goto(f"/app/#/games/{game['id']}")
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def make_group(page: Page, name: str, device: str) -> None:
    """Make a group from the page, as its owner does, and wait for its home."""
    page.goto("/app/")
    page.get_by_role("link", name="Make a group").click()
    page.get_by_label("The group's name").fill(name)
    page.get_by_label("This device's name").fill(device)
    page.get_by_role("button", name="Make the group").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()


def fact(page: Page, term: str):
    """The value shown for a term of the state, e.g. "Value in play"."""
    term_line = page.locator("dt", has_text=term)
    return page.locator(".facts div", has=term_line).locator("dd")


def serious(page, axe_source: str) -> list[str]:
    # Evaluated by the browser's devtools protocol, not added as an inline <script>,
    # which the page's Content-Security-Policy refuses.
    page.evaluate(axe_source)
    results = page.evaluate("async () => await axe.run()")
    assert results["passes"], "axe checked nothing"
    found = results["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def confirming(page: Page, answer: bool) -> list[str]:
    """Answer the page's next question (`confirm`) with `answer`: the list it returns
    holds what was asked once it was (a tap that asks answers only then)."""
    asked: list[str] = []

    def reply(dialog) -> None:
        asked.append(dialog.message)
        if answer:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", reply)
    return asked
