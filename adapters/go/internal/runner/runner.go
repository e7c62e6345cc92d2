// Package runner is the JSON-lines half every producer runner of the kit shares.
//
// It speaks the protocol of the kit's Java producer runner
// (adapters/jvm/ProducerRunner.java), so that the Python harness drives a Go
// client exactly as it drives Kafka's own KafkaProducer:
//
//	in  {"op":"open","props":{...}}      first line: build the producer
//	    {"op":"send","id":"v0","topic":"t","partition":0,"value":"v0"}
//	    {"op":"flush"}                    flush on a goroutine of its own
//	    {"op":"txn","action":"init|begin|commit|abort"}  a transactional call, on this goroutine
//	    {"op":"close","timeout_ms":1000}  close within the timeout, then exit
//	out {"event":"ready"} | {"event":"config-error",...} | {"event":"start-error",...}
//	    {"event":"acked","id":..,"offset":n}
//	    {"event":"error","id":..,"sync":b,"class":..,"message":..,"code":n}
//	    {"event":"txn","action":..,"ok":true} | {"event":"txn","action":..,"ok":false,"class":..,"message":..,"code":n,"fatal":b}
//	    {"event":"flushed"} | {"event":"closed"} | {"event":"bad-command",...}
//
// "props" holds the settings the Python adapter mapped from the trace's Java
// properties (see Settings). A closed stdin ends the program like a close
// command, so a harness that dies never leaves a runner behind.
package runner

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// Settings are the producer settings the harness sends, already mapped from
// Java property names; the zero value of a pointer field means "not set".
type Settings struct {
	Bootstrap         []string `json:"bootstrap"`
	ClientID          string   `json:"client_id"`
	Idempotent        *bool    `json:"idempotent"`
	Acks              *int     `json:"acks"`
	Retries           *int     `json:"retries"`
	MaxInFlight       *int     `json:"max_in_flight"`
	RequestTimeoutMs  *int     `json:"request_timeout_ms"`
	DeliveryTimeoutMs *int     `json:"delivery_timeout_ms"`
	LingerMs          *int     `json:"linger_ms"`
	RetryBackoffMs    *int     `json:"retry_backoff_ms"`
	BatchSize         *int     `json:"batch_size"`
	KafkaVersion      string   `json:"kafka_version"`
	// TransactionalID makes the producer transactional (the txn calls), with its timeout.
	TransactionalID      string `json:"transactional_id"`
	TransactionTimeoutMs *int   `json:"transaction_timeout_ms"`
}

// ConfigError is a setting the client refuses; it becomes a config-error line.
type ConfigError struct{ Err error }

func (e ConfigError) Error() string { return e.Err.Error() }

// Completion is what a producer reports for one record.
type Completion struct {
	ID     string
	Offset int64
	Err    error
	// Sync: the record never left the application (refused before it was buffered).
	Sync bool
}

// Producer is the per-client half of a runner.
type Producer interface {
	// Send hands one record to the client without waiting; its completion goes to done.
	Send(id, topic string, partition int32, value string)
	// Flush blocks until every record sent so far has completed.
	Flush()
	// Close stops the client within the timeout.
	Close(timeout time.Duration)
}

// Transactional is a Producer that runs KIP-98 transactions: Txn makes one call
// (init, begin, commit, abort) and says, on an error, whether the producer can
// still go on (fatal false: the transaction can be aborted).
type Transactional interface {
	Txn(action string) (fatal bool, err error)
}

// Describe turns a client error into (class, message, Kafka error code or 0).
type Describe func(err error) (class, message string, code int16)

// Open builds a producer from settings, reporting completions to done.
type Open func(s Settings, done func(Completion)) (Producer, error)

var outMu sync.Mutex

// Emit writes one event line on stdout.
func Emit(fields map[string]any) {
	line, err := json.Marshal(fields)
	if err != nil {
		line = []byte(fmt.Sprintf(`{"event":"bad-event","message":%q}`, err.Error()))
	}
	outMu.Lock()
	defer outMu.Unlock()
	os.Stdout.Write(append(line, '\n'))
}

type command struct {
	Op        string          `json:"op"`
	Props     json.RawMessage `json:"props"`
	ID        string          `json:"id"`
	Topic     string          `json:"topic"`
	Partition int32           `json:"partition"`
	Value     string          `json:"value"`
	TimeoutMs int64           `json:"timeout_ms"`
	Action    string          `json:"action"`
}

// Main runs the protocol on stdin and stdout with the given client.
func Main(open Open, describe Describe) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	if !in.Scan() {
		os.Exit(0)
	}
	var first command
	var settings Settings
	if err := json.Unmarshal(in.Bytes(), &first); err != nil || first.Op != "open" {
		Emit(map[string]any{"event": "start-error", "class": "protocol", "message": fmt.Sprintf("the first line must be an open command: %s", in.Text())})
		os.Exit(0)
	}
	if err := json.Unmarshal(first.Props, &settings); err != nil {
		Emit(map[string]any{"event": "config-error", "class": "settings", "message": err.Error()})
		os.Exit(0)
	}
	done := func(c Completion) {
		if c.Err == nil {
			Emit(map[string]any{"event": "acked", "id": c.ID, "offset": c.Offset})
			return
		}
		class, message, code := describe(c.Err)
		Emit(map[string]any{"event": "error", "id": c.ID, "sync": c.Sync, "class": class, "message": message, "code": code})
	}
	producer, err := open(settings, done)
	if err != nil {
		kind := "start-error"
		if _, ok := err.(ConfigError); ok {
			kind = "config-error"
		}
		class, message, _ := describe(err)
		Emit(map[string]any{"event": kind, "class": class, "message": message})
		os.Exit(0)
	}
	Emit(map[string]any{"event": "ready"})

	lines := make(chan []byte)
	go func() {
		for in.Scan() {
			lines <- append([]byte(nil), in.Bytes()...)
		}
		close(lines)
	}()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	closeTimeout := time.Duration(0)
loop:
	for {
		select {
		case <-signals:
			break loop
		case line, ok := <-lines:
			if !ok {
				break loop
			}
			var cmd command
			if err := json.Unmarshal(line, &cmd); err != nil {
				Emit(map[string]any{"event": "bad-command", "message": err.Error()})
				continue
			}
			switch cmd.Op {
			case "send":
				producer.Send(cmd.ID, cmd.Topic, cmd.Partition, cmd.Value)
			case "flush":
				go func() {
					producer.Flush()
					Emit(map[string]any{"event": "flushed"})
				}()
			case "txn":
				txn, ok := producer.(Transactional)
				if !ok {
					Emit(map[string]any{"event": "txn", "action": cmd.Action, "ok": false, "class": "runner",
						"message": "this producer runs no transactions", "code": 0, "fatal": true})
					continue
				}
				fatal, err := txn.Txn(cmd.Action)
				if err == nil {
					Emit(map[string]any{"event": "txn", "action": cmd.Action, "ok": true})
					continue
				}
				class, message, code := describe(err)
				Emit(map[string]any{"event": "txn", "action": cmd.Action, "ok": false, "class": class, "message": message,
					"code": code, "fatal": fatal})
			case "close":
				closeTimeout = time.Duration(cmd.TimeoutMs) * time.Millisecond
				break loop
			default:
				Emit(map[string]any{"event": "bad-command", "message": "unknown op " + cmd.Op})
			}
		}
	}
	closed := make(chan struct{})
	go func() {
		producer.Close(closeTimeout)
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(closeTimeout + 5*time.Second):
		fmt.Fprintln(os.Stderr, "the producer did not close in time; exiting")
	}
	Emit(map[string]any{"event": "closed"})
	os.Exit(0)
}

// Ms is a duration of n milliseconds.
func Ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
