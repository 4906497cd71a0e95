// The controls panel's kernel list (app/gui/controls_panel.cpp): the entries grouped by track, the user's kernel
// heading list A, the library's kernels (CUB's, issue 29) after their track's, and the block-size radio buttons.
// Used by the controls panel only; split from it to keep each file one concern (DESIGN.md, Round 4).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app_state.hpp"

namespace rs::gui {

// The user's own kernel at the top of list A, a track of its own ("yours"): the header names its file, the entry
// its name with its status as the title. Filled by the controls panel, read back after the list is drawn.
struct YoursEntry {
  std::string header;            // "Yours: my_reduce1.cu"
  std::string name, title;       // "my_reduce1", its status line
  bool selected = false;         // side A shows it
  bool clicked = false;          // out: its entry was clicked
  bool kernel_clicked = false;   // out: a shipped kernel's entry was clicked
};

// The library kernels of track `track` the open session holds a trace of, as library_table() indices: their entries
// follow the track's shipped kernels in the list (CUB's kernels, issue 29). Empty without a session.
std::vector<int> listed_library(const Session* ses, std::string_view track);

// The block size of the session's trace of library kernel `i` (0: none, or no session, or i < 0).
unsigned library_block_size(const Session* ses, int i);

// Kernel list + block-size radio buttons for one side; returns the (possibly changed) pick.
// `list_height`: the most the kernel list may take, in pixels (it scrolls beyond). `yours` (side A, with a kernel
// of the user's open): its entry heads the list; while it is selected, the block sizes are those it takes (`ys`)
// and the pick is returned as chosen (AppState::a keeps the shipped kernel, whatever block size the user's kernel
// runs at).
Pick pick_widgets(const char* id, Pick p, float list_height, const Session* ses, YoursEntry* yours = nullptr,
                  const YoursState* ys = nullptr);

}  // namespace rs::gui
