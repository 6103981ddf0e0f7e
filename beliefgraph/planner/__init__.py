"""The query planner: which stored belief governs a request, and what may the agent do (DESIGN
section 3).
"""
