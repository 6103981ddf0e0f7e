// name: import_asserted
// Which turn asserted which belief: (:Turn)-[:ASSERTED {key}]->(:Belief). The key is the
// extracted statement's, so a rerun finds what is already done (see import_done).
// $rows: list<{turn, key, belief (the id the statement resulted in), speaker, cue}>
UNWIND $rows AS row
MATCH (t:Turn {id: row.turn})
MATCH (b:Belief {id: row.belief})
MERGE (t)-[a:ASSERTED {key: row.key}]->(b)
  ON CREATE SET a.speaker = row.speaker, a.cue = row.cue
