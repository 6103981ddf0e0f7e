// name: import_asserted
// Which turn asserted which belief: (:Turn)-[:ASSERTED {key}]->(:Belief). The key is the
// extracted statement's, so a rerun finds what is already done (see import_done); order is
// its place among the turn's statements, so a resumed run can place them in time without
// extracting the turn again (see import_turn_keys).
// $rows: list<{turn, key, belief (the id the statement resulted in), speaker, cue, order}>
UNWIND $rows AS row
MATCH (t:Turn {id: row.turn})
MATCH (b:Belief {id: row.belief})
MERGE (t)-[a:ASSERTED {key: row.key}]->(b)
  ON CREATE SET a.speaker = row.speaker, a.cue = row.cue, a.order = row.order
