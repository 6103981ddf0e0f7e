// name: belief_set_search_keys
// Sets search_keys on beliefs that lack it (see belief_missing_search_keys).
// $rows: list of {id, keys}.
// Returns: updated (count).
UNWIND $rows AS row
MATCH (b:Belief {id: row.id})
WHERE b.search_keys IS NULL
SET b.search_keys = row.keys
RETURN count(b) AS updated
