// File > Open (Ctrl O): a modal that takes a path, or one of the session files and traces found (the
// bundled ones and those in the working folder), and opens it through DataFeed::open_file.
#pragma once

#include <string>
#include <vector>

#include "app_state.hpp"
#include "data_feed.hpp"

namespace rs::gui {

class OpenDialog {
 public:
  // Opens the dialog on the next draw(). frame(), for File > Open and Ctrl O.
  void request() { requested_ = true; }
  // Draws the dialog while it is open (listing the files afresh when it opens); a file opened closes it,
  // an error stays in it. frame(), once a frame after the panels.
  void draw(AppState& s, DataFeed& feed);

 private:
  bool requested_ = false;
  char path_[1024] = {};
  std::string error_;              // why the last file did not open
  std::vector<std::string> files_;  // what it offers
};

}  // namespace rs::gui
