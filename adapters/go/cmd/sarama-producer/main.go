// Command sarama-producer runs IBM/sarama's AsyncProducer under the kit's
// JSON-lines producer protocol (see internal/runner).
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/IBM/sarama"

	"kafka-conformance/adapters/go/internal/runner"
)

type producer struct {
	ap      sarama.AsyncProducer
	done    func(runner.Completion)
	mu      sync.Mutex
	cond    *sync.Cond
	pending int
	readers sync.WaitGroup
}

func config(s runner.Settings) (*sarama.Config, error) {
	c := sarama.NewConfig()
	c.ClientID = s.ClientID
	c.Producer.Return.Successes = true
	c.Producer.Return.Errors = true
	c.Producer.Partitioner = sarama.NewManualPartitioner
	// Reconnect and refresh metadata soon after an injected fault.
	c.Metadata.Retry.Backoff = 50 * time.Millisecond
	c.Metadata.RefreshFrequency = 2 * time.Second
	c.Net.DialTimeout = 5 * time.Second
	c.Version = sarama.MaxVersion
	if s.KafkaVersion != "" {
		v, err := sarama.ParseKafkaVersion(s.KafkaVersion)
		if err != nil {
			return nil, err
		}
		c.Version = v
	}
	c.Producer.Idempotent = s.Idempotent != nil && *s.Idempotent
	if s.Acks != nil {
		c.Producer.RequiredAcks = sarama.RequiredAcks(*s.Acks)
	}
	if s.Retries != nil {
		c.Producer.Retry.Max = *s.Retries
	}
	if s.MaxInFlight != nil {
		c.Net.MaxOpenRequests = *s.MaxInFlight
	}
	if s.RequestTimeoutMs != nil {
		// Java's request.timeout.ms is how long the client waits for an answer;
		// Producer.Timeout is only the broker's wait for acks, so both are set.
		c.Net.ReadTimeout = runner.Ms(*s.RequestTimeoutMs)
		c.Producer.Timeout = runner.Ms(*s.RequestTimeoutMs)
	}
	if s.LingerMs != nil {
		c.Producer.Flush.Frequency = runner.Ms(*s.LingerMs)
	}
	if s.RetryBackoffMs != nil {
		c.Producer.Retry.Backoff = runner.Ms(*s.RetryBackoffMs)
	}
	if s.BatchSize != nil {
		c.Producer.Flush.Bytes = *s.BatchSize
	}
	if s.TransactionalID != "" {
		c.Producer.Transaction.ID = s.TransactionalID
		if s.TransactionTimeoutMs != nil {
			c.Producer.Transaction.Timeout = runner.Ms(*s.TransactionTimeoutMs)
		}
	}
	return c, c.Validate()
}

func open(s runner.Settings, done func(runner.Completion)) (runner.Producer, error) {
	c, err := config(s)
	if err != nil {
		return nil, runner.ConfigError{Err: err}
	}
	ap, err := sarama.NewAsyncProducer(s.Bootstrap, c)
	if err != nil {
		var ce sarama.ConfigurationError
		if errors.As(err, &ce) {
			return nil, runner.ConfigError{Err: err}
		}
		return nil, err
	}
	p := &producer{ap: ap, done: done}
	p.cond = sync.NewCond(&p.mu)
	p.readers.Add(2)
	go func() {
		defer p.readers.Done()
		for m := range ap.Successes() {
			p.complete(runner.Completion{ID: m.Metadata.(string), Offset: m.Offset})
		}
	}()
	go func() {
		defer p.readers.Done()
		for e := range ap.Errors() {
			id, _ := e.Msg.Metadata.(string)
			p.complete(runner.Completion{ID: id, Offset: -1, Err: e.Err})
		}
	}()
	return p, nil
}

func (p *producer) complete(c runner.Completion) {
	p.done(c)
	p.mu.Lock()
	p.pending--
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *producer) Send(id, topic string, partition int32, value string) {
	p.mu.Lock()
	p.pending++
	p.mu.Unlock()
	p.ap.Input() <- &sarama.ProducerMessage{Topic: topic, Partition: partition, Value: sarama.StringEncoder(value), Metadata: id}
}

// Txn makes one of AsyncProducer's transactional calls (sarama has no init call: the producer
// initialises its transactional ID when it is built); the producer cannot go on when sarama's
// transaction status carries its fatal flag.
func (p *producer) Txn(action string) (bool, error) {
	var err error
	switch action {
	case "init":
		return false, nil
	case "begin":
		err = p.ap.BeginTxn()
	case "commit":
		err = p.ap.CommitTxn()
	case "abort":
		err = p.ap.AbortTxn()
	default:
		return true, fmt.Errorf("unknown transactional call %q", action)
	}
	return err != nil && p.ap.TxnStatus()&sarama.ProducerTxnFlagFatalError != 0, err
}

// Flush waits until every record sent so far has completed: AsyncProducer has no flush of its own.
func (p *producer) Flush() {
	p.mu.Lock()
	for p.pending > 0 {
		p.cond.Wait()
	}
	p.mu.Unlock()
}

func (p *producer) Close(timeout time.Duration) {
	p.ap.AsyncClose()
	finished := make(chan struct{})
	go func() {
		p.readers.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(timeout):
	}
}

var sentinels = []struct {
	err  error
	name string
}{
	{sarama.ErrOutOfBrokers, "sarama.ErrOutOfBrokers"},
	{sarama.ErrNotConnected, "sarama.ErrNotConnected"},
	{sarama.ErrShuttingDown, "sarama.ErrShuttingDown"},
	{sarama.ErrMessageTooLarge, "sarama.ErrMessageTooLarge"},
	{sarama.ErrProducerRetryBufferOverflow, "sarama.ErrProducerRetryBufferOverflow"},
	{sarama.ErrClosedClient, "sarama.ErrClosedClient"},
}

func describe(err error) (string, string, int16) {
	var ke sarama.KError
	if errors.As(err, &ke) {
		return "sarama.KError", err.Error(), int16(ke)
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.name, err.Error(), 0
		}
	}
	return fmt.Sprintf("%T", err), err.Error(), 0
}

func main() {
	sarama.Logger = log.New(io.Discard, "", 0)
	runner.Main(open, describe)
}
