"""The contract as data: the typed scenario model, the loader that alone turns spec/*.yaml into it,
the JSON Schema registry, where the bundled data lives, and the traceability report (`cruxgate spec`).
"""
