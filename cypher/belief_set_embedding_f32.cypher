// name: belief_set_embedding_f32
// Sets embedding_f32 on beliefs that lack it (see belief_missing_embedding_f32).
// $rows: list of {id, embedding_f32: bytes}.
// Returns: updated (count).
UNWIND $rows AS row
MATCH (b:Belief {id: row.id})
WHERE b.embedding_f32 IS NULL
SET b.embedding_f32 = row.embedding_f32
RETURN count(b) AS updated
