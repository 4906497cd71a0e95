# Sourced by the scripts of issue 54 that run the window (--headless) on the GPU machine, with R, L and O set (the
# binary, the window's libraries from headless_libs.sh, the output folder): makes O, puts L on the library path,
# finds NVIDIA's EGL vendor library through glvnd, the UI font in L and the repository's assets, and gives the window
# a settings file of its own in a fresh folder $work, 1280x720 at scale 1.0.
mkdir -p "$O"
export LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export __EGL_VENDOR_LIBRARY_DIRS=${__EGL_VENDOR_LIBRARY_DIRS:-/usr/share/glvnd/egl_vendor.d}
export REDUCESCOPE_FONT=${REDUCESCOPE_FONT:-$L/DejaVuSans.ttf} REDUCESCOPE_ASSETS=$PWD/assets
work=$(mktemp -d)
export REDUCESCOPE_CONFIG=$work/settings.ini
printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$REDUCESCOPE_CONFIG"
