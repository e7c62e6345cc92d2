"""The Node.js producers under the kit: KafkaJS and @platformatic/kafka.

Our own runner programs live here (``runner.mjs`` speaks the Java producer
runner's JSON-lines protocol; ``kafkajs-producer.mjs`` and
``platformatic-producer.mjs`` drive each client), with their dependencies
pinned in ``package.json`` and ``package-lock.json``.  :mod:`.install` installs
them with ``npm ci`` into a cache outside the source tree (on
``kafka-conformance fetch kafkajs platformatic`` or on first use);
:mod:`.producers` maps a trace's Java properties to each client's options and
drives the runners.
"""
