"""How `tablelog serve` logs: as text or as JSON lines, with the access log's fields,
and the same error a thousand times logged once, then once more with its count.

JSON (`--log-format json`): one object a line, from python-json-logger, with
`timestamp`, `level`, `logger` and `message`, an exception's traceback as `exc_info`,
and for each request of the access log `client`, `method`, `path`, `http_version`
and `status`. Write tokens travel in the Authorization header, which no log
writes; a client that puts one in a URL anyway (`?token=...`) finds its value
blanked in the access log, whatever the format.

Repeats:

A flood of identical failures (a client opening thousands of connections, the
database gone for a minute) would write one traceback per occurrence: megabytes of the
same lines a minute, which hide everything else and can fill the disk. A
`RepeatFilter` on a handler lets the first warning or error of a kind through, holds
back the ones like it for `window` seconds, and then writes a single line saying how
many there were. Records below WARNING (the access log, start-up notes) pass
untouched: each of them says something of its own.
"""

from __future__ import annotations

import copy
import logging
import re
import threading
from collections.abc import Iterable
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

FORMATS = ("text", "json")

# A query parameter named like a token, and its value.
_TOKEN_IN_QUERY = re.compile(r"(?i)([?&][^=&#]*token[^=&#]*=)[^&#]*")

# Where several processes serve one port, each of uvicorn's lines starts with the
# writer's id.
PROCESS = "[%(process)d] "
FORMAT = "%(levelname)s %(name)s: %(message)s"

# A kind of error: where it was logged, at what level, and which exception it carries
# (the message's arguments, such as a client's address, differ from one to the next).
_Kind = tuple[str, int, str, int, str]


class RepeatFilter(logging.Filter):
    """Installed on one handler; the summary line goes out through that handler."""

    def __init__(self, handler: logging.Handler, window: float) -> None:
        super().__init__()
        self._handler = handler
        self._window = window
        self._lock = threading.Lock()
        # The first record of each kind held back, and how many like it followed.
        self._held: dict[_Kind, tuple[logging.LogRecord, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or getattr(record, "repeats", None):
            return True
        kind = _kind_of(record)
        with self._lock:
            if kind in self._held:
                first, count = self._held[kind]
                self._held[kind] = (first, count + 1)
                return False
            self._held[kind] = (record, 0)
        timer = threading.Timer(self._window, self._summarise, (kind,))
        timer.daemon = True
        timer.start()
        return True

    def flush(self) -> None:
        """Write the counts held so far (at shutdown: none is lost)."""
        with self._lock:
            kinds = list(self._held)
        for kind in kinds:
            self._summarise(kind)

    def _summarise(self, kind: _Kind) -> None:
        with self._lock:
            first, count = self._held.pop(kind, (None, 0))
        if first is None or count == 0:
            return
        summary = logging.makeLogRecord(
            {
                "name": first.name,
                "levelno": first.levelno,
                "levelname": first.levelname,
                "pathname": first.pathname,
                "lineno": first.lineno,
                "msg": "%s (repeated %d more times in %.0f s)",
                "args": (first.getMessage(), count, self._window),
                "repeats": count,
            }
        )
        self._handler.handle(summary)


def _kind_of(record: logging.LogRecord) -> _Kind:
    error = record.exc_info[0].__qualname__ if record.exc_info else ""
    return (record.name, record.levelno, record.pathname, record.lineno, error)


def collapse_repeats(
    loggers: Iterable[logging.Logger], window: float
) -> list[RepeatFilter]:
    """Put a RepeatFilter on every handler of these loggers; return the filters.

    On the handlers, not the loggers: a logger's own filters see only the records
    logged on it by name, not those of its children that reach its handlers.
    """
    installed = []
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(f, RepeatFilter) for f in handler.filters):
                repeat = RepeatFilter(handler, window)
                handler.addFilter(repeat)
                installed.append(repeat)
    return installed


def flush(filters: Iterable[RepeatFilter]) -> None:
    for repeat in filters:
        repeat.flush()


def json_formatter() -> JsonFormatter:
    return JsonFormatter(
        "{levelname}{name}{process}{message}",
        style="{",
        timestamp=True,
        rename_fields={"levelname": "level", "name": "logger"},
        # uvicorn adds the message again with terminal colours.
        reserved_attrs=[*RESERVED_ATTRS, "color_message"],
    )


def use_format(log_format: str) -> None:
    """Log the root logger's records (the service's own, the embedded server's) in
    this format; uvicorn's loggers take theirs from `uvicorn_config`."""
    if log_format == "json":
        for handler in logging.getLogger().handlers:
            handler.setFormatter(json_formatter())


def uvicorn_config(log_format: str, several: bool = False) -> dict[str, Any]:
    """uvicorn's logging configuration (its `log_config`), its access log with
    fields and tokens blanked, in this format. With `several` processes serving,
    each text line (the access log's among them) starts with the id of the process
    that wrote it; a JSON line always carries it as `process`."""
    # Imported here: the commands that do not serve never load uvicorn.
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"access_fields": {"()": AccessFields}}
    config["handlers"]["access"]["filters"] = ["access_fields"]
    for name, formatter in config["formatters"].items():
        if log_format == "json":
            config["formatters"][name] = {"()": json_formatter}
        elif several:
            formatter["fmt"] = PROCESS + formatter["fmt"]
    return config


class AccessFields(logging.Filter):
    """Gives a uvicorn access record its request as fields, with the value of any
    query parameter named like a token blanked (also in the message)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, http_version, status = record.args
            path = _TOKEN_IN_QUERY.sub(r"\1[redacted]", str(path))
            record.args = (client, method, path, http_version, status)
            fields = {"client": client, "method": method, "path": path}
            fields |= {"http_version": http_version, "status": status}
            record.__dict__.update(fields)
        return True


def start() -> None:
    """Log INFO and above to stderr."""
    logging.basicConfig(level=logging.INFO, format=FORMAT)
