#!/usr/bin/env bash
# Downloads AMD's machine-readable ISA archive named in xml/archive.toml, checks its size and
# SHA-256, and unpacks the XML files into xml/extracted/ (ignored by git; build.rs looks there).
#
#   xml/fetch.sh                 download from AMD's GPUOpen machine-readable ISA page
#   xml/fetch.sh ARCHIVE.zip     use an archive already downloaded
#
# AMDGPU_ISA_ARCHIVE_URL overrides the download address if AMD moves the file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
manifest="$here/archive.toml"
field() { sed -n "/^\[archive\]/,/^\[/ s/^$1 = \"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" "$manifest" | head -n1; }
name="$(field name)"
want_sha="$(field sha256)"
want_bytes="$(field bytes)"
url="${AMDGPU_ISA_ARCHIVE_URL:-https://gpuopen.com/download/machine-readable-isa/$name}"

archive="${1:-$here/$name}"
if [ ! -f "$archive" ]; then
  echo "downloading $url" >&2
  curl --fail --location --output "$archive.part" "$url"
  mv "$archive.part" "$archive"
fi

bytes="$(wc -c <"$archive" | tr -d ' ')"
[ "$bytes" = "$want_bytes" ] || { echo "error: $archive is $bytes bytes, expected $want_bytes" >&2; exit 1; }
sha="$(sha256sum "$archive" | cut -d' ' -f1)"
[ "$sha" = "$want_sha" ] || { echo "error: $archive has SHA-256 $sha, expected $want_sha" >&2; exit 1; }

mkdir -p "$here/extracted"
python3 - "$archive" "$here/extracted" "$manifest" <<'PY'
import hashlib, re, sys, zipfile, pathlib
archive, out, manifest = sys.argv[1], pathlib.Path(sys.argv[2]), open(sys.argv[3]).read()
files = dict((m[0], (int(m[1]), m[2])) for m in re.findall(r'^"([^"]+)" = \{ bytes = (\d+), sha256 = "([0-9a-f]*)" \}', manifest, re.M))
with zipfile.ZipFile(archive) as z:
    for info in z.infolist():
        name = pathlib.PurePosixPath(info.filename).name
        if name not in files:
            continue
        data = z.read(info)
        size, sha = files[name]
        got = hashlib.sha256(data).hexdigest()
        if len(data) != size or (sha and got != sha):
            sys.exit(f"error: {name}: {len(data)} bytes, SHA-256 {got}; expected {size} bytes, {sha or 'any hash'}")
        (out / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes, SHA-256 {got}")
PY
echo "XML files are in $here/extracted (build.rs and the tests find them there)" >&2
