"""What a run leaves behind: the Markdown report, the JSON results, and the baseline of known failures.
"""
