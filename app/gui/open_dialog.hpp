// File > Open (Ctrl O): a modal that takes a path, or one of the session files and traces found (the
// bundled ones and those in the working folder), and opens it through DataFeed::open_file.
// File > Open kernel file (Ctrl K): the same for the user's own kernel (a .cu file; those in the working folder
// are offered), opened through DataFeed::open_kernel_file.
#pragma once

#include <string>
#include <vector>

#include "app_state.hpp"
#include "data_feed.hpp"

namespace rs::gui {

class OpenDialog {
 public:
  // Opens the dialog on the next draw(). frame(), for File > Open and Ctrl O.
  void request() { requested_ = Kind::Session; }
  // Opens the kernel file dialog on the next draw(). frame(), for File > Open kernel file and Ctrl K.
  void request_kernel_file() { requested_ = Kind::KernelFile; }
  // Draws the dialog while it is open (listing the files afresh when it opens); a file opened closes it,
  // an error stays in it. frame(), once a frame after the panels.
  void draw(AppState& s, DataFeed& feed);

 private:
  enum class Kind { None, Session, KernelFile };
  // One dialog's body: the path field, the files offered, the error, Open and Cancel. Returns the path chosen
  // (Open or Enter), or "" while none is.
  std::string drawBody(const char* what, char* path, size_t size, const std::vector<std::string>& files);
  Kind requested_ = Kind::None;
  char path_[1024] = {};
  char kernel_path_[1024] = {};
  std::string error_;              // why the last file did not open
  std::vector<std::string> files_;  // what it offers
};

}  // namespace rs::gui
