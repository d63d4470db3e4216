// Findings replayed on the GPU: every program the setup test wrote (kverify --confirm
// --confirm-dir over a few known-bad fixtures, on a machine without a GPU as CI is) is
// built with nvcc and run under its compute-sanitizer tool; each must be confirmed.
// Without a GPU (or nvcc, or compute-sanitizer) the test skips, with the reason.
#include "confirm/replay.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <thread>

namespace fs = std::filesystem;
using namespace kverify;

TEST(ConfirmOnGpu, EveryWrittenReplayIsConfirmed) {
  confirm::Toolchain tools = confirm::findToolchain();
  if (!tools.unavailable.empty()) GTEST_SKIP() << tools.unavailable;
  std::vector<fs::path> folders;
  for (const fs::directory_entry &e : fs::directory_iterator(KVERIFY_CONFIRM_PROGRAMS))
    if (e.is_directory()) folders.push_back(e.path());
  std::sort(folders.begin(), folders.end());
  ASSERT_FALSE(folders.empty()) << "the setup test wrote no program into " << KVERIFY_CONFIRM_PROGRAMS;
  std::vector<std::string> names;
  for (const fs::path &folder : folders) names.push_back(folder.string());
  std::vector<analysis::Confirmation> seen =
      confirm::replayFolders(names, tools, 60, std::max(1u, std::thread::hardware_concurrency()));
  for (size_t i = 0; i < folders.size(); ++i) {
    const fs::path &folder = folders[i];
    const analysis::Confirmation &c = seen[i];
    std::cout << folder.filename().string() << " | " << analysis::confirmationName(c.status) << " | "
              << c.tool << " | " << c.detail.substr(0, c.detail.find('\n')) << "\n";
    EXPECT_EQ(c.status, analysis::Confirmation::Status::Confirmed) << folder << ": " << c.detail << "\n"
                                                                   << c.output;
  }
}
