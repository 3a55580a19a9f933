"""Every setting is declared once, in `Settings`, and `tablelog serve` takes each as
an option and from the environment, read the same way."""

from __future__ import annotations

from dataclasses import fields

import pytest

from service.cli import parser
from service.settings import SERVED, Settings, from_text

ADDRESSES = {"database_url", "database_read_url", "migration_database_url"}


def test_every_setting_but_the_database_addresses_is_served():
    assert {f.name for f in SERVED} == {f.name for f in fields(Settings)} - ADDRESSES
    help = parser().parse_args(["serve"])
    for served in SERVED:
        assert getattr(help, served.name) == served.default, served.name


def test_each_setting_comes_from_the_environment_and_the_option_wins(monkeypatch):
    monkeypatch.setenv("TABLELOG_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("TABLELOG_CREATIONS_PER_MINUTE", "none")
    monkeypatch.setenv("TABLELOG_MAX_BODY_BYTES", "65536")
    monkeypatch.setenv("TABLELOG_METRICS", "on")
    monkeypatch.setenv("TABLELOG_CACHED_MOVES", "5000")
    args = parser().parse_args(["serve", "--cached-moves", "7000"])
    assert args.cors_origins == ("https://a.example", "https://b.example")
    assert args.creations_per_minute is None
    assert (args.max_body_bytes, args.metrics, args.cached_moves) == (65536, True, 7000)


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("max_body_bytes", "lots", "max_body_bytes is a whole number, not 'lots'"),
        ("request_timeout", "soon", "request_timeout is a number, not 'soon'"),
        ("metrics", "maybe", "metrics is on or off, not 'maybe'"),
    ],
)
def test_a_setting_that_does_not_read_says_what_it_takes(name, text, said):
    with pytest.raises(ValueError, match=said):
        from_text(name, text)


def test_a_bad_setting_in_the_environment_stops_serve_saying_why(monkeypatch, capsys):
    monkeypatch.setenv("TABLELOG_MAX_STREAMS", "many")
    with pytest.raises(SystemExit):
        parser().parse_args(["serve"])
    assert "max_streams is a whole number, not 'many'" in capsys.readouterr().err
