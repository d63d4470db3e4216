#pragma once
// Reads source files once and hands out their lines, for excerpts in reports.

#include <map>
#include <string>
#include <vector>

namespace kverify::reports {

class SourceCache {
public:
  // Line `line` (1-based) of `file` without its newline; empty if unreadable.
  const std::string &line(const std::string &file, unsigned line);
  unsigned line_count(const std::string &file);

private:
  const std::vector<std::string> &lines(const std::string &file);
  std::map<std::string, std::vector<std::string>> files_;
};

}  // namespace kverify::reports
