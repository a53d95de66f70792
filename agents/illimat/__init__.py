"""Illimat's scripted agents: `heuristic` (`IllimatHeuristic` and `IllimatLookahead`).
"""
