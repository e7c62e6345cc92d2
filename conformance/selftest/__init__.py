"""How strong is the kit?  Its exam, run by ``kafka-conformance selftest``.

A conformance kit is judged by what it catches.  This package holds the zoo:
an authorizer written independently of the reference (:mod:`.independent`) and
more than sixty faulty variants of it, each one small change drawn from a real
bug class (Kafka's JIRA history, the bugs of Kafka-compatible systems, classic
mistakes).  :mod:`.scorecard` runs the zoo against the suite as a user would run
it (the default profile, several seeds) and says, per mutant, whether it was
caught, how fast, by which property, and which input classes each run reached.
"""
