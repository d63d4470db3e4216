#!/usr/bin/env bash
# check_format.sh [--fix]: the project's C++/CUDA sources hold .clang-format (clang-format
# 19, which scripts/setup.sh installs); --fix rewrites them. Fixtures and the CUDA prelude
# are data and keep their layout (their own .clang-format disables formatting).
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-$(command -v clang-format-19 || true)}
[ -n "$CLANG_FORMAT" ] || { echo "check_format: error: clang-format-19 not found (scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' \
  | grep -v -e '^tests/fixtures/' -e '^verifier/frontend/prelude/')
if [ "${1:-}" = --fix ]; then
  exec "$CLANG_FORMAT" -i "${files[@]}"
fi
if ! "$CLANG_FORMAT" --dry-run --Werror "${files[@]}" 2> /tmp/check_format.$$; then
  grep -E '^[^ ].*: error:' /tmp/check_format.$$ | sed 's/ error: / /' | cut -d: -f1,2 | sort -u | awk 'NR <= 20' >&2
  rm -f /tmp/check_format.$$
  echo "check_format: the lines above differ from .clang-format; scripts/check_format.sh --fix rewrites them" >&2
  exit 1
fi
rm -f /tmp/check_format.$$
echo "check_format: ${#files[@]} files hold .clang-format"
