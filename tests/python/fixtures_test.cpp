// The Python fixtures (tests/fixtures/python) end to end through the kverify binary: each
// kernel's verdict against the `# expect:` header, the pinned locations (`# at:`), and every
// location of the JSON report in the .py file, its excerpt the Python text.
#include "run_kverify.hpp"
#include "../support/fixture_header.hpp"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <dirent.h>
#include <set>
#include <sstream>

namespace {

using kverify_cli::runKverify;
using kverify_cli::slurp;

using kverify_test::Expect;

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
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
      if (auto t = o->getString("text");
          t && line >= 1 && line <= static_cast<int64_t>(text.size()) && col >= 1) {
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
    std::vector<Expect> expects =
        kverify_test::readHeader(std::string(KVERIFY_PY_FIXTURES) + "/" + name, "#");
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
        std::vector<std::vector<std::string>> reported;
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
          reported.push_back(locs);
        }
        if (!e.array.empty()) { EXPECT_TRUE(arrays.count(e.array)) << "no finding on " << e.array; }
        if (e.verdict == "race" || e.verdict == "oob" || e.verdict == "divergence") {
          if (e.pins.empty()) {  // the other fixtures are still checked
            ADD_FAILURE() << "a '# at:' line is required";
            continue;
          }
          std::string got;
          for (const auto &r : reported) {
            got += got.empty() ? "" : "; ";
            for (const std::string &l : r) got += l + " ";
          }
          EXPECT_TRUE(kverify_test::matchesPins(reported, e.pins))
              << "findings at " << got << "do not match the # at: pins";
        }
      }
      EXPECT_TRUE(found) << "kernel not reported";
    }
  }
}
