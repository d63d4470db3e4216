#include "cli/gate.hpp"

#include "kverify/reports/read_json.hpp"

#include <fstream>
#include <sstream>

namespace kverify::cli {

std::optional<Gate> parseFailOn(const std::string &list, std::string &error) {
  Gate gate;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (name.empty()) continue;
    if (name == "confirmed") {
      gate.confirmed = true;
      continue;
    }
    std::optional<analysis::Verdict> v = analysis::verdictFromName(name);
    if (!v || *v == analysis::Verdict::Verified) {
      error = "--fail-on: unknown verdict '" + name + "'";
      return std::nullopt;
    }
    gate.verdicts.insert(*v);
  }
  return gate;
}

static std::string key(const std::string &file, const std::string &kernel, analysis::Verdict v) {
  return file + "\n" + kernel + "\n" + analysis::verdictName(v);
}

bool readBaseline(const std::string &path, Gate &gate, std::string &error) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string why;
  std::optional<analysis::RunResult> run = in ? reports::read_json(text.str(), why) : std::nullopt;
  if (!run) {
    error = "cannot read baseline '" + path + "'" + (why.empty() ? "" : ": " + why);
    return false;
  }
  for (const analysis::KernelResult &k : run->kernels) gate.known.insert(key(k.file, k.name, k.verdict));
  return true;
}

bool fails(const Gate &gate, const analysis::RunResult &run) {
  for (const analysis::KernelResult &k : run.kernels) {
    if (gate.verdicts.count(k.verdict) && !gate.known.count(key(k.file, k.name, k.verdict))) return true;
    if (gate.confirmed)
      for (const analysis::Finding &f : k.findings)
        if (f.confirmation.status == analysis::Confirmation::Status::Confirmed &&
            !gate.known.count(key(k.file, k.name, f.kind)))
          return true;
  }
  return false;
}

}  // namespace kverify::cli
