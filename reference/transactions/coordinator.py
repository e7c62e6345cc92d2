"""The transaction coordinator of one transactional id, as a state machine (KIP-98, KIP-890).

Written to be read beside ``TransactionCoordinator.scala`` and
``TransactionMetadata.scala`` (``core/src/main/scala/kafka/coordinator/transaction/``):
each public function is one request handler, checks in Kafka's order, and returns the
error the client gets with the metadata after the request.  The facts and their lines
at the release tags are in ``docs/spec/transactions.md``.

The model writes a transaction's markers as part of EndTxn, so PrepareCommit and
PrepareAbort are never seen between two requests: Kafka answers EndTxn once the
Prepare state is logged and writes the markers after, and a request arriving in between
gets CONCURRENT_TRANSACTIONS, which every client retries until the markers are written.
A harness that drives a real broker retries it too, and the model answers what the
retry finally gets.  :func:`end_transaction` still says what Kafka answers in each
Prepare state, for the cases Kafka's own tests restate.
"""

from __future__ import annotations

import enum

import attrs

from kafka_conformance.reference.transactions.profile import TxnProfile

__all__ = [
    "EPOCH_EXHAUSTED",
    "MAX_TRANSACTION_TIMEOUT_MS",
    "CoordinatorAnswer",
    "Markers",
    "TxnError",
    "TxnMetadata",
    "TxnState",
    "add_partitions",
    "end_transaction",
    "init_producer_id",
    "time_out",
    "verify_partition",
]

EPOCH_EXHAUSTED = 32766
"""``Short.MaxValue - 1``: an epoch this high is not bumped again; the coordinator issues a new
producer id at epoch 0 instead (``TransactionMetadata.isProducerEpochExhausted``)."""

MAX_TRANSACTION_TIMEOUT_MS = 900_000
"""``transaction.max.timeout.ms``'s default (15 minutes): a longer ``transaction.timeout.ms``
gets INVALID_TRANSACTION_TIMEOUT."""


class TxnError(enum.IntEnum):
    """The error codes transaction requests are answered with (``Errors.java``)."""

    NONE = 0
    INVALID_REQUEST = 42
    INVALID_PRODUCER_EPOCH = 47
    INVALID_TXN_STATE = 48
    INVALID_PRODUCER_ID_MAPPING = 49
    INVALID_TRANSACTION_TIMEOUT = 50
    CONCURRENT_TRANSACTIONS = 51
    PRODUCER_FENCED = 90
    TRANSACTION_ABORTABLE = 120


class TxnState(enum.Enum):
    """``TransactionState``; Dead and PrepareEpochFence are internal and never modelled."""

    EMPTY = "Empty"
    ONGOING = "Ongoing"
    PREPARE_COMMIT = "PrepareCommit"
    PREPARE_ABORT = "PrepareAbort"
    COMPLETE_COMMIT = "CompleteCommit"
    COMPLETE_ABORT = "CompleteAbort"


_COMPLETE = (TxnState.EMPTY, TxnState.COMPLETE_COMMIT, TxnState.COMPLETE_ABORT)


@attrs.frozen
class TxnMetadata:
    """What the coordinator keeps for one transactional id (``TransactionMetadata``)."""

    transactional_id: str
    producer_id: int
    epoch: int
    timeout_ms: int
    state: TxnState = TxnState.EMPTY
    partitions: frozenset[int] = frozenset()
    """The partitions of the ongoing transaction (one topic in this model)."""
    started_ms: int = -1
    """``txnStartTimestamp``: when the first partition was added; -1 with none."""
    last_epoch: int = -1
    """``lastProducerEpoch`` (KIP-360, KIP-890 part 2): the epoch before the last bump, so a
    retried request of the bumped epoch is recognised."""


@attrs.frozen
class Markers:
    """The markers EndTxn (or the coordinator itself) writes to each partition of a transaction."""

    producer_id: int
    epoch: int
    """The epoch the markers carry: the transaction's, or the bumped one after a fence or a
    timeout, and with transaction.version 2 always the bumped one."""
    commit: bool
    partitions: frozenset[int]


@attrs.frozen
class CoordinatorAnswer:
    """One request's answer: the error, the metadata after it, and the markers it wrote."""

    error: TxnError
    metadata: TxnMetadata | None
    markers: tuple[Markers, ...] = ()
    rule: str = ""

    @property
    def producer_id(self) -> int:
        return self.metadata.producer_id if self.metadata is not None and self.error is TxnError.NONE else -1

    @property
    def epoch(self) -> int:
        return self.metadata.epoch if self.metadata is not None and self.error is TxnError.NONE else -1


def _refuse(error: TxnError, metadata: TxnMetadata | None, rule: str) -> CoordinatorAnswer:
    return CoordinatorAnswer(error, metadata, (), rule)


def init_producer_id(
    metadata: TxnMetadata | None,
    transactional_id: str,
    timeout_ms: int,
    next_producer_id: int,
) -> CoordinatorAnswer:
    """InitProducerId with a transactional id (``handleInitProducerId``), the same from 3.0 to 4.x
    for a client that sends no expected producer id and epoch (KIP-360's, not modelled).

    A new id gets ``next_producer_id`` at epoch 0.  A known one in Empty or Complete* has
    its epoch bumped, fencing every older instance of the producer; at an exhausted epoch
    it gets ``next_producer_id`` at epoch 0 instead.  In Ongoing, the coordinator first
    fences the open transaction (epoch + 1) and aborts it with markers of that epoch, and
    answers CONCURRENT_TRANSACTIONS; the client's retry then finds CompleteAbort and bumps
    once more, so the model answers epoch + 2, what the retry gets.
    """
    if not transactional_id:
        return _refuse(TxnError.INVALID_REQUEST, metadata, "an empty transactional id")
    if not 0 < timeout_ms <= MAX_TRANSACTION_TIMEOUT_MS:
        return _refuse(TxnError.INVALID_TRANSACTION_TIMEOUT, metadata,
                       f"transaction.timeout.ms {timeout_ms} outside (0, {MAX_TRANSACTION_TIMEOUT_MS}]")
    if metadata is None:
        fresh = TxnMetadata(transactional_id, next_producer_id, 0, timeout_ms)
        return CoordinatorAnswer(TxnError.NONE, fresh, (), "a new transactional id: a new producer id at epoch 0")
    markers: tuple[Markers, ...] = ()
    current = metadata
    if current.state is TxnState.ONGOING:  # fence (epoch + 1) and abort
        fenced = _complete(current, False, current.epoch + 1, "")
        assert fenced.metadata is not None
        current, markers = fenced.metadata, fenced.markers
    elif current.state not in _COMPLETE:
        return _refuse(TxnError.CONCURRENT_TRANSACTIONS, metadata, f"markers of {current.state.value} still pending")
    if current.epoch >= EPOCH_EXHAUSTED:
        bumped = attrs.evolve(current, producer_id=next_producer_id, epoch=0, last_epoch=-1, state=TxnState.EMPTY,
                              timeout_ms=timeout_ms)
        rule = "epoch exhausted: a new producer id at epoch 0"
    else:
        bumped = attrs.evolve(current, epoch=current.epoch + 1, last_epoch=current.epoch, state=TxnState.EMPTY,
                              timeout_ms=timeout_ms)
        rule = "known transactional id: epoch bumped"
    if markers:
        rule = "open transaction fenced and aborted, then (on the client's retry) " + rule
    return CoordinatorAnswer(TxnError.NONE, bumped, markers, rule)


def _check_producer(metadata: TxnMetadata | None, producer_id: int, epoch: int) -> CoordinatorAnswer | None:
    if metadata is None or metadata.producer_id != producer_id:
        return _refuse(TxnError.INVALID_PRODUCER_ID_MAPPING, metadata, "the producer id is not the transactional id's")
    if metadata.epoch != epoch:
        return _refuse(TxnError.PRODUCER_FENCED, metadata, f"epoch {epoch} is not the current {metadata.epoch}")
    return None


def add_partitions(
    metadata: TxnMetadata | None,
    producer_id: int,
    epoch: int,
    partitions: frozenset[int],
    now_ms: int,
) -> CoordinatorAnswer:
    """AddPartitionsToTxn from a client (``handleAddPartitionsToTransaction``): the partitions
    join the transaction, which becomes Ongoing (its timeout counting from the first add)."""
    refused = _check_producer(metadata, producer_id, epoch)
    if refused is not None:
        return refused
    assert metadata is not None
    if metadata.state in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
        return _refuse(TxnError.CONCURRENT_TRANSACTIONS, metadata, f"markers of {metadata.state.value} still pending")
    if metadata.state is TxnState.ONGOING and partitions <= metadata.partitions:
        return CoordinatorAnswer(TxnError.NONE, metadata, (), "every partition already in the transaction")
    started = metadata.started_ms if metadata.state is TxnState.ONGOING else now_ms
    joined = attrs.evolve(metadata, state=TxnState.ONGOING, partitions=metadata.partitions | partitions, started_ms=started)
    return CoordinatorAnswer(TxnError.NONE, joined, (), "partitions added; the transaction is ongoing")


def verify_partition(metadata: TxnMetadata | None, producer_id: int, epoch: int, partition: int,
                     profile: TxnProfile) -> TxnError:
    """AddPartitionsToTxn v4 ``verifyOnly`` from a partition leader (KIP-890 part 1, 3.6): NONE
    when the partition is in the producer's ongoing transaction; a partition not in it is
    INVALID_TXN_STATE, TRANSACTION_ABORTABLE from 3.8 (:attr:`TxnProfile.abortable_verification`)."""
    refused = _check_producer(metadata, producer_id, epoch)
    if refused is not None:
        return refused.error
    assert metadata is not None
    if metadata.state in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
        return TxnError.CONCURRENT_TRANSACTIONS
    if metadata.state is not TxnState.ONGOING or partition not in metadata.partitions:
        return TxnError.TRANSACTION_ABORTABLE if profile.abortable_verification else TxnError.INVALID_TXN_STATE
    return TxnError.NONE


def end_transaction(
    metadata: TxnMetadata | None,
    producer_id: int,
    epoch: int,
    commit: bool,
    profile: TxnProfile,
) -> CoordinatorAnswer:
    """EndTxn (``handleEndTransaction``): commit or abort the ongoing transaction.

    Ongoing goes to Complete* with markers on each partition.  With transaction.version 1 the
    markers carry the transaction's epoch; a retry of the same outcome in Complete* succeeds,
    the other outcome, or EndTxn with nothing begun, is INVALID_TXN_STATE, and any epoch but
    the current one is PRODUCER_FENCED.  With transaction.version 2 see :func:`_end_v2`.
    """
    if profile.bumps_epoch_per_transaction:
        return _end_v2(metadata, producer_id, epoch, commit)
    word = "commit" if commit else "abort"
    refused = _check_producer(metadata, producer_id, epoch)
    if refused is not None:
        return refused
    assert metadata is not None
    state = metadata.state
    if state is TxnState.ONGOING:
        return _complete(metadata, commit, metadata.epoch, f"{word}: markers written to {sorted(metadata.partitions)}")
    if state is (TxnState.COMPLETE_COMMIT if commit else TxnState.COMPLETE_ABORT):
        return CoordinatorAnswer(TxnError.NONE, metadata, (), f"a retried {word}: already complete")
    if state is (TxnState.PREPARE_COMMIT if commit else TxnState.PREPARE_ABORT):
        return _refuse(TxnError.CONCURRENT_TRANSACTIONS, metadata, f"a retried {word}: markers still pending")
    return _refuse(TxnError.INVALID_TXN_STATE, metadata, f"{word} in state {state.value}")


def _complete(metadata: TxnMetadata, commit: bool, epoch: int, rule: str) -> CoordinatorAnswer:
    """Write the markers (of ``epoch``) and complete: the model's PrepareX then CompleteX."""
    markers = Markers(metadata.producer_id, epoch, commit, metadata.partitions)
    done = attrs.evolve(metadata, state=TxnState.COMPLETE_COMMIT if commit else TxnState.COMPLETE_ABORT,
                        partitions=frozenset(), started_ms=-1, epoch=epoch,
                        last_epoch=metadata.epoch if epoch != metadata.epoch else metadata.last_epoch)
    return CoordinatorAnswer(TxnError.NONE, done, (markers,), rule)


def _end_v2(metadata: TxnMetadata | None, producer_id: int, epoch: int, commit: bool) -> CoordinatorAnswer:
    """EndTxn v5+ with transaction.version 2 (KIP-890 part 2; ``endTransaction`` and the table above
    it in ``TransactionCoordinator.scala`` at 4.3.1).  Every completion bumps the epoch, so the
    epoch a request carries says whether it is a retry (the epoch just before the bump) or the
    next EndTxn (the current epoch):

    ===============  ===============  ===============
    state            abort            commit
                     retry / current  retry / current
    ===============  ===============  ===============
    Empty            fenced / bump    fenced / 48
    CompleteAbort    none / bump      48 / 48
    CompleteCommit   48 / bump        none / 48
    ===============  ===============  ===============

    "bump": an abort with no partitions that only bumps the epoch; "none": success, nothing
    done; 48 is INVALID_TXN_STATE; "fenced" is PRODUCER_FENCED.  Exhausting the epoch rotates the
    producer id, which a script never reaches, so it is not modelled here.
    """
    word = "commit" if commit else "abort"
    if metadata is None or metadata.producer_id != producer_id:
        return _refuse(TxnError.INVALID_PRODUCER_ID_MAPPING, metadata, "the producer id is not the transactional id's")
    state = metadata.state
    retry = metadata.epoch == epoch + 1
    if state in (TxnState.ONGOING, TxnState.EMPTY):
        valid = epoch == metadata.epoch
    elif state in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
        valid = retry
    else:
        valid = retry or epoch == metadata.epoch
    if not valid:
        return _refuse(TxnError.PRODUCER_FENCED, metadata, f"epoch {epoch} is neither the current {metadata.epoch} nor a retry")
    bumped = metadata.epoch + 1
    if state is TxnState.ONGOING:
        return _complete(metadata, commit, bumped, f"{word}: markers of epoch {bumped} written to {sorted(metadata.partitions)}")
    if state in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
        same = state is (TxnState.PREPARE_COMMIT if commit else TxnState.PREPARE_ABORT)
        return _refuse(TxnError.CONCURRENT_TRANSACTIONS if same else TxnError.INVALID_TXN_STATE, metadata,
                       f"{word} while markers of {state.value} are pending")
    matching = state is (TxnState.COMPLETE_COMMIT if commit else TxnState.COMPLETE_ABORT)
    if retry:
        if matching:
            return CoordinatorAnswer(TxnError.NONE, metadata, (), f"a retried {word} of epoch {epoch}: already complete")
        return _refuse(TxnError.INVALID_TXN_STATE, metadata, f"a retried {word} in {state.value}")
    if not commit:
        return _complete(metadata, False, bumped, f"abort with no transaction open: epoch bumped to {bumped}")
    return _refuse(TxnError.INVALID_TXN_STATE, metadata, f"commit in {state.value}")


def time_out(metadata: TxnMetadata, now_ms: int) -> CoordinatorAnswer | None:
    """``abortTimedOutTransactions``: an Ongoing transaction older than its timeout is fenced
    (epoch + 1) and aborted with markers of the new epoch; None when nothing times out.

    The same on every modelled release, with either transaction version:
    ``prepareFenceProducerEpoch`` (epoch + 1), then ``endTransaction(..., isFromClient = false)``
    (``TransactionCoordinator.scala``, 3.5.2 lines 677-712; 4.3.1 lines 1031-1067).  With
    transaction.version 1 the abort keeps the fenced epoch; with version 2 the fence is left to
    ``prepareAbortOrCommit``'s own bump (``TransactionMetadata.java`` 4.3.1 lines 235-263), so
    the markers carry epoch + 1 both ways.  The fenced producer's next EndTxn then finds
    CompleteAbort one epoch on: version 1 answers PRODUCER_FENCED; version 2 takes it for a
    retry of the abort (:func:`_end_v2`: an abort succeeds, a commit is INVALID_TXN_STATE)."""
    if metadata.state is not TxnState.ONGOING or now_ms - metadata.started_ms <= metadata.timeout_ms:
        return None
    return _complete(metadata, False, metadata.epoch + 1, "transaction timed out: fenced and aborted")
