// name: index_states
// Every index with its state, for readiness checks.
// Returns: name, state, type.
SHOW INDEXES YIELD name, state, type
RETURN name, state, type
