// Reading what a replay showed: compute-sanitizer's reports, the access log's line, a hang.
#include "confirm/replay.hpp"

#include <filesystem>
#include <regex>
#include <sstream>

namespace kverify::confirm {

using analysis::Confirmation;
using Status = analysis::Confirmation::Status;

namespace {

// The sanitizer's reports: each starts at a line that names the problem and runs until the
// next one; "========= " prefixes removed.
std::vector<std::string> reports(const std::string &output, const std::regex &start) {
  std::vector<std::string> out;
  std::stringstream in(output);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("========= ", 0) != 0) {
      inside = false;
      continue;
    }
    line = line.substr(10);
    size_t text = line.find_first_not_of(' ');
    if (text == std::string::npos) {
      inside = false;
      continue;
    }
    if (std::regex_search(line, start)) {
      out.push_back(line.substr(text));
      inside = true;
    } else if (inside && text > 0) {
      out.back() += "\n" + line.substr(text);
    } else {
      inside = false;
    }
  }
  return out;
}

// Whether a report names the line of one of the finding's accesses (file name and line).
bool namesAccess(const std::string &report, const analysis::Finding &f) {
  for (const analysis::AccessRef &a : f.accesses) {
    std::string at =
        std::filesystem::path(a.range.file).filename().string() + ":" + std::to_string(a.range.line);
    for (size_t p = report.find(at); p != std::string::npos; p = report.find(at, p + 1)) {
      size_t after = p + at.size();
      if (after == report.size() || !std::isdigit(static_cast<unsigned char>(report[after]))) return true;
    }
  }
  return false;
}

std::string firstLine(const std::string &s) { return s.substr(0, s.find('\n')); }

long count(const std::string &output, const std::regex &re) {
  return std::distance(std::sregex_iterator(output.begin(), output.end(), re), std::sregex_iterator());
}

bool sameWarp(const analysis::Witness &w) {
  auto linear = [&](const analysis::ThreadCoords &t) {
    return t.thread_idx[0] + w.block_dim[0] * (t.thread_idx[1] + w.block_dim[1] * t.thread_idx[2]);
  };
  return w.thread1.block_idx == w.thread2.block_idx && linear(w.thread1) / 32 == linear(w.thread2) / 32;
}

// What the replay program said last (a failed CUDA call), else the output's first line.
std::string lastSaid(const std::string &output) {
  size_t at = output.rfind("kverify-replay:");
  return firstLine(output.substr(at == std::string::npos ? 0 : at));
}

}  // namespace

Confirmation interpret(Tool tool, const analysis::Finding &f, const ProcessResult &run, double timeout_s) {
  Confirmation c;
  c.tool = toolName(tool);
  // the reports come first; a run that prints on is cut (the whole output is in output.txt)
  c.output = run.output.size() > 16384 ? run.output.substr(0, 16384) + "\n[cut]\n" : run.output;
  auto set = [&](Status s, std::string detail) {
    c.status = s;
    c.detail = std::move(detail);
    return c;
  };
  if (!run.started) return set(Status::NotRun, "cannot run the replay: " + run.output);
  if (run.exit_code == 3 && run.output.find("kverify-replay:") != std::string::npos)
    return set(Status::NotRun,
               "no usable CUDA device: " + firstLine(run.output.substr(run.output.find("kverify-replay:"))));
  std::string limit = std::to_string(static_cast<long long>(timeout_s)) + " s";
  if (run.timed_out) {
    if (f.kind == analysis::Verdict::Divergence)
      return set(Status::Confirmed, "the launch hung (no end within " + limit +
                                        "): threads wait at a barrier others of their block never reach");
    return set(Status::NotReproduced, "the launch did not finish within " + limit);
  }
  std::vector<std::string> found;
  switch (tool) {
    case Tool::AccessLog: {
      size_t at = run.output.find("kverify-replay: collision: ");
      if (at != std::string::npos) return set(Status::Confirmed, firstLine(run.output.substr(at + 16)));
      at = run.output.find("kverify-replay: no collision: ");
      if (at != std::string::npos) return set(Status::NotReproduced, firstLine(run.output.substr(at + 30)));
      break;
    }
    case Tool::Racecheck: found = reports(run.output, std::regex("Race reported|hazard detected")); break;
    case Tool::Memcheck: found = reports(run.output, std::regex("Invalid __(shared|global|local)__")); break;
    case Tool::Synccheck: found = reports(run.output, std::regex("Barrier error|[Dd]ivergent thread")); break;
    case Tool::BoundsCheck: break;  // (never a program's tool: memcheck's helper)
  }
  for (const std::string &r : found)
    if (tool == Tool::Synccheck || namesAccess(r, f)) return set(Status::Confirmed, r);
  // racecheck does not see two threads of one warp conflict in one instruction: the access
  // log shows it
  if (size_t at = run.output.find("kverify-replay: collision: ");
      tool == Tool::Racecheck && at != std::string::npos && sameWarp(f.witness)) {
    c.tool = toolName(Tool::AccessLog);
    return set(Status::Confirmed, firstLine(run.output.substr(at + 16)) +
                                      " (threads of one warp: racecheck does not report their conflicts)");
  }
  // memcheck does not see a shared access past its array but inside the block's shared
  // window: the bounds check the program puts on the access does
  if (size_t at = run.output.find("kverify-replay: out of bounds: ");
      tool == Tool::Memcheck && at != std::string::npos) {
    c.tool = toolName(Tool::BoundsCheck);
    return set(Status::Confirmed, firstLine(run.output.substr(at + 16)));
  }
  if (!found.empty())
    return set(Status::NotReproduced,
               std::string(toolName(tool)) + " reported only elsewhere: " + firstLine(found.front()));
  // the launches that finished (one per fill of the memory the witness leaves open)
  static const std::regex launched("kverify-replay: launch [0-9]+ finished");
  auto finished = count(run.output, launched);
  if (finished == 0) return set(Status::NotRun, "the replay failed: " + lastSaid(run.output));
  std::string what = tool == Tool::AccessLog ? "the two threads' accesses shared no byte"
                                             : std::string(toolName(tool)) + " reported nothing";
  std::string detail = what + " in " + std::to_string(finished) + " launch" + (finished > 1 ? "es" : "");
  static const std::regex failed("kverify-replay: (launch [0-9]+ failed.*)");
  if (auto n = count(run.output, failed)) {
    std::smatch first;
    std::regex_search(run.output, first, failed);
    detail += "; " + std::to_string(n) + " failed, the first: " + std::string(first[1]);
  }
  if (run.exit_code != 0 && run.exit_code != 5) detail += "; then " + lastSaid(run.output);
  return set(Status::NotReproduced, detail);
}

}  // namespace kverify::confirm
