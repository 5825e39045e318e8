"""The public bot API (/api/): token-authenticated JSON and NDJSON for programs (docs/api.md)."""
