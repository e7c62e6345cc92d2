package main

// A broker of kfake that leaves the cluster (Cluster.RemoveNode) closes its
// listener but not the connections it already accepted: they keep being
// served by the removed broker (pkg/kfake/cluster.go, RemoveNode closes b.ln
// only). A crashed broker's connections die with it, so the kit hands kfake a
// listen function (kfake.ListenFn) whose listeners remember what they
// accepted and close it all when they are closed: RemoveNode then looks, from
// the network, like a broker process that went away.

import (
	"net"
	"sync"
)

type trackingListener struct {
	net.Listener

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

func listen(network, address string) (net.Listener, error) {
	ln, err := net.Listen(network, address)
	if err != nil {
		return nil, err
	}
	return &trackingListener{Listener: ln, conns: make(map[net.Conn]struct{})}, nil
}

func (l *trackingListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		conn.Close()
		return nil, net.ErrClosed
	}
	tracked := &trackedConn{Conn: conn, owner: l}
	l.conns[tracked] = struct{}{}
	return tracked, nil
}

// Close stops accepting and closes every connection accepted so far.
func (l *trackingListener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	l.closed = true
	conns := make([]net.Conn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.conns = map[net.Conn]struct{}{}
	l.mu.Unlock()
	for _, c := range conns {
		c.(*trackedConn).Conn.Close()
	}
	return err
}

func (l *trackingListener) forget(c net.Conn) {
	l.mu.Lock()
	delete(l.conns, c)
	l.mu.Unlock()
}

type trackedConn struct {
	net.Conn
	owner *trackingListener
	once  sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { c.owner.forget(c) })
	return c.Conn.Close()
}
