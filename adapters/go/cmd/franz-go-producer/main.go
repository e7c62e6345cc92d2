// Command franz-go-producer runs franz-go's kgo producer under the kit's
// JSON-lines producer protocol (see internal/runner).
package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"kafka-conformance/adapters/go/internal/runner"
)

type producer struct {
	cl   *kgo.Client
	done func(runner.Completion)
}

func open(s runner.Settings, done func(runner.Completion)) (runner.Producer, error) {
	opts := []kgo.Opt{
		kgo.SeedBrokers(s.Bootstrap...),
		kgo.ClientID(s.ClientID),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		// Notice a moved leader soon after an injected fault, as the Java client does.
		kgo.MetadataMinAge(100 * time.Millisecond),
		kgo.MetadataMaxAge(2 * time.Second),
	}
	idempotent := s.Idempotent == nil || *s.Idempotent
	if !idempotent {
		opts = append(opts, kgo.DisableIdempotentWrite())
		if s.MaxInFlight != nil {
			opts = append(opts, kgo.MaxProduceRequestsInflightPerBroker(*s.MaxInFlight))
		}
	}
	if s.Acks != nil {
		switch *s.Acks {
		case -1:
			opts = append(opts, kgo.RequiredAcks(kgo.AllISRAcks()))
		case 1:
			opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()))
		case 0:
			opts = append(opts, kgo.RequiredAcks(kgo.NoAck()))
		default:
			return nil, runner.ConfigError{Err: fmt.Errorf("acks=%d is not -1, 0 or 1", *s.Acks)}
		}
	}
	if s.Retries != nil {
		opts = append(opts, kgo.RecordRetries(*s.Retries))
	}
	if s.RequestTimeoutMs != nil {
		opts = append(opts, kgo.ProduceRequestTimeout(runner.Ms(*s.RequestTimeoutMs)))
	}
	if s.DeliveryTimeoutMs != nil {
		opts = append(opts, kgo.RecordDeliveryTimeout(runner.Ms(*s.DeliveryTimeoutMs)))
	}
	if s.LingerMs != nil {
		opts = append(opts, kgo.ProducerLinger(runner.Ms(*s.LingerMs)))
	}
	if s.RetryBackoffMs != nil {
		backoff := runner.Ms(*s.RetryBackoffMs)
		opts = append(opts, kgo.RetryBackoffFn(func(int) time.Duration { return backoff }))
	}
	if s.BatchSize != nil {
		opts = append(opts, kgo.ProducerBatchMaxBytes(int32(*s.BatchSize)))
	}
	if s.TransactionalID != "" {
		opts = append(opts, kgo.TransactionalID(s.TransactionalID))
		if s.TransactionTimeoutMs != nil {
			opts = append(opts, kgo.TransactionTimeout(runner.Ms(*s.TransactionTimeoutMs)))
		}
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		// NewClient only validates the options; it does not dial.
		return nil, runner.ConfigError{Err: err}
	}
	return &producer{cl: cl, done: done}, nil
}

func (p *producer) Send(id, topic string, partition int32, value string) {
	rec := &kgo.Record{Topic: topic, Partition: partition, Value: []byte(value)}
	p.cl.Produce(context.Background(), rec, func(r *kgo.Record, err error) {
		p.done(runner.Completion{ID: id, Offset: r.Offset, Err: err, Sync: errors.Is(err, kgo.ErrMaxBuffered)})
	})
}

func (p *producer) Flush() { _ = p.cl.Flush(context.Background()) }

// Txn follows franz-go's documentation of EndTransaction: flush before a commit, drop what is
// buffered before an abort; a commit it refuses (OperationNotAttempted, TransactionAbortable, an
// unconfirmed outcome) is left to the harness, which aborts. franz-go has no init call: the
// producer ID is loaded when the first transaction produces.
func (p *producer) Txn(action string) (bool, error) {
	ctx := context.Background()
	var err error
	switch action {
	case "init":
		return false, nil
	case "begin":
		err = p.cl.BeginTransaction()
	case "commit":
		if err = p.cl.Flush(ctx); err == nil {
			err = p.cl.EndTransaction(ctx, kgo.TryCommit)
		}
	case "abort":
		if err = p.cl.AbortBufferedRecords(ctx); err == nil {
			err = p.cl.EndTransaction(ctx, kgo.TryAbort)
		}
	default:
		return true, fmt.Errorf("unknown transactional call %q", action)
	}
	return err != nil && (errors.Is(err, kerr.ProducerFenced) || errors.Is(err, kerr.TransactionalIDAuthorizationFailed) ||
		errors.Is(err, kerr.ClusterAuthorizationFailed) || errors.Is(err, kgo.ErrClientClosed)), err
}

func (p *producer) Close(timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p.cl.AbortBufferedRecords(ctx) //nolint:errcheck // the records' own callbacks report them
	p.cl.Close()
}

var sentinels = []struct {
	err  error
	name string
}{
	{kgo.ErrRecordTimeout, "kgo.ErrRecordTimeout"},
	{kgo.ErrRecordRetries, "kgo.ErrRecordRetries"},
	{kgo.ErrMaxBuffered, "kgo.ErrMaxBuffered"},
	{kgo.ErrAborting, "kgo.ErrAborting"},
	{kgo.ErrClientClosed, "kgo.ErrClientClosed"},
	{context.Canceled, "context.Canceled"},
	{context.DeadlineExceeded, "context.DeadlineExceeded"},
}

func describe(err error) (string, string, int16) {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return "kerr." + ke.Message, err.Error(), ke.Code
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.name, err.Error(), 0
		}
	}
	return fmt.Sprintf("%T", err), err.Error(), 0
}

func main() { runner.Main(open, describe) }
