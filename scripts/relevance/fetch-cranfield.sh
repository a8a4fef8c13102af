#!/usr/bin/env bash
# Lays out the Cranfield collection (1,400 aeronautics abstracts, 225 queries, Cleverdon's graded
# human relevance judgements) for `npm run bench:relevance`:
#   .tools/relevance/cranfield/{cran.all.1400, cran.qry, cranqrel, cranqrel.readme}
#
# Where it comes from. The collection is distributed by the University of Glasgow IR group as
# cran.tar.gz, and copied into many public course repositories; no package of the registries this
# project reaches (npm, PyPI, Maven Central, crates.io, Debian) ships it. So the files are taken
# from a local copy, one of:
#   - CRANFIELD_DIR=<directory holding the four files> (e.g. the unpacked cran.tar.gz), or
#   - CRANFIELD_GIT=<git directory> of a public repository carrying them at the top level, read at
#     CRANFIELD_COMMIT. Default: the mirror of github.com/noramtboraas/information-retrieval
#     (an NTNU TDT4117 course repository) at commit 4ea1b8e0, as a session's repository fetch
#     leaves it under /work/.mirror.
# Line ends are normalised to LF and every file's sha256 is checked, so any copy with the same
# text is accepted and any other refused. A complete directory is left alone.
set -euo pipefail
cd "$(dirname "$0")/../.."

DEST=.tools/relevance/cranfield
CRANFIELD_GIT=${CRANFIELD_GIT:-/work/.mirror/noramtboraas+information-retrieval/repo}
CRANFIELD_COMMIT=${CRANFIELD_COMMIT:-4ea1b8e02da1db64b68b0364d50620b3c95528dc}
# sha256 of each file with LF line ends.
declare -A SHA256=(
  [cran.all.1400]=b234544b6ceccd131520df4a3cb6d42aee6576eb577933d047e722bbfe7b0b09
  [cran.qry]=dd9b1419f678874daf66d5239ca372193722d74f5ea749f3b0f46a6b37cd9274
  [cranqrel]=92e54b58dac0b980152178f350d892fae66c8a239b8a11715b835fb8d2f6bc0e
  [cranqrel.readme]=8f4cb2e60ab2324bb3ad980bdc8b9cf6a9b98a08d097d90a351485dd6e25433f
)
MARKER="$DEST/.fetched-${SHA256[cranqrel]}"

if [ -f "$MARKER" ]; then
  echo "== Cranfield collection already in $DEST"
  exit 0
fi

read_source() { # <file name>: the file's bytes on stdout
  if [ -n "${CRANFIELD_DIR:-}" ]; then
    cat "$CRANFIELD_DIR/$1"
  else
    git --git-dir="$CRANFIELD_GIT" show "$CRANFIELD_COMMIT:$1"
  fi
}

if [ -z "${CRANFIELD_DIR:-}" ] && ! git --git-dir="$CRANFIELD_GIT" cat-file -e "$CRANFIELD_COMMIT^{commit}" 2>/dev/null; then
  echo "fetch-cranfield: no copy of the Cranfield collection: set CRANFIELD_DIR to a directory with cran.all.1400, cran.qry, cranqrel and cranqrel.readme (the unpacked cran.tar.gz), or CRANFIELD_GIT to a git directory holding commit $CRANFIELD_COMMIT" >&2
  exit 1
fi

rm -rf "$DEST"
mkdir -p "$DEST"
for name in "${!SHA256[@]}"; do
  read_source "$name" | tr -d '\r' > "$DEST/$name"
  actual=$(sha256sum "$DEST/$name" | cut -d' ' -f1)
  if [ "$actual" != "${SHA256[$name]}" ]; then
    echo "fetch-cranfield: $name has sha256 $actual, expected ${SHA256[$name]}" >&2
    rm -rf "$DEST"
    exit 1
  fi
done
touch "$MARKER"
echo "== Cranfield collection ready in $DEST ($(du -sh "$DEST" | cut -f1))"
