"""`python -m cruxgate ...`: the `cruxgate` command without its console script.

A target profile can name the reference as `{python} -m cruxgate serve-mcp ...`: one spelling
that holds wherever the reference's package lives (top-level today, `cruxgate.reference` once
the wheel ships only names under cruxgate; see docs/development.md).
"""


from cruxgate.cli import script

script()
