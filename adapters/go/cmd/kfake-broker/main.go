// Command kfake-broker starts franz-go's kfake cluster on 127.0.0.1 for the kit.
//
// It prints one JSON line when the cluster listens,
//
//	{"event":"ready","addrs":["127.0.0.1:p1",...],"brokers":n}
//
// and stops (closing the cluster) on SIGTERM, SIGINT or end of stdin, so a
// harness that dies takes the cluster with it. While it runs, stdin takes
// JSON-lines commands, each answered with one line:
//
//	{"op":"move","topic":"t","partition":0,"node":1}   move a partition's leader
//	{"op":"leader","topic":"t","partition":0}          which node leads it
//	{"op":"crash","node":0}                            the broker leaves the cluster (RemoveNode):
//	                                                   its listener and every connection it accepted close
//	{"op":"restart","node":0,"port":p}                 the broker joins again on its port (AddNode)
//
// kfake re-elects the leader of every partition at random when a broker leaves
// or joins (shufflePartitions); the kit moves the leaders it cares about
// afterwards with "move".
//
// Flags: -ports p1,p2,... (one broker per port; 0 for a random port),
// -sasl (SASL on, with -superuser METHOD:USER:PASS and -user METHOD:USER:PASS),
// -acls (ACL enforcement on).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/twmb/franz-go/pkg/kfake"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func emit(fields map[string]any) {
	line, _ := json.Marshal(fields)
	os.Stdout.Write(append(line, '\n'))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "kfake-broker: "+format+"\n", args...)
	os.Exit(2)
}

func credentials(spec string) (string, string, string) {
	parts := strings.SplitN(spec, ":", 3)
	if len(parts) != 3 {
		fail("a SASL login is METHOD:USER:PASSWORD, got %q", spec)
	}
	return parts[0], parts[1], parts[2]
}

func main() {
	ports := flag.String("ports", "0", "comma-separated ports on 127.0.0.1, one broker each (0: any free port)")
	sasl := flag.Bool("sasl", false, "require SASL authentication")
	acls := flag.Bool("acls", false, "enforce ACLs")
	var superusers, users listFlag
	flag.Var(&superusers, "superuser", "METHOD:USER:PASSWORD of a superuser (repeatable)")
	flag.Var(&users, "user", "METHOD:USER:PASSWORD of a user without ACLs (repeatable)")
	flag.Parse()

	var list []int
	for _, p := range strings.Split(*ports, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 || n > 65535 {
			fail("bad port %q", p)
		}
		list = append(list, n)
	}
	opts := []kfake.Opt{kfake.NumBrokers(len(list)), kfake.Ports(list...), kfake.ListenFn(listen)}
	if *sasl {
		opts = append(opts, kfake.EnableSASL())
	}
	if *acls {
		opts = append(opts, kfake.EnableACLs())
	}
	for _, s := range superusers {
		opts = append(opts, kfake.Superuser(credentials(s)))
	}
	for _, s := range users {
		opts = append(opts, kfake.User(credentials(s)))
	}
	cluster, err := kfake.NewCluster(opts...)
	if err != nil {
		fail("the cluster did not start: %v", err)
	}
	emit(map[string]any{"event": "ready", "addrs": cluster.ListenAddrs(), "brokers": len(list)})

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	eof := make(chan struct{})
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			var cmd struct {
				Op        string `json:"op"`
				Topic     string `json:"topic"`
				Partition int32  `json:"partition"`
				Node      int32  `json:"node"`
				Port      int    `json:"port"`
			}
			if err := json.Unmarshal(in.Bytes(), &cmd); err != nil {
				emit(map[string]any{"event": "bad-command", "message": err.Error()})
				continue
			}
			switch cmd.Op {
			case "move":
				if err := cluster.MoveTopicPartition(cmd.Topic, cmd.Partition, cmd.Node); err != nil {
					emit(map[string]any{"event": "error", "message": err.Error()})
				} else {
					emit(map[string]any{"event": "moved", "node": cmd.Node})
				}
			case "crash":
				if err := cluster.RemoveNode(cmd.Node); err != nil {
					emit(map[string]any{"event": "error", "message": err.Error()})
				} else {
					emit(map[string]any{"event": "crashed", "node": cmd.Node})
				}
			case "restart":
				if node, port, err := cluster.AddNode(cmd.Node, cmd.Port); err != nil {
					emit(map[string]any{"event": "error", "message": err.Error()})
				} else {
					emit(map[string]any{"event": "restarted", "node": node, "port": port})
				}
			case "leader":
				emit(map[string]any{"event": "leader", "node": cluster.LeaderFor(cmd.Topic, cmd.Partition)})
			default:
				emit(map[string]any{"event": "bad-command", "message": "unknown op " + cmd.Op})
			}
		}
		close(eof)
	}()
	select {
	case <-stop:
	case <-eof:
	}
	cluster.Close()
	emit(map[string]any{"event": "closed"})
}
