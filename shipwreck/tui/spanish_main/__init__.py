"""Spanish Main's screens: the table screen and its style (``screen``, ``screen.tcss``),
its renderables (``render``) and its end screen (``end``)."""
