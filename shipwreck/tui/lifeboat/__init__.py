"""Lifeboat's table screen (``screen``) and its renderables (``render``)."""
