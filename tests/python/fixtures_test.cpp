// The Python fixtures (tests/fixtures/python) end to end through the kverify binary: each
// kernel's verdict against the `# expect:` header, the pinned locations (`# at:`), and every
// location of the JSON report in the .py file, its excerpt the Python text.
#include "run_kverify.hpp"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <dirent.h>
#include <regex>
#include <set>
#include <sstream>

namespace {

using kverify_cli::runKverify;
using kverify_cli::slurp;

struct Expect {
  std::string kernel, verdict, array;
  std::vector<std::vector<std::string>> pins;  // per finding: sorted "line:col" (alternatives joined by |)
  std::vector<std::string> pin_text;
};

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<Expect> header(const std::string &path) {
  std::vector<Expect> out;
  std::regex expect(R"(#\s*expect:\s*(?:(.+?):\s+)?([\w-]+)(?:\s+on\s+(\S+))?\s*)");
  std::regex at(R"(#\s*at:\s*(?:(.+?):\s+)?((?:\d+:\d+[ ;|]*)+))");
  for (const std::string &l : lines(slurp(path))) {
    if (l.rfind("#", 0) != 0) break;
    std::smatch m;
    if (std::regex_match(l, m, expect)) out.push_back({m[1], m[2], m[3], {}, {}});
    else if (std::regex_match(l, m, at)) {
      for (Expect &e : out)
        if (e.kernel == std::string(m[1])) e.pin_text.push_back(m[2]);
    }
  }
  return out;
}

// "L:C L:C | L:C L:C" -> each alternative sorted
std::vector<std::string> alternatives(const std::string &pin) {
  std::vector<std::string> alts;
  std::istringstream in(pin);
  for (std::string alt; std::getline(in, alt, '|');) {
    std::istringstream words(alt);
    std::vector<std::string> locs;
    for (std::string w; words >> w;) locs.push_back(w);
    std::sort(locs.begin(), locs.end());
    std::string joined;
    for (const std::string &w : locs) joined += w + " ";
    alts.push_back(joined);
  }
  return alts;
}

std::vector<std::string> fixtures() {
  std::vector<std::string> out;
  if (DIR *d = opendir(KVERIFY_PY_FIXTURES)) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 3 && n.substr(n.size() - 3) == ".py") out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every object with file/line/col in `v` is in `py`, inside the file.
void checkLocations(const llvm::json::Value &v, const std::string &py, const std::vector<std::string> &text,
                    const std::string &where) {
  if (const llvm::json::Object *o = v.getAsObject()) {
    if (auto file = o->getString("file")) {
      EXPECT_EQ(file->str(), py) << where;
      int64_t line = o->getInteger("line").value_or(0), col = o->getInteger("col").value_or(0);
      EXPECT_GE(line, 1) << where;
      EXPECT_LE(line, static_cast<int64_t>(text.size())) << where;
      if (line >= 1 && line <= static_cast<int64_t>(text.size())) {
        EXPECT_LE(col, static_cast<int64_t>(text[line - 1].size()) + 1) << where << " line " << line;
      }
      // an access's text starts where it points, in the Python line
      if (auto t = o->getString("text"); t && line >= 1 && line <= static_cast<int64_t>(text.size()) && col >= 1) {
        std::string access = t->str(), at = text[line - 1].substr(static_cast<size_t>(col - 1));
        size_t n = access.find_first_of("[(.");
        std::string head = access.substr(0, n);
        if (head.rfind("_raw_", 0) != 0 && !head.empty()) {
          EXPECT_EQ(at.substr(0, head.size()), head) << where << " at " << line << ":" << col;
        }
      }
    }
    for (const auto &kv : *o) checkLocations(kv.second, py, text, where);
  } else if (const llvm::json::Array *a = v.getAsArray()) {
    for (const llvm::json::Value &e : *a) checkLocations(e, py, text, where);
  }
}

}  // namespace

TEST(PythonFixtures, VerdictsLocationsAndPins) {
  std::vector<std::string> files = fixtures();
  ASSERT_GE(files.size(), 10u);
  for (const std::string &name : files) {
    SCOPED_TRACE(name);
    std::vector<Expect> expects = header(std::string(KVERIFY_PY_FIXTURES) + "/" + name);
    ASSERT_FALSE(expects.empty()) << "no '# expect:' header";
    kverify_cli::CliRun r = runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES, "--no-cache --format=json " + name,
                                       std::string(KVERIFY_PY_OUT) + "/" + name);
    llvm::Expected<llvm::json::Value> report = llvm::json::parse(r.out);
    ASSERT_TRUE(bool(report)) << r.err;
    const llvm::json::Array *kernels = report->getAsObject()->getArray("kernels");
    ASSERT_TRUE(kernels);
    ASSERT_FALSE(kernels->empty()) << r.err;
    checkLocations(*report, name, lines(slurp(std::string(KVERIFY_PY_FIXTURES) + "/" + name)), name);
    for (const Expect &e : expects) {
      SCOPED_TRACE(e.kernel.empty() ? "(every kernel)" : e.kernel);
      bool found = false;
      for (const llvm::json::Value &kv : *kernels) {
        const llvm::json::Object &k = *kv.getAsObject();
        std::string kname = k.getString("name")->str();
        if (!e.kernel.empty() && kname != e.kernel) continue;
        found = true;
        EXPECT_EQ(k.getString("verdict")->str(), e.verdict) << kname << "\n" << r.err;
        std::vector<std::string> reported;
        std::set<std::string> arrays;
        for (const llvm::json::Value &fv : *k.getArray("findings")) {
          const llvm::json::Object &f = *fv.getAsObject();
          if (f.getString("kind")->str() != e.verdict) continue;
          if (auto a = f.getString("array")) arrays.insert(a->str());
          std::vector<std::string> locs;
          for (const llvm::json::Value &av : *f.getArray("accesses"))
            locs.push_back(std::to_string(*av.getAsObject()->getInteger("line")) + ":" +
                           std::to_string(*av.getAsObject()->getInteger("col")));
          std::sort(locs.begin(), locs.end());
          std::string joined;
          for (const std::string &l : locs) joined += l + " ";
          reported.push_back(joined);
        }
        if (!e.array.empty()) {
          EXPECT_TRUE(arrays.count(e.array)) << "no finding on " << e.array;
        }
        if (e.verdict == "race" || e.verdict == "oob" || e.verdict == "divergence") {
          if (e.pin_text.empty()) {  // the other fixtures are still checked
            ADD_FAILURE() << "a '# at:' line is required";
            continue;
          }
          std::vector<std::string> pins;
          for (const std::string &p : e.pin_text) {
            std::istringstream in(p);
            for (std::string one; std::getline(in, one, ';');) pins.push_back(one);
          }
          EXPECT_EQ(reported.size(), pins.size());
          for (const std::string &rep : reported) {
            bool matched = false;
            for (const std::string &pin : pins)
              for (const std::string &alt : alternatives(pin)) matched |= alt == rep;
            EXPECT_TRUE(matched) << "reported at " << rep << " is not pinned";
          }
        }
      }
      EXPECT_TRUE(found) << "kernel not reported";
    }
  }
}
