// Where the window's panels go in each frame (layout.hpp does the arithmetic): the step bar under the
// menu; the controls on the left; each side's replay views in the middle (compare mode: A's above B's,
// their warps panels side by side under them); the source, the bank view and the timings on the right. The user's
// kernel without a trace: its file in the replay's place, the timings on the right.
#pragma once

#include "panels.hpp"

namespace rs::gui {

// Every panel of the window, one of each per side where a view is per side.
struct Panels {
  StepBar step_bar;
  ControlsPanel controls;
  SourcePanel source;
  SmemPanel smem[2] = {SmemPanel(0), SmemPanel(1)};
  GlobalPanel global[2] = {GlobalPanel(0), GlobalPanel(1)};
  LanesPanel lanes[2] = {LanesPanel(0), LanesPanel(1)};
  AtomicsPanel atomics[2] = {AtomicsPanel(0), AtomicsPanel(1)};
  WarpsPanel warps[2] = {WarpsPanel(0), WarpsPanel(1)};
  BanksPanel banks[2] = {BanksPanel(0), BanksPanel(1)};
  TimingPanel timing;
};

// Draws every panel into the display below `top` pixels (the menu bar).
void draw_panels(AppState& s, Panels& p, float top);

}  // namespace rs::gui
