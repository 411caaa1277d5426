"""The server under test: its profile, a prepared workspace, the lifecycle that leases a ready target
to one scenario, the MCP session over stdio or HTTP (with the wire defects it records), and the name map
between a profile's names and ours.
"""
