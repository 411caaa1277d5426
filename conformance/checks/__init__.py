"""Judging answers: the registry of named checks, and the Judge that weighs each breach by its basis
(a document MUST or the error registry fails the scenario; anything else is a finding kept as a warning).
"""
