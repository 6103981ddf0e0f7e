// name: belief_chain
// The supersession chain through a belief, from any member: ids oldest first and the
// SUPERSEDES edges between them.
// $id: any belief of the chain.
// Returns: ids (list, oldest first), links (list of {newer, older, at, reason, by}).
MATCH (b:Belief {id: $id})
MATCH (b)-[:SUPERSEDES*0..]->(root:Belief)
WHERE NOT (root)-[:SUPERSEDES]->(:Belief)
MATCH p = (head:Belief)-[:SUPERSEDES*0..]->(root)
WHERE NOT (:Belief)-[:SUPERSEDES]->(head)
WITH p ORDER BY length(p) DESC LIMIT 1
RETURN [n IN reverse(nodes(p)) | n.id] AS ids,
       [r IN reverse(relationships(p)) |
        {newer: startNode(r).id, older: endNode(r).id, at: r.at, reason: r.reason, by: r.by}]
         AS links
