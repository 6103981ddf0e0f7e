// name: documents_relate
// The participants of imported relation beliefs: a RELATES edge from each relation to each
// belief it links (written once; a re-import adds none).
// $rows: list of {relation_id, participant_id}.
// Returns: written, the number of rows whose two beliefs exist.
UNWIND $rows AS row
MATCH (r:Belief {id: row.relation_id}), (p:Belief {id: row.participant_id})
MERGE (r)-[:RELATES]->(p)
RETURN count(*) AS written
