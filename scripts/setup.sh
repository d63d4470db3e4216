#!/usr/bin/env bash
# Installs what kverify needs to build and test, and nothing that is already there.
# Idempotent: on a ready machine it only checks (a second or two).
# Needs: Debian 12, the CUDA toolkit (nvcc), root for apt-get when something is missing.
set -euo pipefail

PACKAGES=(
  cmake g++ make pkg-config
  clang-19 libclang-19-dev llvm-19-dev   # libTooling front end
  libz3-dev                              # the solver
  libzstd-dev                            # LLVM's static Support library links libzstd
  libgtest-dev librapidcheck-dev         # unit and property tests
  python3-jsonschema                     # SARIF output checked against its schema
  libexpat1-dev                          # JUnit XML read by kverify merge-report
  libclang-rt-19-dev                     # libFuzzer and sanitizer runtimes (scripts/libfuzz.sh)
  clang-format-19                        # the sources' layout (scripts/check_format.sh)
  chromium                               # the HTML report rendered in a browser test
)

say() { echo "setup: $*"; }
die() { echo "setup: error: $*" >&2; exit 1; }

# CUDA comes from NVIDIA's installer, not Debian: check, don't install.
NVCC=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || die "nvcc not found (looked at \$CUDACXX, PATH, /usr/local/cuda/bin). Install the CUDA toolkit (13.0) first."

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#PACKAGES[@]} packages present; nvcc at $NVCC"
  exit 0
fi

say "missing: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "installing packages needs root: run as root, or as root: apt-get install ${missing[*]}"
command -v apt-get >/dev/null || die "apt-get not found: this script expects Debian 12"

export DEBIAN_FRONTEND=noninteractive
say "apt-get update"
apt-get update -qq || die "apt-get update failed (network or sources.list?)"
say "apt-get install ${missing[*]}"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
  || die "apt-get install failed for: ${missing[*]}"
say "installed ${#missing[@]} packages; nvcc at $NVCC"
