#!/usr/bin/env bash
# support/llama-server/setup.sh DIR — a real llama.cpp llama-server for the tests (support/llama-server.ts),
# with nothing installed system-wide. Debian 12 has no llama.cpp; Debian's unstable suite (sid), served by the
# same package registry, has llama.cpp-tools and python3-gguf. This script:
#   1. points a private apt configuration (DIR/apt) at the system's Debian mirror's sid suite
#      (MIRROR=http://…/debian overrides it);
#   2. downloads llama-server, its libraries, sid's C library and loader, and sid's python3 with numpy and gguf,
#      and unpacks them into DIR with dpkg -x;
#   3. builds the test models into DIR/models with sid's own python through sid's own loader (make_model.py):
#      toolseq.gguf calls Bash `seq 10000 12500` every turn (~15K tokens by the server's count: bigger than a
#      12K or 16K window), toolmid.gguf `seq 1000 1240` (~1.2K), tool.gguf `pwd`.
# It does nothing when DIR/READY names this script's stamp (a cached run). Needs bash, apt-get and dpkg; amd64.
set -euo pipefail
D=${1:?usage: setup.sh DIR}
STAMP="threadline-llama-2"
mkdir -p "$D"
D=$(cd "$D" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$D/READY" ] && [ "$(cat "$D/READY")" = "$STAMP" ] && [ -x "$D/usr/bin/llama-server" ]; then
  echo "llama-server: cached in $D"
  exit 0
fi
[ "$(dpkg --print-architecture 2>/dev/null || echo unknown)" = "amd64" ] || { echo "llama-server: amd64 only" >&2; exit 1; }
mkdir -p "$D"/apt/{etc,lists,cache/archives,debs} "$D/models"
mirror=${MIRROR:-$(grep -hvE '^\s*#' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list /etc/apt/sources.list 2>/dev/null \
  | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -1 | sed -E 's#/? *$##' || true)}
[ -n "$mirror" ] || { echo "llama-server: no Debian mirror in the system's apt sources (set MIRROR=http://…/debian)" >&2; exit 1; }
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main" >"$D/apt/etc/sources.list"
cat >"$D/apt/apt.conf" <<CONF
Dir::Etc::SourceList "$D/apt/etc/sources.list";
Dir::Etc::SourceParts "$D/apt/etc/none";
Dir::State::Lists "$D/apt/lists";
Dir::State::status "$D/apt/status";
Dir::Cache "$D/apt/cache";
APT::Architecture "amd64";
APT::Sandbox::User "root";
CONF
touch "$D/apt/status"
export APT_CONFIG="$D/apt/apt.conf"
# A snapshot mirror of sid serves a Release file past its Valid-Until: accept that one case, and say so.
if ! apt-get update -qq 2>"$D/apt/update.err"; then
  cat "$D/apt/update.err" >&2
  grep -q 'is expired' "$D/apt/update.err" || exit 1
  echo "llama-server: sid's Release file is expired (a snapshot mirror?); accepting it" >&2
  apt-get -o Acquire::Check-Valid-Until=false update -qq
fi
py=$(apt-cache show python3-minimal | grep -m1 -oE 'python3\.[0-9]+-minimal' | sed 's/-minimal$//' || true)
[ -n "$py" ] || { echo "llama-server: cannot tell sid's python3 version" >&2; exit 1; }
rm -f "$D"/apt/debs/*.deb
(cd "$D/apt/debs" && apt-get download -q \
  llama.cpp-tools libllama0 libggml0 libc6 libstdc++6 libgcc-s1 libssl3t64 libgomp1 zlib1g libzstd1 \
  python3-gguf python3-numpy python3-yaml libyaml-0-2 libblas3 liblapack3 libgfortran5 \
  "$py-minimal" "lib$py-minimal" "lib$py-stdlib" libffi8 libexpat1 libbz2-1.0 liblzma5 >/dev/null)
for deb in "$D"/apt/debs/*.deb; do dpkg -x "$deb" "$D"; done
rm -f "$D"/apt/debs/*.deb
L=$D/usr/lib/x86_64-linux-gnu
[ -x "$D/usr/bin/llama-server" ] && [ -e "$L/ld-linux-x86-64.so.2" ] || { echo "llama-server: not unpacked into $D" >&2; exit 1; }
sidpy() { env -u PYTHONPATH -u PYTHONHOME "$L/ld-linux-x86-64.so.2" --library-path "$L:$L/blas:$L/lapack" "$D/usr/bin/$py" "$@"; }
sidpy "$here/make_model.py" "$D/models/toolseq.gguf" "seq 10000 12500"
sidpy "$here/make_model.py" "$D/models/toolmid.gguf" "seq 1000 1240"
sidpy "$here/make_model.py" "$D/models/tool.gguf" "pwd"
"$here/run.sh" "$D" --version 2>&1 | head -2 || true
echo "$STAMP" >"$D/READY"
echo "llama-server: ready in $D"
