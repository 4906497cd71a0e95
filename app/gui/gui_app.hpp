// The ReduceScope window: GLFW + OpenGL 3.3 + Dear ImGui.
#pragma once

#include "cli.hpp"

namespace rs {

// Opens the window and runs until it is closed (or, with o.frames / o.screenshot, until the
// automation is done). Returns an exit code: 1 if no window can be opened or the screenshot
// cannot be written.
int run_gui(const Options& o);

}  // namespace rs
