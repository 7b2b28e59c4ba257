#!/usr/bin/env bash
# Fails (exit 1) when src/protocol/generated/ differs from what scripts/schemas-gen.sh produces from
# schemas/*.fbs now: a schema was edited without regenerating, or generated code was edited by hand.
# Exit 2 when flatc is missing. Touches nothing in the tree.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v flatc >/dev/null 2>&1; then
  echo "schemas-check: flatc not found on PATH (install flatbuffers-compiler 2.0.x); cannot check" >&2
  exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bash "$root/scripts/schemas-gen.sh" "$tmp/generated"

if diff -ru "$root/src/protocol/generated" "$tmp/generated"; then
  echo "schemas-check: src/protocol/generated is up to date"
else
  echo "schemas-check: src/protocol/generated is stale; run scripts/schemas-gen.sh and commit the result" >&2
  exit 1
fi
