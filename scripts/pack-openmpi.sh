#!/usr/bin/env bash
# pack-openmpi.sh OUT.tar.xz — Debian's Open MPI (mpirun, orted, its MCA
# components, PMIx and the libraries they load) as one relocatable tree, for
# a machine that has no MPI (the GPU machine: docs/gpu.md). There, unpack it
# to DIR and run `source DIR/env.sh` (OPAL_PREFIX, PMIX_INSTALL_PREFIX,
# PATH, LD_LIBRARY_PATH), then `mpirun --allow-run-as-root ...`.
set -euo pipefail
out=${1:?usage: pack-openmpi.sh OUT.tar.xz}
arch=x86_64-linux-gnu
p=$(mktemp -d); trap 'rm -rf "$p"' EXIT
mkdir -p "$p/bin" "$p/lib/$arch" "$p/share" "$p/deps"
cp -L /usr/bin/orterun /usr/bin/orted "$p/bin/"
ln -s orterun "$p/bin/mpirun"
cp -a /usr/lib/$arch/openmpi /usr/lib/$arch/pmix2 "$p/lib/$arch/"
cp -a /usr/share/openmpi "$p/share/"
# What the programs and plugins load from the system, glibc and the
# compiler's runtime excepted (the target has its own).
for f in "$p"/bin/orte* "$p"/lib/$arch/openmpi/lib/openmpi3/*.so "$p"/lib/$arch/openmpi/lib/*.so.* \
  "$p"/lib/$arch/pmix2/lib/*.so* "$p"/lib/$arch/pmix2/lib/pmix/*.so; do
  ldd "$f" 2>/dev/null | awk '/=> \//{print $3}' || true
done | sort -u | grep -v -E 'libc\.so|libm\.so|ld-linux|libpthread|libdl\.so|librt\.so|libgcc|libstdc|/openmpi/|/pmix2/' |
  while read -r d; do cp -L "$d" "$p/deps/"; done
cat > "$p/env.sh" <<ENV
here=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=\$here PMIX_INSTALL_PREFIX=\$here/lib/$arch/pmix2
export PATH=\$here/bin:\$PATH
export LD_LIBRARY_PATH=\$here/deps:\$here/lib/$arch/openmpi/lib:\$here/lib/$arch/pmix2/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
ENV
tar cJf "$out" -C "$p" .
echo "pack-openmpi: $out ($(du -h "$out" | cut -f1))"
