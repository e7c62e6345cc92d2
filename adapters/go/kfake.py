"""franz-go's kfake, an in-memory Kafka cluster, started by the kit on 127.0.0.1 and stopped with it.

The program is ours (``cmd/kfake-broker``, built by :mod:`.build`): it starts
``kfake.NewCluster`` with one broker per port the kit chose (free 127.0.0.1
ports, as for every real broker), prints one ``ready`` line with the addresses,
and stops on SIGTERM or when its stdin closes, so a harness that dies takes the
cluster with it.  kfake binds 127.0.0.1 itself (``pkg/kfake/cluster.go``'s
``newListener``); the launcher still checks every listening socket of the
process, as it does for every broker, and refuses one that listens elsewhere.

kfake's brokers share one in-memory state: there is no replication to lose, so
"failover" in a kfake cluster is a leader move (``MoveTopicPartition``), which
the kit asks for over the program's stdin (:meth:`KfakeCluster.move`).  A broker
can leave the cluster and join it again on its port (:meth:`KfakeCluster.crash`,
``RemoveNode``; :meth:`KfakeCluster.restart`, ``AddNode``); our program's
listeners close every connection they accepted when the broker leaves, as a
crashed process's would (``cmd/kfake-broker/listeners.go``).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.process import BrokerProcess, BrokerStartError, free_port
from kafka_conformance.adapters.go.build import GoBuildError, GoUnavailable, program, source_hash

__all__ = ["KFAKE_VERSION", "KfakeCluster", "KfakeError", "start_kfake"]

KFAKE_VERSION = "v0.0.0-20260918054303-01f206a7e32c"
"""The kfake pseudo-version pinned in ``go.mod`` (kfake has no tags of its own)."""
READY_TIMEOUT_S = 20.0
ANSWER_TIMEOUT_S = 10.0


class KfakeError(RuntimeError):
    """kfake could not be built or started, or did not answer a command in time."""


@attrs.define
class KfakeCluster:
    """A running kfake cluster: where its brokers listen, and its process."""

    process: BrokerProcess
    addresses: tuple[str, ...]
    listening: tuple[tuple[str, int], ...]
    _read: int = 0

    name = "kfake"

    @property
    def host(self) -> str:
        return self.addresses[0].rpartition(":")[0]

    @property
    def port(self) -> int:
        return int(self.addresses[0].rpartition(":")[2])

    @property
    def bootstrap(self) -> str:
        return ",".join(self.addresses)

    @property
    def pid(self) -> int:
        return self.process.pid

    def describe(self) -> str:
        brokers = "one broker" if len(self.addresses) == 1 else f"{len(self.addresses)} brokers"
        return f"kfake {KFAKE_VERSION} (franz-go's in-memory cluster, {brokers}) at {self.bootstrap}"

    def stop(self) -> None:
        self.process.stop()

    # ------------------------------------------------------------- commands

    def _lines(self) -> list[dict[str, Any]]:
        try:
            text = self.process.stdout_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        complete = text[: text.rfind("\n") + 1]
        out = []
        for line in complete[self._read:].splitlines():
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict):
                    out.append(event)
        self._read = len(complete)
        return out

    def command(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one command and wait for its one-line answer."""
        stdin = self.process.proc.stdin
        if stdin is None or not self.process.running():
            raise KfakeError(f"kfake is not running{self._tail()}")
        self._lines()
        try:
            stdin.write((json.dumps({"op": op, **fields}) + "\n").encode())
            stdin.flush()
        except OSError as exc:
            raise KfakeError(f"kfake is gone ({exc}){self._tail()}") from exc
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while time.monotonic() < deadline:
            answers = self._lines()
            if answers:
                return answers[0]
            if not self.process.running():
                break
            time.sleep(0.01)
        raise KfakeError(f"kfake did not answer {op} in {ANSWER_TIMEOUT_S:.0f} s{self._tail()}")

    def move(self, topic: str, partition: int, node: int) -> None:
        answer = self.command("move", topic=topic, partition=partition, node=node)
        if answer.get("event") != "moved":
            raise KfakeError(f"kfake could not move {topic}-{partition} to node {node}: {answer.get('message', answer)}")

    def crash(self, node: int) -> None:
        """Broker ``node`` leaves the cluster: its listener and every connection it accepted close."""
        answer = self.command("crash", node=node)
        if answer.get("event") != "crashed":
            raise KfakeError(f"kfake could not take broker {node} down: {answer.get('message', answer)}")

    def restart(self, node: int) -> None:
        """Broker ``node`` joins the cluster again on the port it had."""
        port = int(self.addresses[node].rpartition(":")[2])
        answer = self.command("restart", node=node, port=port)
        if answer.get("event") != "restarted":
            raise KfakeError(f"kfake could not bring broker {node} back on port {port}: {answer.get('message', answer)}")

    def leader(self, topic: str, partition: int) -> int:
        answer = self.command("leader", topic=topic, partition=partition)
        return int(answer.get("node", -1))

    def _tail(self) -> str:
        return "\n" + self.process.output_tail()


def _ready(process: BrokerProcess, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        with contextlib.suppress(OSError, ValueError):
            for line in process.stdout_path.read_text(encoding="utf-8").splitlines():
                event = json.loads(line)
                if isinstance(event, dict) and event.get("event") == "ready":
                    return event
        if not process.running():
            raise process.fail("exited before it was ready")
        if time.monotonic() >= deadline:
            raise process.fail(f"no ready line after {timeout_s}s")
        time.sleep(0.02)


def start_kfake(brokers: int = 1, *, extra_args: Sequence[str] = (), timeout_s: float = READY_TIMEOUT_S) -> KfakeCluster:
    """Build (on first use) and start a kfake cluster of ``brokers`` brokers on free 127.0.0.1 ports.

    Raises :class:`KfakeError` when Go is missing or the build fails (the message says
    which and how to fix it), :class:`BrokerStartError` when the cluster does not start."""
    from kafka_conformance.adapters.brokers.launchers import _wait_api_versions

    if brokers < 1:
        raise ValueError(f"a kfake cluster needs at least one broker, not {brokers}")
    try:
        binary = program("kfake")
    except (GoUnavailable, GoBuildError) as exc:
        raise KfakeError(f"kfake cannot be built: {exc}") from exc
    last: BrokerStartError | None = None
    for _ in range(3):
        ports = [free_port() for _ in range(brokers)]
        argv = [str(binary), "-ports", ",".join(map(str, ports)), *extra_args]
        process = BrokerProcess("kfake", argv, keep_stdin=True)
        try:
            ready = _ready(process, timeout_s)
            for port in ports:
                process.wait_listening(port, timeout_s)
                _wait_api_versions("127.0.0.1", port, timeout_s, process)
            listening = process.check_loopback_only()
        except BrokerStartError as exc:
            process.stop()
            last = exc
            if "exited" not in str(exc):  # a port taken between our choice and its bind: try other ports
                raise
            continue
        addresses = tuple(str(a) for a in ready.get("addrs", ()))
        if [int(a.rpartition(":")[2]) for a in addresses] != ports:
            process.stop()
            raise BrokerStartError(f"kfake listens on {addresses}, not on the ports it was given ({ports})")
        return KfakeCluster(process, addresses, listening)
    assert last is not None
    raise last


@contextlib.contextmanager
def kfake_cluster(brokers: int = 1, *, extra_args: Sequence[str] = ()) -> Iterator[KfakeCluster]:
    """:func:`start_kfake` for the length of a block; stopped (with everything it started) at its end."""
    cluster = start_kfake(brokers, extra_args=extra_args)
    try:
        yield cluster
    finally:
        cluster.stop()


def kfake_reason() -> str | None:
    """None when kfake can run here (built, or Go present to build it), else why not and the fix."""
    from kafka_conformance.adapters.go.build import cached_program, go_tool

    if cached_program("kfake") is not None:
        return None
    try:
        go_tool()
    except GoUnavailable as exc:
        return f"kfake is not built here (sources {source_hash()}) and {exc}"
    return None
