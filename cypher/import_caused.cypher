// name: import_caused
// A reason a turn gave ("... because ...") and what it explains: (reason)-[:CAUSED]->(claim).
// $rows: list<{reason, claim}> (belief ids)
UNWIND $rows AS row
MATCH (reason:Belief {id: row.reason})
MATCH (claim:Belief {id: row.claim})
MERGE (reason)-[:CAUSED]->(claim)
