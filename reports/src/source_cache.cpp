#include "source_cache.hpp"

#include <fstream>

namespace kverify::reports {

const std::vector<std::string> &SourceCache::lines(const std::string &file) {
  auto it = files_.find(file);
  if (it != files_.end()) return it->second;
  std::vector<std::string> out;
  std::ifstream in(file, std::ios::binary);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(std::move(l));
  }
  return files_.emplace(file, std::move(out)).first->second;
}

const std::string &SourceCache::line(const std::string &file, unsigned n) {
  static const std::string empty;
  const auto &ls = lines(file);
  return n >= 1 && n <= ls.size() ? ls[n - 1] : empty;
}

unsigned SourceCache::line_count(const std::string &file) {
  return static_cast<unsigned>(lines(file).size());
}

}  // namespace kverify::reports
