"""Every setting is declared once, in `Settings`, and `tablelog` takes each as an
option and from the environment, read the same way, by `msgspec.convert`: a value
that does not fit stops the command, naming where it came from and what it wanted."""

from __future__ import annotations

import logging

import msgspec
import psycopg
import pytest

from service.cli import main, parser
from service.settings import SERVED, SettingRefused, Settings, read

ADDRESSES = {"database_url", "database_read_url", "migration_database_url"}


def chosen(*argv: str, **environment: str) -> Settings:
    """The settings `tablelog ARGV` runs with, in `environment`."""
    args = parser().parse_args(list(argv))
    return read(args.taken, vars(args), environment, database_url="", **args.fixed)


def test_every_setting_but_the_database_addresses_is_served():
    fields = {f.name for f in msgspec.structs.fields(Settings)}
    assert {served.name for served in SERVED} == fields - ADDRESSES
    assert chosen("serve") == Settings(database_url="")


def test_each_setting_comes_from_the_environment_and_the_option_wins():
    settings = chosen(
        "serve",
        "--cached-moves",
        "7000",
        "--no-webhooks",
        TABLELOG_CORS_ORIGINS="https://a.example, https://b.example",
        TABLELOG_CREATIONS_PER_MINUTE="none",
        TABLELOG_MAX_BODY_BYTES="65536",
        TABLELOG_METRICS="on",
        TABLELOG_CACHED_MOVES="5000",
        TABLELOG_WEBHOOKS="on",
        TABLELOG_WEBHOOK_RETRIES="0.5, 60",
    )
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.creations_per_minute is None
    assert (settings.max_body_bytes, settings.metrics) == (65536, True)
    assert (settings.cached_moves, settings.webhooks) == (7000, False)
    assert settings.webhook_retries == (0.5, 60.0)


def test_a_command_takes_only_its_own_settings():
    settings = chosen("export", "00000000-0000-0000-0000-000000000000")
    assert settings == Settings(database_url="", pool_min_size=1, pool_max_size=4)
    with pytest.raises(SystemExit):
        parser().parse_args(["export", "--metrics", "x"])


@pytest.mark.parametrize(
    ("variable", "text", "said"),
    [
        ("MAX_BODY_BYTES", "lots", "expected a whole number of at least 1, got 'lots'"),
        ("MAX_BODY_BYTES", "0", "expected a whole number of at least 1, got '0'"),
        ("REQUEST_TIMEOUT", "soon", "expected a number above 0, got 'soon'"),
        ("METRICS", "maybe", "expected on or off, got 'maybe'"),
        ("LOG_FORMAT", "xml", "expected one of text, json, got 'xml'"),
        (
            "CREATIONS_PER_MINUTE",
            "0",
            "expected a whole number of at least 1, or none, got '0'",
        ),
    ],
)
def test_a_setting_that_does_not_read_says_what_it_takes(variable, text, said):
    with pytest.raises(SettingRefused, match=f"^TABLELOG_{variable}: {said}$"):
        chosen("serve", **{f"TABLELOG_{variable}": text})


# A database that refuses every connection at once: a command whose settings were
# taken goes on to it and fails there; one refused stops before.
NOWHERE = "postgresql://127.0.0.1:1/none?connect_timeout=2"


def refusal(monkeypatch, capsys, tmp_path, *argv: str, **environment: str) -> str:
    """What `tablelog ARGV` says on stderr as it stops, with `environment` set."""
    monkeypatch.setenv("DATABASE_URL", NOWHERE)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--data-dir", str(tmp_path)])
    assert stopped.value.code != 0
    return capsys.readouterr().err + str(stopped.value.code)


@pytest.mark.parametrize(
    ("argv", "environment", "said"),
    [
        (
            ["serve", "--port", "0"],
            {"TABLELOG_METRICS": "ture"},
            "tablelog: TABLELOG_METRICS: expected on or off, got 'ture'",
        ),
        (
            ["webhooks", "deliver", "--webhook-retries", "5,abc"],
            {},
            "tablelog: --webhook-retries: expected numbers above 0, comma-separated, "
            "got '5,abc'",
        ),
        (
            ["serve", "--port", "0"],
            {"TABLELOG_WEBHOOK_RETRIES": "5,-1"},
            "tablelog: TABLELOG_WEBHOOK_RETRIES: expected numbers above 0, "
            "comma-separated, got '5,-1'",
        ),
        (
            ["serve", "--port", "0"],
            {"TABLELOG_POOL_MIN_SIZE": "-1"},
            "tablelog: TABLELOG_POOL_MIN_SIZE: expected a whole number of at least "
            "0, got '-1'",
        ),
        (
            ["serve", "--port", "0", "--pool-min-size", "12"],
            {},
            "tablelog: --pool-max-size (10) is below --pool-min-size (12)",
        ),
        (
            ["serve", "--port", "0"],
            {"TABLELOG_MAX_STREAMS": "many"},
            "tablelog: TABLELOG_MAX_STREAMS: expected a whole number of at least 0, "
            "got 'many'",
        ),
        (
            ["serve", "--port", "70000"],
            {},
            "tablelog: --port: expected a whole number from 0 to 65535, got '70000'",
        ),
        (
            ["serve"],
            {"TABLELOG_PORT": "abc"},
            "tablelog: TABLELOG_PORT: expected a whole number from 0 to 65535, got "
            "'abc'",
        ),
        (
            ["serve", "--port", "0", "--request-timeout", "nan"],
            {},
            "tablelog: --request-timeout: expected a number above 0, got 'nan'",
        ),
    ],
)
def test_a_bad_value_stops_the_command_naming_where_it_came_from(
    monkeypatch, capsys, tmp_path, argv, environment, said
):
    assert said in refusal(monkeypatch, capsys, tmp_path, *argv, **environment)


def test_a_variable_that_names_no_setting_is_warned_of_and_ignored(
    monkeypatch, caplog, tmp_path
):
    """A warning, not a refusal: the variable may be a setting of another release
    (during a rolling upgrade) or of another program."""
    monkeypatch.setenv("DATABASE_URL", NOWHERE)
    monkeypatch.setenv("TABLELOG_METRIC", "on")
    monkeypatch.setenv("TABLELOG_SOMETHING_ELSE", "1")
    with caplog.at_level(logging.WARNING), pytest.raises(psycopg.OperationalError):
        main(["migrate", "--data-dir", str(tmp_path)])
    assert caplog.messages == [
        "TABLELOG_METRIC is no setting of tablelog (did you mean TABLELOG_METRICS?): "
        "ignored",
        "TABLELOG_SOMETHING_ELSE is no setting of tablelog: ignored",
    ]
