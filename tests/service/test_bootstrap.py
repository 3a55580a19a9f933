"""The composition root builds a process of each kind from its settings, and closes
what it opened (service/bootstrap.py)."""

from __future__ import annotations

import psycopg

from service import bootstrap
from service.application.creating import NewGame
from service.application.observers import Unobserved
from service.settings import Settings


def _listed(url: str, game_id) -> bool:
    with psycopg.connect(url) as conn:
        found = conn.execute(
            "SELECT 1 FROM game_summaries WHERE game_id = %s", (game_id,)
        ).fetchone()
    return found is not None


def test_a_serving_process_lists_a_new_game_at_once_a_shell_command_leaves_it_to_one(
    fresh_database_url, run
):
    settings = Settings(database_url=fresh_database_url, pool_min_size=1)
    request = NewGame(game="dobro", players=["Ann", "Bob"])

    async def created(building) -> tuple:
        async with building as service:
            row, _, _ = await service.games.create(request)
            return row.id, service.pools.each

    serving = bootstrap.serving(settings, observer=Unobserved(), renderers={})
    served, served_pools = run(created(serving))
    shell, shell_pools = run(created(bootstrap.shell(settings)))

    # The serving process's read side wrote the new game's summary before it
    # answered; the shell's has none: a serving process's runner folds it later.
    assert _listed(fresh_database_url, served)
    assert not _listed(fresh_database_url, shell)
    assert all(pool.closed for pool in (*served_pools, *shell_pools))


def test_the_read_replicas_pool_is_opened_and_closed_beside_the_primarys(
    database_url, run
):
    settings = Settings(database_url=database_url, database_read_url=database_url)

    async def opened() -> tuple:
        async with bootstrap.shell(settings) as service:
            pools = service.pools
            assert pools.replicas is not None and pools.reads is pools.replicas
            assert not any(pool.closed for pool in pools.each)
            await service.probes.answers()
            assert await service.probes.unready() == []
            return pools.each

    assert all(pool.closed for pool in run(opened()))
