"""The Go ecosystem under the kit: franz-go's kfake cluster, the franz-go and Sarama producers.

A Go module of our own lives here (``go.mod``, ``go.sum``, ``cmd/``, ``internal/``):
``cmd/kfake-broker`` starts kfake on 127.0.0.1, ``cmd/franz-go-producer`` and
``cmd/sarama-producer`` speak the Java producer runner's JSON-lines protocol.
:mod:`.build` compiles them into a cache outside the source tree (on
``kafka-conformance fetch kfake franz-go sarama`` or on first use), :mod:`.kfake`
starts and stops kfake clusters, :mod:`.producers` drives the two Go clients.
"""
