// name: belief_existing_ids
// Which of the given ids are already taken.
// $ids: list<string>
// Returns: id.
UNWIND $ids AS id
MATCH (b:Belief {id: id})
RETURN b.id AS id
