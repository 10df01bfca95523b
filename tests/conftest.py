"""Test settings shared by the whole suite.

Hypothesis runs derandomized by default so that CI is repeatable; explore new examples with
``pytest --hypothesis-profile=explore``.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("default", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None, max_examples=500)
settings.load_profile("default")
