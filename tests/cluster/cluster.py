"""A PostgreSQL cluster with automatic failover on this machine's loopback: one etcd
and three PostgreSQL 15 nodes managed by Patroni, with strict synchronous replication
(a commit is acknowledged only once a standby has it), and tablelog processes in front.

Everything runs as child processes of the test, in one temporary directory, and is
stopped when the block exits, on a failure too: nothing is left running.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from service.storage.embedded import Roles
from tests.support.ports import free_port

PATRONI = Path("/usr/bin/patroni")
ETCD = Path("/usr/bin/etcd")
POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
NODES = 3
# PostgreSQL refuses to run as root: the nodes run as this user, created if missing.
NODE_USER = "tablelog-cluster"
WORKTREE = Path(__file__).resolve().parents[2]


def missing_tools() -> str | None:
    """Why the cluster cannot start here, or None."""
    for tool in (PATRONI, ETCD, POSTGRES_BIN / "postgres"):
        if not tool.exists():
            return (
                f"{tool} is not installed (Debian: patroni, etcd-server, postgresql-15)"
            )
    return None


@dataclass
class Node:
    name: str
    directory: Path
    port: int = field(default_factory=free_port)
    api_port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    def role(self) -> str | None:
        """ "primary", "replica" as Patroni's REST API says, or None if it is away
        (Patroni 3.0 still names the primary "master")."""
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.api_port}/patroni", timeout=1
            ) as answer:
                role = json.load(answer).get("role")
        except OSError as error:
            # 503 still carries the state: a replica that is not streaming yet.
            body = getattr(error, "read", None)
            role = json.loads(body()).get("role") if body else None
        return "primary" if role == "master" else role

    def postmaster(self) -> int | None:
        try:
            return int((self.data_dir / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def kill_postgres(self) -> None:
        """SIGKILL the node's PostgreSQL, server and backends, as a crash would."""
        pid = self.postmaster()
        assert pid is not None, f"{self.name} runs no PostgreSQL"
        children = _children(pid)
        os.kill(pid, signal.SIGKILL)
        for child in children:
            _kill(child)


@dataclass
class Cluster:
    directory: Path
    nodes: list[Node]
    etcd_port: int
    # The owner's and the serving role's conninfos, once the database is set up.
    roles: Roles | None = None

    def url(self, dbname: str, **attributes: str) -> str:
        """A multi-host conninfo naming every node (as the superuser by default)."""
        return make_conninfo(
            **{
                "host": ",".join("127.0.0.1" for _ in self.nodes),
                "port": ",".join(str(node.port) for node in self.nodes),
                "dbname": dbname,
                "user": "postgres",
                "connect_timeout": "2",
                **attributes,
            }
        )

    def leader(self) -> Node | None:
        for node in self.nodes:
            if node.role() == "primary":
                return node
        return None

    def wait_for(self, what, timeout: float, every: float = 0.2):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = what()
            if found:
                return found
            time.sleep(every)
        raise TimeoutError(f"the cluster did not reach {what.__name__} in {timeout} s")

    def sessions(self, node: Node, user: str) -> int:
        """The sessions `user` has open on the node."""
        url = make_conninfo(
            host="127.0.0.1", port=node.port, dbname="postgres", user="postgres"
        )
        with psycopg.connect(url) as conn:
            (count,) = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = %s", (user,)
            ).fetchone()
        return count

    def replicas_streaming(self) -> bool:
        """Every replica streaming and listed as a synchronous standby.

        While one is not, the primary is switched to a new WAL segment: a replica
        cloned from an idle primary can ask for the segment after the primary's last
        one, and is refused ("requested starting point ... is ahead of the WAL flush
        position") until the primary writes that far. The switch writes it, and does
        nothing on a segment with nothing written since the last switch."""
        with psycopg.connect(
            self.url("postgres", target_session_attrs="read-write"), autocommit=True
        ) as conn:
            rows = conn.execute(
                "SELECT count(*) FROM pg_stat_replication"
                " WHERE state = 'streaming' AND sync_state IN ('sync', 'quorum')"
            ).fetchone()
            streaming = rows[0] == len(self.nodes) - 1
            if not streaming:
                conn.execute("SELECT pg_switch_wal()")
        return streaming


@contextmanager
def patroni_cluster() -> Iterator[Cluster]:
    """An etcd and three Patroni nodes, the first one leader; all stopped at exit."""
    user = _node_user()
    directory = Path(tempfile.mkdtemp(prefix="tablelog-cluster-"))
    os.chmod(directory, 0o755)
    nodes = [Node(f"node{i}", directory / f"node{i}") for i in range(1, NODES + 1)]
    cluster = Cluster(directory, nodes, etcd_port=free_port())
    with ExitStack() as stack:
        stack.callback(shutil.rmtree, directory, ignore_errors=True)
        stack.push(_show_logs(directory))
        stack.enter_context(_etcd(cluster))
        for node in nodes:
            node.directory.mkdir(mode=0o700)
            (node.directory / "patroni.yml").write_text(_patroni_config(cluster, node))
            shutil.chown(node.directory, user)
        stack.callback(_stop_nodes, nodes)
        for index, node in enumerate(nodes):
            node.process = _spawn(
                ["runuser", "-u", user, "--", str(PATRONI), "patroni.yml"]
                if os.geteuid() == 0
                else [str(PATRONI), "patroni.yml"],
                node.directory / "patroni.log",
                cwd=node.directory,
            )
            if index == 0:
                cluster.wait_for(cluster.leader, timeout=60)
        cluster.wait_for(cluster.replicas_streaming, timeout=60)
        yield cluster


def _show_logs(directory: Path):
    """An exit callback that prints the end of every log when the block failed."""

    def show(kind, error, traceback) -> None:
        if error is None:
            return
        for log in sorted(directory.rglob("*.log")):
            print(f"--- {log.relative_to(directory)}", file=sys.stderr)
            print(log.read_text(errors="replace")[-3000:], file=sys.stderr)

    return show


@contextmanager
def _etcd(cluster: Cluster) -> Iterator[None]:
    peer = f"http://127.0.0.1:{free_port()}"
    client = f"http://127.0.0.1:{cluster.etcd_port}"
    process = _spawn(
        [
            str(ETCD),
            "--name=etcd0",
            f"--data-dir={cluster.directory / 'etcd'}",
            f"--listen-client-urls={client}",
            f"--advertise-client-urls={client}",
            f"--listen-peer-urls={peer}",
            f"--initial-advertise-peer-urls={peer}",
            f"--initial-cluster=etcd0={peer}",
        ],
        cluster.directory / "etcd.log",
    )
    try:
        yield
    finally:
        _stop(process, 10)


def _patroni_config(cluster: Cluster, node: Node) -> str:
    """A node's configuration (JSON is YAML). Timings as small as Patroni takes, so a
    failover is seen in seconds; strict synchronous mode with every replica
    synchronous, so no acknowledged commit is lost and every replica has applied
    it (the service asks for `remote_apply` when it reads from replicas)."""
    config = {
        "scope": "tablelog",
        "name": node.name,
        "log": {"level": "INFO"},
        "restapi": {
            "listen": f"127.0.0.1:{node.api_port}",
            "connect_address": f"127.0.0.1:{node.api_port}",
        },
        "etcd3": {"hosts": f"127.0.0.1:{cluster.etcd_port}"},
        "bootstrap": {
            "dcs": {
                "ttl": 10,
                "loop_wait": 2,
                "retry_timeout": 3,
                "primary_start_timeout": 0,
                "synchronous_mode": True,
                "synchronous_mode_strict": True,
                "synchronous_node_count": NODES - 1,
                "postgresql": {
                    "use_pg_rewind": True,
                    "parameters": {
                        "wal_retrieve_retry_interval": "500ms",
                        "wal_log_hints": "on",
                        "max_connections": 100,
                    },
                },
            },
            "initdb": [{"encoding": "UTF8"}, {"locale": "C"}],
        },
        "postgresql": {
            "listen": f"127.0.0.1:{node.port}",
            "connect_address": f"127.0.0.1:{node.port}",
            "data_dir": str(node.data_dir),
            "bin_dir": str(POSTGRES_BIN),
            "pgpass": str(node.directory / "pgpass"),
            "authentication": {
                "superuser": {"username": "postgres", "password": "postgres"},
                "replication": {"username": "replicator", "password": "replicator"},
                "rewind": {"username": "rewinder", "password": "rewinder"},
            },
            "parameters": {"unix_socket_directories": str(node.directory)},
            "pg_hba": [
                "local all all trust",
                "host all all 127.0.0.1/32 trust",
                "host replication replicator 127.0.0.1/32 trust",
            ],
        },
    }
    return json.dumps(config, indent=2)


def _spawn(
    command: list[str],
    log: Path,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env=env,
            # Its own process group: stopping it stops what it started.
            start_new_session=True,
        )


def _stop_nodes(nodes: list[Node]) -> None:
    """Stop Patroni (which stops its PostgreSQL) on every node at once; whatever
    still runs after that is killed, the PostgreSQL servers included."""
    for node in nodes:
        if node.process and node.process.poll() is None:
            _signal_group(node.process, signal.SIGTERM)
    for node in nodes:
        if node.process:
            _stop(node.process, 20)
        pid = node.postmaster()
        if pid is not None:
            for child in _children(pid):
                _kill(child)
            _kill(pid)


def _stop(process: subprocess.Popen, seconds: float) -> None:
    """SIGTERM the process's group, then SIGKILL it if it has not ended in time."""
    _signal_group(process, signal.SIGTERM)
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        _signal_group(process, signal.SIGKILL)
        process.wait(5)
    else:
        # Its children, if any outlived it.
        _signal_group(process, signal.SIGKILL)


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _kill(pid: int) -> None:
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _node_user() -> str:
    """The user the nodes run as: this one, or when root an unprivileged one."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid()).pw_name
    if not _user_exists(NODE_USER):
        subprocess.run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--shell",
                "/bin/false",
                NODE_USER,
            ],
            check=True,
        )
    return NODE_USER


# ---------------------------------------------------------------------- tablelog


@dataclass
class Tablelog:
    """One `tablelog serve` process."""

    port: int
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        _signal_group(self.process, signal.SIGKILL)
        self.process.wait(10)


@contextmanager
def tablelog(directory: Path, name: str, env: dict[str, str]) -> Iterator[Tablelog]:
    """`python -m service serve` of this checkout, on a free port, until exit."""
    port = free_port()
    log = directory / f"{name}.log"
    process = _spawn(
        [sys.executable, "-m", "service", "serve", "--port", str(port)],
        log,
        cwd=WORKTREE,
        env={**os.environ, "PYTHONPATH": str(WORKTREE), **env},
    )
    server = Tablelog(port, process, log)
    try:
        _wait_until_serving(server)
        yield server
    finally:
        _stop(process, 10)


def _wait_until_serving(server: Tablelog) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"tablelog ended: {server.log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.url}/health", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("tablelog did not start in 60 s")
