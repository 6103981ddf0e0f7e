// Where a belief came from: the turn that asserted it, its conversation and source, its
// namespaces, and every audit event that touched it
// Set the belief first: :param id => 'sample-wifi-v1'
MATCH (b:Belief {id: $id})
OPTIONAL MATCH asserted = (:Source)<-[:IMPORTED_FROM]-(:Conversation)<-[:PART_OF]-(:Turn)-[:ASSERTED]->(b)
OPTIONAL MATCH touched = (:AuditEvent)-[:TOUCHED]->(b)
OPTIONAL MATCH placed = (b)-[:IN]->(:Namespace)
RETURN b, collect(DISTINCT asserted) AS asserted, collect(DISTINCT touched) AS audit,
       collect(DISTINCT placed) AS namespaces
