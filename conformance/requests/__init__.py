"""The request-level ACL rules on the wire: a real broker with its authorizer on, ACLs created
through the Admin API, and the producer and transaction requests of a SASL user, each error
code compared with ``reference/requests`` of the same release (KIP-98, KIP-679)."""
