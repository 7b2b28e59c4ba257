#!/usr/bin/env bash
# Regenerates src/protocol/generated/ from schemas/*.fbs with flatc (TypeScript, one file per schema).
#
#   bash scripts/schemas-gen.sh            # writes src/protocol/generated/
#   bash scripts/schemas-gen.sh OUT_DIR    # writes OUT_DIR instead (used by schemas-check.sh)
#
# Post-processing (deterministic, so a rerun on the same flatc gives the same bytes):
# - relative imports get a `.js` extension, as `module: nodenext` ESM requires (flatc 2.0.x has no
#   option for it);
# - a second header line names the source and this script.
# The generated code typechecks under the project's tsconfig as is; lint ignores the folder.
# Requires flatc 2.0.x on PATH (Debian/Ubuntu: `apt-get install flatbuffers-compiler`).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/src/protocol/generated}"
schemas=(command.fbs journal.fbs snapshot.fbs)

if ! command -v flatc >/dev/null 2>&1; then
  echo "schemas-gen: flatc not found on PATH (install flatbuffers-compiler 2.0.x)" >&2
  exit 2
fi
version="$(flatc --version | awk '{print $3}')"
case "$version" in
  2.0.*) ;;
  *) echo "schemas-gen: flatc $version found; the committed code was generated with 2.0.x, output may differ" >&2 ;;
esac

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root/schemas" && flatc --ts --ts-flat-files -o "$tmp" "${schemas[@]}")

mkdir -p "$out"
rm -f "$out"/*.ts
for f in "$tmp"/*.ts; do
  name="$(basename "$f")"
  {
    head -n 1 "$f"
    echo "// Source: schemas/*.fbs; regenerate with scripts/schemas-gen.sh (flatc 2.0.x). Do not edit."
    tail -n +2 "$f" | sed -E "s#^(import .* from '\./[^']+)';#\1.js';#"
  } > "$out/$name"
done
