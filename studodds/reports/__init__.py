"""Renderings of the exact results for people: plain text for the terminal (``text``),
the certified report (``markdown``), the readable strategy (``strategy``), the progressive side
bet (``progressive``) and pictures (``plots``, optional extra).  Machine-readable output is each
result's ``to_dict()`` (see :mod:`enumerate.core.jsonform`)."""
