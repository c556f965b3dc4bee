#!/usr/bin/env bash
# Measures cacheviz frame times on the GPU machine (target: "60 fps with a million-cell view on a
# real GPU"). The GPU machine has no display, no SFML and no X server, and cannot install
# packages, so everything cacheviz needs travels with the call:
#
#   scripts/device_gui_frames.sh pack   (here, on Debian 12 with cacheviz built in build/)
#     .gl/*.deb           the GL loaders (glvnd), unpacked to / there as the device README says;
#     .guirun/gui.tar.xz  cacheviz, Xvfb, xkbcomp, glxinfo, eglinfo, xdpyinfo, Mesa's swrast_dri.so
#                         (Xvfb's GLX extension needs it; the rendering itself is done by the
#                         NVIDIA driver) and Mesa's GLX client libGLX_mesa.so.0 (a first try
#                         without it found no GLX visual at all), every shared library they need
#                         except glibc's and the GL loaders', the xkb data and DejaVu Sans
#                         (52 MB with .gl, under the 64 MiB a call carries).
#   run tool: command "bash scripts/device_gui_frames.sh run", carry [".gl", ".guirun"]
#     unpacks into /tmp/guirun (LD_LIBRARY_PATH, not /; only swrast_dri.so, xkbcomp and the xkb
#     data go to the fixed paths Xvfb looks in, and only where nothing is there), starts Xvfb
#     1920x1080x24, checks with glxinfo that __GLX_VENDOR_LIBRARY_NAME=nvidia gives the NVIDIA
#     renderer, runs the frame-time scenarios of docs/gui.md with --frame-stats and writes
#     $OUT/summary.txt, $OUT/logs.tar.gz and screenshots. QUICK=1 runs a tenth of the frames (a
#     try-out, e.g. here under LOCAL_VENDOR=1 DISPLAY_NUM=177, which keeps Mesa); REPS=2 runs the
#     docs/gui.md table's scenarios twice.
set -u -o pipefail
cd "$(dirname "$0")/.."
MODE=${1:-}

pack() {
    local stage=/tmp/guirun-stage debs=/tmp/guirun-debs
    local o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    cmake --build build -j2 --target cacheviz >/dev/null || { echo "build failed" >&2; exit 1; }
    rm -rf "$stage" "$debs" && mkdir -p "$stage"/{bin,lib,dri,fonts} "$debs" .gl .guirun /tmp/amd64/partial
    apt-get $o update >/dev/null
    if ! ls .gl/libglx0_*.deb >/dev/null 2>&1; then
        (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2) || exit 1
    fi
    (cd "$debs" && apt-get $o download mesa-utils-bin && dpkg -x mesa-utils-bin_*.deb x) || exit 1
    cp build/apps/cacheviz/cacheviz /usr/bin/Xvfb /usr/bin/xkbcomp /usr/bin/xdpyinfo "$stage/bin/"
    cp "$debs"/x/usr/bin/glxinfo.x86_64-linux-gnu "$stage/bin/glxinfo"
    cp "$debs"/x/usr/bin/eglinfo.x86_64-linux-gnu "$stage/bin/eglinfo"
    # Mesa's GLX client (glvnd loads it by name): glxinfo through it shows whether Xvfb's GLX works.
    cp /usr/lib/x86_64-linux-gnu/libGLX_mesa.so.0 "$stage/lib/"
    cp /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so "$stage/dri/"
    cp -r /usr/share/X11/xkb "$stage/xkb"
    cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$stage/fonts/"
    # glibc comes from the GPU machine, the GL loaders from .gl; everything else from here.
    local skip='^(libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux-x86-64|libGL|libGLX|libGLdispatch|libOpenGL|libEGL|libGLESv2)\.so'
    ldd "$stage"/bin/* "$stage"/dri/swrast_dri.so "$stage"/lib/libGLX_mesa.so.0 | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
        while read -r lib; do
            basename "$lib" | grep -Eq "$skip" || cp -L "$lib" "$stage/lib/"
        done
    ldd "$stage"/bin/* | grep "not found" && { echo "unresolved libraries here" >&2; exit 1; }
    du -sh "$stage"
    XZ_OPT='-6 -T2' tar -C "$stage" -cJf .guirun/gui.tar.xz . || exit 1
    du -ch .gl/*.deb .guirun/gui.tar.xz | tail -1
}

# Runs one scenario: NAME then cacheviz options; its --frame-stats output goes to the summary.
scenario() {
    local name=$1; shift
    echo "== $name: cacheviz $*" | tee -a "$OUT/summary.txt"
    local t0=$SECONDS
    timeout 150 "$P/bin/cacheviz" "$@" --frame-stats >"$LOGS/$name.log" 2>&1
    local rc=$?
    grep -E "frames|texels|wrote|rror" "$LOGS/$name.log" | tee -a "$OUT/summary.txt"
    echo "   exit $rc, $((SECONDS - t0)) s wall" | tee -a "$OUT/summary.txt"
}

run() {
    OUT=${OUT:-$PWD/gui-out}
    LOGS=$OUT/logs
    P=/tmp/guirun
    mkdir -p "$LOGS" "$P"
    : >"$OUT/summary.txt"
    if command -v nvidia-smi >/dev/null; then  # the GPU machine: put the loaders and Xvfb's fixed paths in place
        for f in .gl/*.deb; do dpkg -x "$f" /; done
        ldconfig
    fi
    tar -C "$P" -xJf .guirun/gui.tar.xz ||
        python3 -c 'import lzma,tarfile,sys; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])' .guirun/gui.tar.xz "$P" ||
        exit 1
    if command -v nvidia-smi >/dev/null; then
        ls -la /usr/lib/x86_64-linux-gnu/dri /usr/bin/xkbcomp /usr/share/X11 >"$LOGS/before.txt" 2>&1
        mkdir -p /usr/lib/x86_64-linux-gnu/dri /usr/share/X11
        [ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || cp "$P/dri/swrast_dri.so" /usr/lib/x86_64-linux-gnu/dri/
        [ -e /usr/bin/xkbcomp ] || cp "$P/bin/xkbcomp" /usr/bin/
        [ -e /usr/share/X11/xkb ] || cp -r "$P/xkb" /usr/share/X11/xkb
    fi
    # The GPU machine's own C++ runtime is at least as new as Debian 12's: keep it.
    ldconfig -p | grep -q 'libstdc++.so.6 ' && rm -f "$P/lib/libstdc++.so.6" "$P/lib/libgcc_s.so.1"
    export LD_LIBRARY_PATH=$P/lib
    # glvnd dlopens libGLX_nvidia.so.0: if the loader cache does not know it, add its folder.
    if ! ldconfig -p | grep -q libGLX_nvidia.so.0; then
        local nv
        nv=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libGLX_nvidia.so.0' 2>/dev/null | head -1)
        [ -n "$nv" ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$(dirname "$nv")
    fi
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  kernel: $(uname -r)  cores: $(nproc)"
        grep PRETTY_NAME /etc/os-release
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1
        ls /usr/local/nvidia /usr/local/nvidia/lib64 2>&1 | head -40
        ldconfig -p | grep -E 'libGLX|libEGL_nvidia|libnvidia-glcore|libGL\.so' 2>&1
        echo "missing libraries:"; ldd "$P"/bin/* "$P"/dri/swrast_dri.so | grep "not found"
    } >"$LOGS/environment.txt" 2>&1
    cat "$LOGS/environment.txt" | tee -a "$OUT/summary.txt"

    local DNUM=${DISPLAY_NUM:-99} xvfb=
    export DISPLAY=:$DNUM
    start_xvfb() {  # start_xvfb [extra Xvfb options]
        [ -n "$xvfb" ] && { kill "$xvfb"; wait "$xvfb" 2>/dev/null; }
        "$P/bin/Xvfb" :$DNUM -screen 0 1920x1080x24 -nolisten tcp +extension GLX "$@" >>"$LOGS/xvfb.log" 2>&1 &
        xvfb=$!
        for _ in $(seq 50); do [ -S /tmp/.X11-unix/X$DNUM ] && break; sleep 0.2; done
    }
    # glxinfo_as NAME: glxinfo -B with the current environment into $LOGS/glxinfo_NAME.txt; true if NVIDIA renders
    glxinfo_as() {
        echo "== glxinfo -B ($1)" | tee -a "$OUT/summary.txt"
        LIBGL_DEBUG=verbose timeout 30 "$P/bin/glxinfo" -B >"$LOGS/glxinfo_$1.txt" 2>&1
        grep -E "renderer string|vendor string|core profile version|rror" "$LOGS/glxinfo_$1.txt" | tee -a "$OUT/summary.txt"
        grep -q "renderer string: NVIDIA" "$LOGS/glxinfo_$1.txt"
    }
    start_xvfb
    {
        echo "== X extensions"; "$P/bin/xdpyinfo" -queryExtensions | grep -E -i "glx|dri|present|mit-shm" | tr -s ' ' | head
        echo "== devices"; ls /dev/dri /dev/nvidia* 2>&1 | tr '\n' ' '; echo
        echo "== NVIDIA user-space files"; ls /usr/local/nvidia/lib64 | grep -E -i "egl|glx|gbm|xorg|drv" | tr '\n' ' '; echo
        ls -R /usr/local/nvidia/share /usr/share/egl 2>&1 | tr '\n' ' '; echo
    } >>"$LOGS/environment.txt" 2>&1
    sed -n '/== X extensions/,$p' "$LOGS/environment.txt" | tee -a "$OUT/summary.txt"
    glxinfo_as mesa_vendor
    export __GL_SYNC_TO_VBLANK=0 vblank_mode=0 CACHESIM_FONT=$P/fonts/DejaVuSans.ttf
    if [ "${LOCAL_VENDOR:-}" != 1 ]; then
        export __GLX_VENDOR_LIBRARY_NAME=nvidia
        if ! glxinfo_as nvidia; then
            start_xvfb +iglx  # a last try: NVIDIA's client may want indirect contexts allowed
            if ! glxinfo_as nvidia_iglx; then
                {   # no point measuring llvmpipe again: report why and stop
                    echo "NOT the NVIDIA renderer. xvfb log:"; grep -v "^$" "$LOGS/xvfb.log" | head -30
                    echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
                    __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json \
                        timeout 30 "$P/bin/eglinfo" -B 2>&1 | head -60
                } | tee -a "$OUT/summary.txt"
                kill "$xvfb"
                tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs
                exit 1
            fi
        fi
    fi

    local s=1
    [ "${QUICK:-}" = 1 ] && s=10  # a try-out: a tenth of the frames
    local stencil=(--preset thesis-stencil)
    local dmon=
    if command -v nvidia-smi >/dev/null; then nvidia-smi dmon -s u -d 1 >"$LOGS/nvidia_dmon.txt" 2>&1 & dmon=$!; fi
    local rep
    for rep in $(seq "${REPS:-1}"); do  # REPS=2: the docs' scenarios twice, to see the spread
        local r=; [ "${REPS:-1}" -gt 1 ] && r=_r$rep
        scenario idle_1920x1080$r "${stencil[@]}" --window 1920x1080 --screenshot "$LOGS/idle_1920x1080$r.png" --frames $((200 / s))
        scenario idle_800x600$r "${stencil[@]}" --window 800x600 --screenshot "$LOGS/idle_800x600$r.png" --frames $((300 / s))
        scenario compare_column4_1600x1000_motion$r "${stencil[@]}" --compare "--schedule column:4" --window 1600x1000 \
            --auto-motion --frames $((480 / s))
        scenario stencil256_1920x1080_motion$r "${stencil[@]}" --size 256x256 --window 1920x1080 --auto-motion --frames $((400 / s))
        scenario stencil1024_1920x1080_motion$r "${stencil[@]}" --size 1024x1024 --window 1920x1080 --auto-motion --frames $((300 / s))
    done
    # On a GPU the frame counts of docs/gui.md pass mostly while the simulation still runs, and auto
    # motion zooms in further each cycle. So also: long auto-motion runs, and the whole diagram
    # zoomed out (every cell bucket of the fitted view in the texture: 2 million texels) for
    # thousands of frames after the simulation (--screenshot waits for it, then saves).
    scenario stencil256_1920x1080_motion_long "${stencil[@]}" --size 256x256 --window 1920x1080 --auto-motion --frames $((3000 / s))
    scenario stencil1024_1920x1080_motion_long "${stencil[@]}" --size 1024x1024 --window 1920x1080 --auto-motion --frames $((4000 / s))
    scenario stencil256_1920x1080_zoomed_out "${stencil[@]}" --size 256x256 --window 1920x1080 \
        --screenshot "$OUT/stencil256_1920x1080.png" --frames $((3000 / s))
    scenario stencil1024_1920x1080_zoomed_out "${stencil[@]}" --size 1024x1024 --window 1920x1080 \
        --screenshot "$OUT/stencil1024_1920x1080.png" --frames $((6000 / s))
    nvidia-smi >"$LOGS/nvidia_smi_end.txt" 2>&1
    [ -n "$dmon" ] && kill "$dmon" 2>/dev/null
    kill "$xvfb"
    cp "$LOGS"/idle_1920x1080*.png "$OUT/" 2>/dev/null
    tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$LOGS"
}

case $MODE in
    pack) pack ;;
    run) run ;;
    *) echo "usage: $0 pack|run" >&2; exit 2 ;;
esac
