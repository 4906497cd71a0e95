#!/usr/bin/env bash
# Installs everything ReduceScope needs to build, run and test on Debian 12.
#   scripts/setup.sh          build + GUI + test dependencies
# The CUDA toolkit is expected at /usr/local/cuda (NVIDIA's packages); without it the
# project still builds: the app then replays recorded traces only (see README).
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build pkg-config ccache git
  libimgui-dev libglfw3-dev python3-glad libstb-dev   # GUI: Dear ImGui 1.86, GLFW, GL loader generator, stb
  libcairo2-dev                                       # chart export: PNG, SVG, PDF
  libgl-dev libegl-dev fonts-dejavu-core             # OpenGL and EGL (--headless) headers; the UI font
  gettext fonts-noto-cjk                             # the Chinese catalogue (xgettext, msgfmt); its CJK font
  zlib1g-dev                                         # CRC-32 of trace files
  libgtest-dev                                       # unit tests
  clang-14 libclang-rt-14-dev                        # libFuzzer + ASan/UBSan for the trace reader
  xvfb xauth xdotool x11-apps imagemagick            # GUI tests: virtual X server, input events, screenshots
  chromium firefox-esr python3-websocket nlohmann-json3-dev  # web page tests: headless Chromium (DevTools) and
                                                    # Firefox (WebDriver BiDi); JSON in the unit test
  libgl1-mesa-dri libegl-mesa0                        # Mesa software GL (llvmpipe) for windows without a GPU
  slurmctld slurmd slurm-client munge                 # grade on Slurm: a single-node cluster (tests/grade_slurm.sh)
  libcpp-httplib-dev libsqlite3-dev libjs-codemirror   # serve: HTTP (cpp-httplib), the class's store (SQLite), the
                                                    # page's editor (CodeMirror 5)
)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: no CUDA toolkit at /usr/local/cuda: building without GPU kernels (replay only)." >&2
fi
