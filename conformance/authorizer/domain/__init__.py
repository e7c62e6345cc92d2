"""The input domain of the authorizer suite, written down as data.

Kafka's semantics distinguish inputs by a handful of traits: the principal's type
and spelling, the host, how a resource name relates to an ACL's name, the
pattern type, implied operations, how permissions meet, the raw configuration
strings, and the shape of a record stream.  :mod:`.classes` lists those
equivalence classes (and the combinations that matter) with stable names;
:mod:`.classify` says which of them a generated scenario reaches.  The
strategies aim at every class, and a run's report names any class it missed,
so "passed" never hides "never tried".
"""
