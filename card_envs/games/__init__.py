"""Rules engines, one package per game. None of them imports pettingzoo, gymnasium or torch."""
