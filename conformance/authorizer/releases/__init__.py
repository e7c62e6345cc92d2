"""The authorizer suite across Kafka's releases: real Kafka judging the reference release by
release (:mod:`.campaign`), and which releases answer a finding's case alike (:mod:`.agreement`)."""
