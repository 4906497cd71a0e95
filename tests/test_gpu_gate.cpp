// GpuGate (app/gui/gpu_gate.hpp): the window's GPU worker and the user's kernel's worker take turns on the GPU.
// A thread stands in for the GPU worker: each "measurement" starts at a boundary.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "gpu_gate.hpp"

using namespace std::chrono_literals;
using rs::gui::GpuGate;

namespace {

template <class Pred>
bool eventually(Pred p, std::chrono::milliseconds limit = 10000ms) {
  const auto t0 = std::chrono::steady_clock::now();
  while (!p()) {
    if (std::chrono::steady_clock::now() - t0 > limit) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

}  // namespace

TEST(GpuGate, NoMeasurementStartsWhileItIsHeldAndTheyGoOnAfter) {
  GpuGate gate;
  std::atomic<bool> stop{false}, measuring{false};
  std::atomic<int> measured{0};
  std::thread worker([&] {
    while (!stop) {
      gate.boundary(true, [&] { return stop.load(); });
      measuring = true;
      std::this_thread::sleep_for(200us);
      ++measured;
      measuring = false;
    }
    gate.boundary(false, [] { return true; });
  });
  ASSERT_TRUE(eventually([&] { return measured > 5; }));
  for (int round = 0; round < 10; ++round) {
    ASSERT_TRUE(gate.hold()) << "round " << round;
    EXPECT_FALSE(measuring) << "hold() returned while a measurement was going on, round " << round;
    const int before = measured;
    std::this_thread::sleep_for(5ms);
    EXPECT_EQ(measured, before) << "a measurement ran while the gate was held, round " << round;
    gate.release();
    EXPECT_TRUE(eventually([&] { return measured > before; })) << "the worker did not go on, round " << round;
  }
  {  // the same through Held, as the kernel file's feed takes it
    const GpuGate::Held held(gate);
    EXPECT_FALSE(measuring) << "Held: a measurement was going on";
    const int before = measured;
    std::this_thread::sleep_for(5ms);
    EXPECT_EQ(measured, before) << "Held: a measurement ran while the gate was held";
  }
  const int after = measured;
  EXPECT_TRUE(eventually([&] { return measured > after; })) << "the worker did not go on after Held";
  stop = true;
  worker.join();
}

TEST(GpuGate, HoldIsAtOnceWhenTheWorkerWaitsForARequest) {
  GpuGate gate;
  gate.boundary(false, [] { return true; });  // the worker finished its request
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(gate.hold(5000ms));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1000ms);
  gate.release();
}

TEST(GpuGate, HoldGivesUpAfterItsWaitWhenAMeasurementRunsOn) {
  GpuGate gate;
  gate.boundary(true, [] { return true; });  // a measurement starts and does not reach its next boundary
  EXPECT_FALSE(gate.hold(30ms));
  gate.release();
}

TEST(GpuGate, AWorkerWaitingAtTheBoundaryLeavesWhenItIsToldTo) {
  GpuGate gate;
  ASSERT_TRUE(gate.hold(10ms));  // nobody measuring yet
  std::atomic<bool> stop{false}, left{false};
  std::thread worker([&] {
    gate.boundary(true, [&] { return stop.load(); });
    left = true;
  });
  std::this_thread::sleep_for(30ms);
  EXPECT_FALSE(left) << "the worker went past a held gate";
  stop = true;  // the window closes
  EXPECT_TRUE(eventually([&] { return left.load(); }));
  worker.join();
  gate.release();
}
