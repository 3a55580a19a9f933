"""Nothing a request runs is sent to a worker thread: Litestar runs a plain-function
guard, handler or dependency on anyio's thread pool unless told otherwise, a hop
there and back on every request (a profile under load showed the media-type guard
doing just that)."""

from __future__ import annotations

import inspect

from litestar.middleware.rate_limit import RateLimitConfig

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


def test_no_rate_limit_decides_on_a_worker_thread_which_requests_it_counts():
    # Litestar runs a plain-function `check_throttle_handler` with sync_to_thread on
    # every request the middleware sees: moves and reads included.
    app = create_app(Settings(database_url="postgresql://unused/unused"))
    limits = [
        layer.kwargs["config"]
        for layer in app.middleware
        if isinstance(getattr(layer, "kwargs", {}).get("config"), RateLimitConfig)
    ]
    assert limits
    on_threads = [
        config
        for config in limits
        if config.check_throttle_handler is not None
        and not inspect.iscoroutinefunction(config.check_throttle_handler)
    ]
    assert on_threads == []
