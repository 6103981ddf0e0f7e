// name: await_indexes
// Blocks until every index is online or $seconds pass (then fails).
// $seconds: int.
CALL db.awaitIndexes($seconds)
