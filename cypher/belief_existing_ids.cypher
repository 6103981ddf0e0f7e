// name: belief_existing_ids
// Which of the given ids are already taken.
// $ids: list<string>
// Returns one row: rows, the list of ids taken.
UNWIND $ids AS id
MATCH (b:Belief {id: id})
RETURN collect(b.id) AS rows
