//! Stored articles → JSONL (one JSON object per line).
