"""A club on its phones, as its owner runs it: phone A makes a group and invites
phone B (a browser of its own) by the invite's link, which B opens, names itself and
joins; the key B gets stays in its storage, never in an address or the history. B
starts a game in the group, saying its players are new to it, and plays it; A sees
it among the group's games and the new member among the group's, and logs a move
B's page shows live; a phone of no group finds the game nowhere; A then revokes B,
confirming first."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.support.pages import fact, make_group

PHONE = {"width": 412, "height": 915}


def test_a_club_makes_a_group_invites_a_phone_which_joins_and_plays_in_it(new_page):
    club = f"Club {uuid.uuid4().hex[:8]}"
    owner = new_page()
    owner.set_viewport_size(PHONE)
    make_group(owner, club, "Ana's phone")
    held = owner.evaluate("localStorage.getItem('tablelog:groups')")
    assert "tlg_" in held and "tlg_" not in owner.url

    owner.get_by_role("button", name="Make an invite").click()
    qr = owner.get_by_role("img", name=re.compile("Invite"))
    expect(qr.locator("path")).to_have_count(1)  # its modules drawn
    link = owner.get_by_role("textbox", name="Invite: the link").input_value()
    assert re.search(r"/app/#/join/tli_", link), link

    member = new_page()
    member.set_viewport_size(PHONE)
    member.goto("/app/")
    expect(member.get_by_role("heading", name="Start a game")).to_be_visible()
    member.goto(link)
    expect(member.get_by_role("heading", name="Join a group")).to_be_visible()
    member.get_by_label("This device's name").fill("Bo's phone")
    member.get_by_role("button", name="Join the group").click()
    expect(member.get_by_role("heading", name=club, level=1)).to_be_visible()
    assert "tli_" not in member.url and "tlg_" not in member.url
    assert "tlg_" in member.evaluate("localStorage.getItem('tablelog:groups')")
    # The invite's address left the history too: back goes to before it.
    member.go_back()
    expect(member.get_by_role("heading", name="Start a game")).to_be_visible()
    assert "tli_" not in member.url
    member.go_forward()
    expect(member.get_by_role("heading", name=club, level=1)).to_be_visible()

    member.get_by_text("Start a game in this group").click()
    member.get_by_label("Game", exact=True).select_option("dobro")
    for number, name in enumerate(["Ana", "Bo", "Cy"], start=1):
        member.get_by_label(f"Player {number}", exact=True).fill(name)
    member.get_by_label("First player").select_option("Ana")
    member.get_by_role("button", name="Start the game").click()
    # The group's roster is empty: the page asks whether they are new players.
    refusal = member.get_by_role("alert")
    expect(refusal).to_contain_text("Nobody called Ana plays in")
    member.get_by_role("button", name="All of them are new players").click()
    expect(member.get_by_text("Ana's turn")).to_be_visible()
    game_id = re.search(r"#/games/([0-9a-f-]{36})", member.url)[1]
    member.get_by_role("radio", name="5", exact=True).check()
    member.get_by_role("button", name="Ana plays 5").click()
    expect(fact(member, "Value in play")).to_have_text("5")

    owner.reload()
    games = owner.get_by_role("region", name="The group's games")
    expect(games.get_by_role("link")).to_have_count(1)
    expect(games.get_by_role("link")).to_have_attribute("href", f"#/games/{game_id}")
    members = owner.get_by_role("region", name="Members")
    expect(members).to_contain_text("Bo's phone")

    # The owner's phone, holding the group's key, logs the game's moves too.
    games.get_by_role("link", name="Dobro").click()
    owner.get_by_role("radio", name="6", exact=True).check()
    owner.get_by_role("button", name="Bo plays 6").click()
    expect(fact(owner, "Value in play")).to_have_text("6")
    # The game is the group's members' alone (the group's default): the phone
    # watching it follows its moves live all the same, with its key.
    expect(fact(member, "Value in play")).to_have_text("6")
    owner.go_back()

    # A phone of no group finds it nowhere: not at its address, not among the games.
    stranger = new_page()
    stranger.set_viewport_size(PHONE)
    stranger.goto(f"/app/#/games/{game_id}")
    expect(stranger.get_by_text("No such game")).to_be_visible()
    stranger.goto("/app/")
    expect(stranger.get_by_role("heading", name="Start a game")).to_be_visible()
    assert stranger.locator(f"a[href='#/games/{game_id}']").count() == 0

    dialogs = []
    owner.once(
        "dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss())
    )
    members.get_by_role("button", name="Revoke Bo's phone").click()
    expect(members).to_contain_text("Member")
    assert dialogs and "Bo's phone" in dialogs[0]
    owner.once("dialog", lambda dialog: dialog.accept())
    members.get_by_role("button", name="Revoke Bo's phone").click()
    expect(members).to_contain_text("Revoked")
    expect(members.get_by_role("button", name="Revoke Bo's phone")).to_have_count(0)

    # The revoked phone is told, and forgets the group when asked.
    member.goto(f"/app/#/groups/{group_id(member)}")
    expect(member.get_by_role("alert").filter(has_text="revoked")).to_be_visible()
    member.get_by_role("button", name="Forget this group on this phone").click()
    expect(member.get_by_text("This device is in no group yet.")).to_be_visible()
    assert "tlg_" not in member.evaluate("localStorage.getItem('tablelog:groups')")
    assert owner.errors == member.errors == stranger.errors == []


def group_id(page) -> str:
    return page.evaluate(
        "Object.keys(JSON.parse(localStorage.getItem('tablelog:groups')))[0]"
    )
