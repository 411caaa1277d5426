"""The tool surface: tools/list linted against the input schemas, and its snapshot and diff (`cruxgate surface`).
"""
