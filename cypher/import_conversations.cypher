// name: import_conversations
// Conversations of an import, each linked to the source it came from; MERGEd, so a
// repeated import creates nothing.
// $source: string (the source key)
// $rows: list<{id, conversation_id, namespace, title}>
MATCH (s:Source {key: $source})
UNWIND $rows AS row
MERGE (c:Conversation {id: row.id})
  ON CREATE SET c.conversation_id = row.conversation_id, c.namespace = row.namespace,
                c.title = row.title
MERGE (c)-[:IMPORTED_FROM]->(s)
