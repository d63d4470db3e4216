// Joins kverify JSON reports and JUnit XML files for the merged page.
#include "kverify/reports/merge.hpp"

#include <set>

#include "kverify/reports/read_json.hpp"

namespace kverify::reports {
namespace {

constexpr char kByteOrderMark[] = "\xEF\xBB\xBF";  // UTF-8's, which some tools write

char first_significant(const std::string &text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  return i == std::string::npos ? '\0' : text[i];
}

bool merge_json(const std::string &name, const std::string &text, MergedReport &into, std::string &error) {
  std::optional<analysis::RunResult> run = read_json(text, error);
  if (!run) return false;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto &k : into.run.kernels) seen.insert({k.file, k.name});
  for (auto &k : run->kernels) {
    if (seen.count({k.file, k.name}))
      into.warnings.push_back("kernel '" + k.name + "' of '" + k.file + "' is in '" + name +
                              "' and in an earlier input: both are shown");
    into.run.kernels.push_back(std::move(k));
  }
  for (auto &s : run->skipped) into.run.skipped.push_back(std::move(s));
  return true;
}

}  // namespace

bool merge_input(const std::string &name, const std::string &input, MergedReport &into, std::string &error) {
  const std::string text = input.rfind(kByteOrderMark, 0) == 0 ? input.substr(3) : input;
  switch (first_significant(text)) {
    case '{':
      if (merge_json(name, text, into, error)) return true;
      error = "'" + name + "' is not a kverify JSON report: " + error;
      return false;
    case '<':
      if (auto tests = read_junit(text, error)) {
        for (auto &t : *tests) into.properties.push_back(std::move(t));
        return true;
      }
      error = "'" + name + "' is not JUnit XML: " + error;
      return false;
    case '\0': error = "'" + name + "' is empty"; return false;
    default: error = "'" + name + "' is neither a kverify JSON report nor JUnit XML"; return false;
  }
}

}  // namespace kverify::reports
