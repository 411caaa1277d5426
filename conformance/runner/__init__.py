"""pytest's side of a run: the items collected from conformance/suite.yaml (scenarios, the wire scenario)
and the run of one scenario's steps against its lease.
"""
