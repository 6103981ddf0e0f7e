// name: import_follows
// Temporal order of a conversation's beliefs: (later)-[:FOLLOWS]->(earlier); MERGEd.
// $rows: list<{later, earlier}> (belief ids)
UNWIND $rows AS row
MATCH (later:Belief {id: row.later})
MATCH (earlier:Belief {id: row.earlier})
MERGE (later)-[:FOLLOWS]->(earlier)
