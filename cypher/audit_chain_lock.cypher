// name: audit_chain_lock
// Takes the write lock on each audit chain's head node (created on first use) for the rest
// of the transaction and reads the head: appends to one chain serialise, so two writers can
// never both append after the same event (no fork). Callers lock chains last, sorted by name.
// $names: list<string>, sorted.
// Returns: name, length (events so far), head (hash of the last event, or null).
UNWIND $names AS name
MERGE (c:AuditChain {name: name})
  ON CREATE SET c.length = 0
SET c.lock_version = coalesce(c.lock_version, 0) + 1
WITH c
RETURN c.name AS name, c.length AS length, c.head AS head
