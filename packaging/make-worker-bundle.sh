#!/bin/sh
# Makes the self-contained worker bundle that the SSH and cloud providers copy to a node (issue
# 21): the worker programs with every library they load, their own glibc and dynamic loader, and
# Open MPI (mpirun, orted, its components, PMIx's), so a node needs none of Debian's packages, no
# Open MPI and no CUDA Toolkit: only Linux on x86_64, /bin/sh and tar, and for GPU ranks the
# NVIDIA driver (libcuda.so.1 is the driver's and always comes from the node).
#
#   make-worker-bundle.sh BIN_DIR OUT_DIR
#
# OUT_DIR/worker/   the bundle. Programs at its top (tessera-worker, tessera-rsh, tessera-train,
#                   tessera-rank, tessera-train-cuda, python/tessera/*.py); lib/ every library
#                   and ld-linux-x86-64.so.2; openmpi/ and pmix/ the relocated Open MPI 4.1 and
#                   PMIx trees (the worker sets OPAL_PREFIX, OPAL_SYSCONFDIR, PMIX_PREFIX,
#                   PMIX_LIBDIR and PMIX_DATADIR to them: Debian's Open MPI has an absolute
#                   sysconfdir, its PMIx an absolute libdir and datadir). Each ELF
#                   file carries a DT_RPATH relative to itself ($ORIGIN/...), so the libraries are
#                   found wherever the bundle lies; the dynamic loader, which must be an absolute
#                   path, is set on the node by `relocate` (below) once the folder's final place is
#                   known. cuda-id names the CUDA part that tessera-train-cuda looks for.
# OUT_DIR/cuda/     links to the CUDA runtime libraries tessera-train-cuda was linked with
#                   (cudart, cuBLAS, cuBLASLt, NCCL: redistributable under NVIDIA's CUDA EULA,
#                   attachment A), only in builds with the GPU backend; copied to GPU nodes only,
#                   into a folder cuda-<id> beside the bundle, which tessera-train-cuda's RPATH
#                   names.
#
# On the node: `sh relocate FINAL_DIR` in the unpacked bundle sets every program's interpreter to
# FINAL_DIR/lib/ld-linux-x86-64.so.2 with the bundle's own patchelf, run by the bundle's own
# loader. Needs here: patchelf, strip, ldd, sha256sum. Exit status 1 with a message naming what
# failed.
set -eu

die() {
    echo "make-worker-bundle: $*" >&2
    exit 1
}

[ $# -eq 2 ] || die "usage: make-worker-bundle.sh BIN_DIR OUT_DIR"
bin=$(cd "$1" && pwd) || die "no folder $1"
out=$2
command -v patchelf >/dev/null || die "patchelf is missing: install the Debian package patchelf"
loader=/lib64/ld-linux-x86-64.so.2
[ -e "$loader" ] || die "no $loader: the bundle is made for x86_64 Linux only"

# Open MPI's and PMIx's install trees as Debian lays them out (ompi_info --path all).
ompi_libdir=/usr/lib/x86_64-linux-gnu/openmpi/lib
ompi_pkglib=$ompi_libdir/openmpi3
ompi_data=/usr/share/openmpi
pmix_plugins=/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
pmix_data=/usr/lib/x86_64-linux-gnu/pmix2/share
orterun=$(readlink -f "$(command -v orterun || command -v mpirun)") ||
    die "no mpirun: install the Debian package openmpi-bin"
orted=$(command -v orted) || die "no orted: install the Debian package openmpi-bin"

tmp=$out.new
rm -rf "$tmp"
w=$tmp/worker
mkdir -p "$w/lib" "$w/python/tessera" "$w/openmpi/bin" "$w/pmix/lib/pmix" \
    "$w/openmpi/lib/x86_64-linux-gnu/openmpi/lib/openmpi3" "$w/openmpi/share"

programs="tessera-worker tessera-rsh tessera-train tessera-rank"
[ -x "$bin/tessera-train-cuda" ] && programs="$programs tessera-train-cuda"
for p in $programs; do # without their debug sections: 100 MB less to copy to each node
    strip --strip-debug -o "$w/$p" "$bin/$p"
done
cp "$bin"/python/tessera/*.py "$w/python/tessera/"
cp "$orterun" "$w/openmpi/bin/orterun"
ln -s orterun "$w/openmpi/bin/mpirun"
cp "$orted" "$w/openmpi/bin/orted"
cp -r "$ompi_data" "$w/openmpi/share/openmpi"
# Its own MCA defaults, not those of an Open MPI the node may have (the worker sets
# OPAL_SYSCONFDIR here: Debian's sysconfdir, /etc/openmpi, is absolute).
mkdir -p "$w/openmpi/etc"
cp /etc/openmpi/openmpi-mca-params.conf "$w/openmpi/etc/" 2>/dev/null ||
    : >"$w/openmpi/etc/openmpi-mca-params.conf"
cp "$ompi_pkglib"/*.so "$w/openmpi/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/"
cp "$pmix_plugins"/*.so "$w/pmix/lib/pmix/"
cp -r "$pmix_data" "$w/pmix/share"
cp "$(command -v patchelf)" "$w/lib/patchelf"

# Every ELF file of the bundle, one per line (programs first: `relocate` patches those).
executables=$(for p in $programs; do echo "$w/$p"; done
    echo "$w/openmpi/bin/orterun"
    echo "$w/openmpi/bin/orted"
    echo "$w/lib/patchelf")
plugins=$(ls "$w"/openmpi/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so "$w"/pmix/lib/pmix/*.so)

# The libraries all of them load, found as this machine resolves them; the driver's libcuda and
# the kernel's vdso never travel. CUDA's go to the CUDA part.
cuda_libs=
for f in $executables $plugins; do
    ldd "$f" 2>/dev/null | awk '/=> \// {print $3}'
done | sort -u >"$tmp/libs"
while read -r lib; do
    name=${lib##*/}
    case $name in
    libcuda.so.* | libnvidia-*) ;;
    libcudart.so.* | libcublas.so.* | libcublasLt.so.* | libnccl.so.*)
        cuda_libs="$cuda_libs $lib"
        ;;
    *) cp -L "$lib" "$w/lib/$name" ;;
    esac
done <"$tmp/libs"
cp -L "$loader" "$w/lib/ld-linux-x86-64.so.2"
if grep -q 'not found' "$tmp/libs" 2>/dev/null; then
    die "some libraries of the bundle are not on this machine"
fi

# DT_RPATH (not RUNPATH: it also serves the libraries' own dependencies and dlopen) from each
# file's folder to lib/; Debian's Open MPI libraries carry a RUNPATH to /usr that must go.
rel_lib() { # FILE: $ORIGIN-relative path from FILE's folder to $w/lib
    d=${1%/*} up=
    while [ "$d" != "$w" ]; do
        up="$up../"
        d=${d%/*}
    done
    echo "\$ORIGIN/${up}lib"
}
for f in $executables $plugins; do
    patchelf --force-rpath --set-rpath "$(rel_lib "$f")" "$f"
done
for f in "$w"/lib/*.so*; do
    case ${f##*/} in # glibc's own need nothing but each other: left as built
    ld-linux-x86-64.so.2 | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.*)
        continue
        ;;
    esac
    patchelf --force-rpath --set-rpath '$ORIGIN' "$f" 2>/dev/null || true
done

if [ -n "$cuda_libs" ]; then
    # Links to the toolkit's files (800 MB: not copied at each build; the upload follows links).
    mkdir -p "$tmp/cuda"
    for lib in $cuda_libs; do
        ln -s "$(readlink -f "$lib")" "$tmp/cuda/${lib##*/}"
    done
    cuda_id=$(cd "$tmp/cuda" && sha256sum -- * | sha256sum | cut -c1-16)
    echo "$cuda_id" >"$w/cuda-id"
    patchelf --force-rpath --set-rpath "\$ORIGIN/lib:\$ORIGIN/../cuda-$cuda_id" \
        "$w/tessera-train-cuda"
fi

{
    for p in $programs; do
        echo "$p"
    done
    echo openmpi/bin/orterun
    echo openmpi/bin/orted
} >"$w/programs" # not lib/patchelf: it always runs through the loader (and cannot patch itself)
cat >"$w/relocate" <<'EOF'
#!/bin/sh
# relocate FINAL_DIR: points each program of this bundle (listed in ./programs) at the dynamic
# loader FINAL_DIR/lib/ld-linux-x86-64.so.2 (an ELF interpreter is an absolute path); run in the
# unpacked bundle before it is moved to FINAL_DIR. Made by packaging/make-worker-bundle.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case $1 in /*) ;; *) echo "relocate: FINAL_DIR must be absolute" >&2; exit 2 ;; esac
while read -r p; do
    "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/lib/patchelf" \
        --set-interpreter "$1/lib/ld-linux-x86-64.so.2" "$here/$p"
done <"$here/programs"
EOF
chmod 755 "$w/relocate"
rm -f "$tmp/libs"
rm -rf "$out"
mv "$tmp" "$out"
