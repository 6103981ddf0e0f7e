// name: import_turns
// Turns that asserted beliefs, each linked to its conversation (PART_OF); MERGEd.
// $rows: list<{id, conversation, index, turn_id, role, ts, text, line, namespace}>
UNWIND $rows AS row
MATCH (c:Conversation {id: row.conversation})
MERGE (t:Turn {id: row.id})
  ON CREATE SET t.conversation_id = c.conversation_id, t.index = row.index,
                t.turn_id = row.turn_id, t.role = row.role, t.ts = row.ts, t.text = row.text,
                t.line = row.line, t.namespace = row.namespace
MERGE (t)-[:PART_OF]->(c)
