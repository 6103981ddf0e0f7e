// Supersession chain of a belief, oldest to head
// Set the belief first: :param id => 'sample-wifi-v1'
MATCH (b:Belief {id: $id})-[:SUPERSEDES*0..]->(root:Belief)
WHERE NOT (root)-[:SUPERSEDES]->(:Belief)
MATCH p = (head:Belief)-[:SUPERSEDES*0..]->(root)
WHERE NOT (:Belief)-[:SUPERSEDES]->(head)
RETURN p
ORDER BY length(p) DESC
LIMIT 1
