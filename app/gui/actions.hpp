// What a shortcut (keys.cpp) or a menu item (menu_bar.cpp) asks of the app beyond AppState: to open a
// file or a kernel file, export, or quit. frame.cpp carries them out in the same frame.
#pragma once

namespace rs::gui {

struct Actions {
  bool open_file = false;        // File > Open's dialog (Ctrl O)
  bool open_kernel_file = false; // File > Open kernel file's dialog (Ctrl K)
  bool export_charts = false;    // File > Export timing charts (Ctrl E)
  bool export_web_page = false;  // File > Export web page
  bool save_answers = false;     // File > Save my answers (Predict mode's, in the page's format)
  bool quit = false;             // File > Quit (Ctrl Q)
};

}  // namespace rs::gui
