// The window's panels, one per file (STYLE.md: ImHex's one-view-per-file). A Panel owns
// Begin/End and its placement; each concrete panel draws only its content and keeps its own
// view state (hover, selection).
//
//   ControlsPanel  kernel list, block size, step controls (also Left/Right/Home/End keys)
//   SmemPanel      the traced block's shared memory after the current step
//   WarpsPanel     warps x 32 lanes: useful, active-but-idle, inactive and exited lanes
//   BanksPanel     the current step's warp-level accesses and their n-way bank conflicts
//   TimingPanel    median time of each kernel measured so far (bar chart + table)
#pragma once

#include <imgui.h>

#include <cstddef>
#include <vector>

#include "app_state.hpp"

namespace rs::gui {

// Okabe-Ito colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008).
namespace color {
inline constexpr ImU32 rgb(int r, int g, int b, int a = 255) {
  return static_cast<ImU32>(r) | static_cast<ImU32>(g) << 8 | static_cast<ImU32>(b) << 16 | static_cast<ImU32>(a) << 24;
}
inline constexpr ImU32 kOrange = rgb(230, 159, 0);       // written this step
inline constexpr ImU32 kSkyBlue = rgb(86, 180, 233);     // read this step
inline constexpr ImU32 kGreen = rgb(0, 158, 115);        // useful lane
inline constexpr ImU32 kYellow = rgb(240, 228, 66);      // active but idle lane
inline constexpr ImU32 kBlue = rgb(0, 114, 178);         // bars
inline constexpr ImU32 kVermillion = rgb(213, 94, 0);    // bank conflict, divergence
inline constexpr ImU32 kPurple = rgb(204, 121, 167);     // selected kernel's bar
inline constexpr ImU32 kCell = rgb(70, 74, 84);          // defined, untouched cell; inactive lane
inline constexpr ImU32 kEmpty = rgb(38, 40, 46);         // undefined cell; exited lane
inline constexpr ImU32 kInk = rgb(15, 15, 15);           // text on light cells
}  // namespace color

class Panel {
 public:
  explicit Panel(const char* title) : title_(title) {}
  virtual ~Panel() = default;
  void draw(AppState& s, ImVec2 pos, ImVec2 size);

 protected:
  virtual void drawContent(AppState& s) = 0;

 private:
  const char* title_;
};

// Replay shortcuts: Right / Left arrow, Home, End.
enum class Key { Forward, Back, Start, End };

class ControlsPanel : public Panel {
 public:
  ControlsPanel() : Panel("Kernels and replay") {}
  // Keyboard shortcuts pressed since the last frame, whichever panel has focus.
  void handleKeys(AppState& s, const std::vector<Key>& keys);

 protected:
  void drawContent(AppState& s) override;
};

class SmemPanel : public Panel {
 public:
  SmemPanel() : Panel("Shared memory (after this step)") {}

 protected:
  void drawContent(AppState& s) override;
};

class WarpsPanel : public Panel {
 public:
  WarpsPanel() : Panel("Warps x lanes") {}

 protected:
  void drawContent(AppState& s) override;
};

class BanksPanel : public Panel {
 public:
  BanksPanel() : Panel("Bank conflicts") {}

 protected:
  void drawContent(AppState& s) override;

 private:
  size_t selected_ = static_cast<size_t>(-1);  // index into Replay::accesses(); -1: the worst of the step
  size_t selected_step_ = static_cast<size_t>(-1);
};

class TimingPanel : public Panel {
 public:
  TimingPanel() : Panel("Timings") {}

 protected:
  void drawContent(AppState& s) override;
};

// Short human form of an int for a small cell: 123, 12k, 1.2M, -5k.
const char* compact_int(int32_t v, char* buf, size_t len);
// A legend entry on the current line: a square of colour `c`, then `label`; `tip` on hover.
void legend_swatch(ImU32 c, const char* label, const char* tip = nullptr);
// The colour of `c` with its alpha scaled by `a` (0..1).
ImU32 with_alpha(ImU32 c, float a);

}  // namespace rs::gui
