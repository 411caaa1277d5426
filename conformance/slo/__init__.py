"""The p95 SLO harness: every SLO of the documents measured over MCP against any target (`cruxgate slo`)."""
