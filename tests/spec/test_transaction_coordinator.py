"""The coordinator spec against Kafka's own coordinator tests, case by case.

Each test restates one test method of ``TransactionCoordinatorTest.scala`` (TCT) or
``TransactionMetadataTest.scala`` (TMT) at 3.9.0-rc3, named after it, where the method's
case is a request answered by :mod:`kafka_conformance.reference.transactions.coordinator`:
36 TCT methods and 3 TMT methods.  Methods about the coordinator's plumbing (not being
the coordinator, loading, log append failures, emigration, DescribeTransactions,
KIP-360's expected epoch, which no script sends) are not restated.  The transaction.version 2
table is restated from the comment above ``endTransaction`` in ``TransactionCoordinator.scala``
at 4.3.1.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference.transactions.coordinator import (
    EPOCH_EXHAUSTED,
    TxnError,
    TxnMetadata,
    TxnState,
    add_partitions,
    end_transaction,
    init_producer_id,
    time_out,
    verify_partition,
)
from kafka_conformance.reference.transactions.profile import txn_profile

V1 = txn_profile("3.9.1")
V35 = txn_profile("3.5.2")
V2 = txn_profile("4.3.1", transaction_version=2)
PID, EPOCH, TXN = 10, 1, "txn"


def md(state: TxnState = TxnState.EMPTY, epoch: int = EPOCH, partitions: set[int] | None = None, **kw: object) -> TxnMetadata:
    return TxnMetadata(TXN, PID, epoch, 60_000, state, frozenset(partitions or ()), **kw)  # type: ignore[arg-type]


# -- InitProducerId --------------------------------------------------------------


def test_shouldReturnInvalidRequestWhenTransactionalIdIsEmpty() -> None:
    assert init_producer_id(None, "", 60_000, 0).error is TxnError.INVALID_REQUEST


def test_shouldInitPidWithEpochZeroForNewTransactionalId() -> None:
    answer = init_producer_id(None, TXN, 60_000, 0)
    assert (answer.error, answer.producer_id, answer.epoch) == (TxnError.NONE, 0, 0)


def test_shouldGenerateNewProducerIdIfEpochsExhausted() -> None:
    answer = init_producer_id(md(epoch=EPOCH_EXHAUSTED), TXN, 60_000, 99)
    assert (answer.error, answer.producer_id, answer.epoch) == (TxnError.NONE, 99, 0)


@pytest.mark.parametrize("state", [TxnState.EMPTY, TxnState.COMPLETE_ABORT, TxnState.COMPLETE_COMMIT])
def test_shouldIncrementEpochAndUpdateMetadataOnHandleInitPidWhenExisting(state: TxnState) -> None:
    """Restates the three methods ...WhenExistingEmptyTransaction, ...CompleteTransaction and
    ...CompleteCommitTransaction: the epoch goes up by one, the timeout is the new one."""
    answer = init_producer_id(md(state), TXN, 30_000, 99)
    assert (answer.error, answer.producer_id, answer.epoch) == (TxnError.NONE, PID, EPOCH + 1)
    assert answer.metadata is not None and answer.metadata.timeout_ms == 30_000


@pytest.mark.parametrize("state", [TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT])
def test_shouldWaitForCommitToCompleteOnHandleInitPidAndExistingTransactionInPrepareState(state: TxnState) -> None:
    """Restates ...InPrepareCommitState and ...InPrepareAbortState."""
    assert init_producer_id(md(state), TXN, 60_000, 99).error is TxnError.CONCURRENT_TRANSACTIONS


def test_shouldAbortTransactionOnHandleInitPidWhenExistingTransactionInOngoingState() -> None:
    """Kafka aborts at epoch + 1 and answers CONCURRENT_TRANSACTIONS; the model answers what the
    client's retry gets (epoch + 2) and writes the abort markers of epoch + 1."""
    answer = init_producer_id(md(TxnState.ONGOING, partitions={0, 1}), TXN, 60_000, 99)
    assert (answer.error, answer.epoch) == (TxnError.NONE, EPOCH + 2)
    (markers,) = answer.markers
    assert (markers.epoch, markers.commit, markers.partitions) == (EPOCH + 1, False, frozenset({0, 1}))


def test_invalid_transaction_timeout() -> None:
    """``validateTransactionTimeoutMs``: above ``transaction.max.timeout.ms`` or not positive."""
    assert init_producer_id(None, TXN, 900_001, 0).error is TxnError.INVALID_TRANSACTION_TIMEOUT
    assert init_producer_id(None, TXN, 0, 0).error is TxnError.INVALID_TRANSACTION_TIMEOUT


# -- AddPartitionsToTxn ------------------------------------------------------------


def test_shouldRespondWithInvalidPidMappingOnAddPartitionsToTransactionWhenTransactionalIdNotPresent() -> None:
    assert add_partitions(None, PID, EPOCH, frozenset({0}), 0).error is TxnError.INVALID_PRODUCER_ID_MAPPING


@pytest.mark.parametrize("state", [TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT])
def test_shouldRespondWithConcurrentTransactionsOnAddPartitionsWhenStateIsPrepare(state: TxnState) -> None:
    """Restates ...WhenStateIsPrepareCommit and ...WhenStateIsPrepareAbort."""
    assert add_partitions(md(state), PID, EPOCH, frozenset({0}), 0).error is TxnError.CONCURRENT_TRANSACTIONS


def test_shouldRespondWithProducerFencedOnAddPartitionsWhenEpochsAreDifferent() -> None:
    assert add_partitions(md(epoch=10), PID, 0, frozenset({0}), 0).error is TxnError.PRODUCER_FENCED


@pytest.mark.parametrize("state", [TxnState.EMPTY, TxnState.ONGOING, TxnState.COMPLETE_COMMIT, TxnState.COMPLETE_ABORT])
def test_shouldRespondWithSuccessOnAddPartitionsWhenStateIs(state: TxnState) -> None:
    """Restates ...WhenPartitionsAdded (Empty), ...WhenStateIsOngoing, ...CompleteCommit, ...CompleteAbort."""
    answer = add_partitions(md(state, partitions={0} if state is TxnState.ONGOING else None, started_ms=5), PID, EPOCH,
                            frozenset({1}), 100)
    assert answer.error is TxnError.NONE
    assert answer.metadata is not None and answer.metadata.state is TxnState.ONGOING
    assert 1 in answer.metadata.partitions
    assert answer.metadata.started_ms == (5 if state is TxnState.ONGOING else 100)


def test_shouldRespondWithErrorsNoneOnAddPartitionWhenNoErrorsAndPartitionsTheSame() -> None:
    metadata = md(TxnState.ONGOING, partitions={0})
    answer = add_partitions(metadata, PID, EPOCH, frozenset({0}), 0)
    assert (answer.error, answer.metadata) == (TxnError.NONE, metadata)


def test_testVerifyPartitionHandling() -> None:
    ongoing = md(TxnState.ONGOING, partitions={0})
    assert verify_partition(ongoing, PID + 1, EPOCH, 0, V1) is TxnError.INVALID_PRODUCER_ID_MAPPING
    assert verify_partition(ongoing, PID, EPOCH + 1, 0, V1) is TxnError.PRODUCER_FENCED
    assert verify_partition(md(TxnState.PREPARE_COMMIT), PID, EPOCH, 0, V1) is TxnError.CONCURRENT_TRANSACTIONS
    assert verify_partition(ongoing, PID, EPOCH, 1, V1) is TxnError.TRANSACTION_ABORTABLE


def test_shouldRespondWithErrorsNoneOnAddPartitionWhenOngoingVerifyOnlyAndPartitionsTheSame() -> None:
    assert verify_partition(md(TxnState.ONGOING, partitions={0, 1}), PID, EPOCH, 1, V1) is TxnError.NONE


def test_shouldRespondWithInvalidTxnStateWhenVerifyOnlyAndPartitionNotPresent() -> None:
    """TRANSACTION_ABORTABLE from 3.8 (KAFKA-16314); the method kept its 3.6 name, when it was INVALID_TXN_STATE."""
    ongoing = md(TxnState.ONGOING, partitions={0})
    assert verify_partition(ongoing, PID, EPOCH, 1, V1) is TxnError.TRANSACTION_ABORTABLE
    assert verify_partition(ongoing, PID, EPOCH, 1, txn_profile("3.6.2")) is TxnError.INVALID_TXN_STATE


# -- EndTxn (transaction.version 1) --------------------------------------------------


def test_shouldReplyWithInvalidPidMappingOnEndTxnWhenTxnIdDoesntExist() -> None:
    assert end_transaction(None, PID, EPOCH, True, V1).error is TxnError.INVALID_PRODUCER_ID_MAPPING


def test_shouldReplyWithInvalidPidMappingOnEndTxnWhenPidDosentMatchMapped() -> None:
    assert end_transaction(md(TxnState.ONGOING), PID + 1, EPOCH, True, V1).error is TxnError.INVALID_PRODUCER_ID_MAPPING


def test_shouldReplyWithProducerFencedOnEndTxnWhenEpochIsNotSameAsTransaction() -> None:
    assert end_transaction(md(TxnState.ONGOING), PID, EPOCH - 1, True, V1).error is TxnError.PRODUCER_FENCED


def test_shouldReturnOkOnEndTxnWhenStatusIsCompleteCommitAndResultIsCommit() -> None:
    answer = end_transaction(md(TxnState.COMPLETE_COMMIT), PID, EPOCH, True, V1)
    assert (answer.error, answer.markers) == (TxnError.NONE, ())


def test_shouldReturnOkOnEndTxnWhenStatusIsCompleteAbortAndResultIsAbort() -> None:
    answer = end_transaction(md(TxnState.COMPLETE_ABORT), PID, EPOCH, False, V1)
    assert (answer.error, answer.markers) == (TxnError.NONE, ())


def test_shouldReturnInvalidTxnRequestOnEndTxnRequestWhenStatusIsCompleteAbortAndResultIsNotAbort() -> None:
    assert end_transaction(md(TxnState.COMPLETE_ABORT), PID, EPOCH, True, V1).error is TxnError.INVALID_TXN_STATE


def test_shouldReturnInvalidTxnRequestOnEndTxnRequestWhenStatusIsCompleteCommitAndResultIsNotCommit() -> None:
    assert end_transaction(md(TxnState.COMPLETE_COMMIT), PID, EPOCH, False, V1).error is TxnError.INVALID_TXN_STATE


def test_shouldReturnConcurrentTxnRequestOnEndTxnRequestWhenStatusIsPrepareCommit() -> None:
    assert end_transaction(md(TxnState.PREPARE_COMMIT), PID, EPOCH, True, V1).error is TxnError.CONCURRENT_TRANSACTIONS


def test_shouldReturnInvalidTxnRequestOnEndTxnRequestWhenStatusIsPrepareAbort() -> None:
    assert end_transaction(md(TxnState.PREPARE_ABORT), PID, EPOCH, True, V1).error is TxnError.INVALID_TXN_STATE


@pytest.mark.parametrize("commit", [True, False])
def test_shouldAppendPrepareToLogOnEndTxnWhenStatusIsOngoing(commit: bool) -> None:
    """Restates ...PrepareCommitToLog...ResultIsCommit and ...PrepareAbortToLog...ResultIsAbort:
    markers of the transaction's own epoch on every partition, then Complete*."""
    answer = end_transaction(md(TxnState.ONGOING, partitions={0, 2}), PID, EPOCH, commit, V1)
    (markers,) = answer.markers
    assert (markers.epoch, markers.commit, markers.partitions) == (EPOCH, commit, frozenset({0, 2}))
    assert answer.metadata is not None
    assert answer.metadata.state is (TxnState.COMPLETE_COMMIT if commit else TxnState.COMPLETE_ABORT)
    assert answer.metadata.partitions == frozenset()


def test_shouldReturnInvalidEpochOnEndTxnWhenEpochIsLarger() -> None:
    assert end_transaction(md(TxnState.COMPLETE_COMMIT), PID, EPOCH + 1, True, V1).error is TxnError.PRODUCER_FENCED


def test_shouldReturnInvalidEpochOnEndTxnWhenEpochIsSmaller() -> None:
    assert end_transaction(md(TxnState.COMPLETE_COMMIT), PID, EPOCH - 1, True, V1).error is TxnError.PRODUCER_FENCED


def test_end_in_empty_is_invalid_txn_state() -> None:
    """``case Empty => logInvalidStateTransitionAndReturnError`` (TV1), for commit and abort."""
    for commit in (True, False):
        assert end_transaction(md(), PID, EPOCH, commit, V35).error is TxnError.INVALID_TXN_STATE


# -- timeouts ------------------------------------------------------------------------


def test_shouldAbortExpiredTransactionsInOngoingStateAndBumpEpoch() -> None:
    answer = time_out(md(TxnState.ONGOING, partitions={0}, started_ms=0), 60_001)
    assert answer is not None and answer.metadata is not None
    assert (answer.metadata.state, answer.metadata.epoch) == (TxnState.COMPLETE_ABORT, EPOCH + 1)
    assert answer.markers[0].epoch == EPOCH + 1 and not answer.markers[0].commit


def test_shouldNotAbortExpiredTransactionsThatHaveAPendingStateTransition() -> None:
    assert time_out(md(TxnState.PREPARE_COMMIT, started_ms=0), 10**9) is None
    assert time_out(md(TxnState.ONGOING, started_ms=0), 60_000) is None  # not yet past the timeout


# -- TransactionMetadataTest ----------------------------------------------------------


def test_testInitializeEpoch() -> None:
    assert init_producer_id(None, TXN, 60_000, 7).epoch == 0


def test_testNormalEpochBump() -> None:
    answer = init_producer_id(md(epoch=735), TXN, 60_000, 7)
    assert answer.metadata is not None and (answer.epoch, answer.metadata.last_epoch) == (736, 735)


def test_testRotateProducerId() -> None:
    answer = init_producer_id(md(epoch=EPOCH_EXHAUSTED), TXN, 60_000, PID + 1)
    assert (answer.producer_id, answer.epoch) == (PID + 1, 0)


# -- EndTxn with transaction.version 2 (the table above endTransaction, 4.3.1) -------------

PF, ITS, NONE, EB = "fenced", "invalid-state", "none", "bump"
TV2_TABLE = {  # state: (abort retry, abort current, commit retry, commit current)
    TxnState.EMPTY: (PF, EB, PF, ITS),
    TxnState.COMPLETE_ABORT: (NONE, EB, ITS, ITS),
    TxnState.COMPLETE_COMMIT: (ITS, EB, NONE, ITS),
}


def _kind(answer_error: TxnError, epoch_after: int) -> str:
    if answer_error is TxnError.PRODUCER_FENCED:
        return PF
    if answer_error is TxnError.INVALID_TXN_STATE:
        return ITS
    assert answer_error is TxnError.NONE
    return EB if epoch_after == EPOCH + 1 else NONE


@pytest.mark.parametrize("state", list(TV2_TABLE))
def test_end_transaction_v2_table(state: TxnState) -> None:
    got = []
    for commit in (False, True):
        for epoch in (EPOCH - 1, EPOCH):  # retry: the epoch before the bump; current
            answer = end_transaction(md(state), PID, epoch, commit, V2)
            after = answer.metadata.epoch if answer.metadata is not None else -1
            got.append(_kind(answer.error, after))
    assert tuple(got) == TV2_TABLE[state]


def test_end_transaction_v2_bumps_the_epoch_of_the_markers() -> None:
    answer = end_transaction(md(TxnState.ONGOING, partitions={1}), PID, EPOCH, True, V2)
    assert answer.error is TxnError.NONE and answer.markers[0].epoch == EPOCH + 1
    assert answer.metadata is not None and answer.metadata.last_epoch == EPOCH
    retry = end_transaction(answer.metadata, PID, EPOCH, True, V2)
    assert (retry.error, retry.markers, retry.epoch) == (TxnError.NONE, (), EPOCH + 1)


def test_transaction_version_2_needs_kafka_4() -> None:
    with pytest.raises(ValueError, match=r"4\.0\.0"):
        txn_profile("3.9.1", transaction_version=2)
    with pytest.raises(ValueError, match=r"3\.0\.0"):
        txn_profile("2.8.2")
    assert V1.verifies_partitions and not V35.verifies_partitions
