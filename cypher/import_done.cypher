// name: import_done
// Which extracted statements an import already recorded, and the belief each one asserted
// (its own id, or the belief the curation gate folded it into).
// $keys: list<string> (statement keys)
// Returns one row: rows, a list of {key, belief (the id of the belief the statement
// resulted in)}.
UNWIND $keys AS key
MATCH (:Turn)-[a:ASSERTED {key: key}]->(b:Belief)
RETURN collect({key: key, belief: b.id}) AS rows
