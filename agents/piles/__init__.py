"""Piles' scripted agent: `heuristic` (`PilesHeuristic`).
"""
