"""The lobby's screen (``screen``) and its table words (``words``)."""
