"""What the health endpoints and the metrics ask the database: whether the primary
answers, whether each pool's database can serve this release
(`service/storage/readiness.py`), the games the projection runner has set aside and
how far the read models are behind the log (`projector.py`). One object over the
process's pools, built with them (`service/bootstrap.py`)."""

from __future__ import annotations

import asyncio

from service.readside import projector
from service.readside.projector import SetAside
from service.storage import pools, readiness
from service.storage.pools import Pools


class Probes:
    """Each probe but `lag` answers within `readiness.PROBE_SECONDS`: an
    orchestrator asks often and gives up after a second or so."""

    def __init__(self, pools: Pools) -> None:
        self._pools = pools

    async def answers(self) -> None:
        """Raise unless the primary answers (PoolTimeout when it has not in time)."""
        await pools.ping(self._pools.primary, within=readiness.PROBE_SECONDS)

    async def unready(self) -> list[str]:
        """What keeps the process from serving, in sentences (none: ready): the
        primary must take writes, and the read replicas, asked at the same time,
        must be migrated too (read-only is right for them)."""
        primary = readiness.unready(self._pools.primary, writes=True)
        if self._pools.replicas is None:
            return await primary
        reasons, replicas = await asyncio.gather(
            primary, readiness.unready(self._pools.replicas, writes=False)
        )
        return reasons + [f"Read replicas: {reason}" for reason in replicas]

    async def set_aside(self) -> list[SetAside]:
        """The games the projection runner could not fold, oldest failure first."""
        return await projector.set_aside(
            self._pools.primary, within=readiness.PROBE_SECONDS
        )

    async def lag(self) -> tuple[int, float]:
        """The events not yet folded into the read models, and the age in seconds
        of the oldest."""
        return await projector.lag(self._pools.primary)
