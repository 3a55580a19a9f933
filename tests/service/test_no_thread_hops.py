"""Nothing a request runs is sent to a worker thread: Litestar runs a plain-function
guard, handler or dependency on anyio's thread pool unless told otherwise, a hop
there and back on every request (a profile under load showed the media-type guard
doing just that)."""

from __future__ import annotations

import inspect

from service.http.app import create_app
from service.settings import Settings


def test_every_guard_handler_and_dependency_runs_on_the_event_loop():
    app = create_app(Settings(database_url="postgresql://unused/unused"))
    handlers = [h for route in app.routes for h in getattr(route, "route_handlers", [])]
    assert handlers
    on_threads = []
    for handler in handlers:
        on_threads += [
            f"{handler}: guard {guard}"
            for guard in handler.resolve_guards()
            if not inspect.iscoroutinefunction(guard)
        ]
        if handler.has_sync_callable and handler.sync_to_thread:
            on_threads.append(f"{handler}: handler")
        on_threads += [
            f"{handler}: dependency {name}"
            for name, provide in handler.resolve_dependencies().items()
            if provide.sync_to_thread
        ]
    assert on_threads == []
