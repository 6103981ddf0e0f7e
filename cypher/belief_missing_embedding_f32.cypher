// name: belief_missing_embedding_f32
// Beliefs written before embedding_f32 existed (beliefgraph/embeddings.py: the embedding as
// float32 bytes, what search reads of its candidates; it falls back to the list, slower),
// in id order after $after, so that a store is walked once.
// $after: string ('' from the start); $limit: int.
// Returns up to $limit rows: id, embedding (list<float>; null if a writer left it out).
MATCH (b:Belief)
WHERE b.id > $after AND b.embedding_f32 IS NULL
RETURN b.id AS id, b.embedding AS embedding
ORDER BY b.id
LIMIT $limit
