// Reading a property test's output back: the failure record the suites print, and
// what RapidCheck and GoogleTest print on their own (reproduce string, skip reason,
// failure text) for tests that print no record.
#include <llvm/Support/JSON.h>

#include "kverify/reports/property_outcome.hpp"
#include "property_output.hpp"

namespace kverify::reports {
namespace {

// Same text as kFailureRecordPrefix in properties/.../failure_record.hpp (the reports
// do not depend on the property harness; a test checks that the two agree).
constexpr llvm::StringLiteral kRecordPrefix = "kverify-property-failure: ";

std::string trim(llvm::StringRef s) { return s.trim().str(); }

bool parse_record_json(llvm::StringRef json, PropertyFailure &f, std::string &error) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json);
  if (!v) {
    error = "malformed property failure record: " + llvm::toString(v.takeError());
    return false;
  }
  const llvm::json::Object *o = v->getAsObject();
  if (!o || !o->getString("property") || !o->getString("message") || !o->getString("reproduce") ||
      !o->getArray("counterexample")) {
    error =
        "malformed property failure record: needs property, message, counterexample and "
        "reproduce";
    return false;
  }
  f.property = o->getString("property")->str();
  f.passed_cases = static_cast<int>(o->getInteger("passed_cases").value_or(0));
  f.message = o->getString("message")->str();
  f.reproduce = o->getString("reproduce")->str();
  for (const llvm::json::Value &item : *o->getArray("counterexample")) {
    const llvm::json::Object *c = item.getAsObject();
    if (!c || !c->getString("type") || !c->getString("value")) {
      error = "malformed property failure record: a counterexample value without type and value";
      return false;
    }
    f.counterexample.push_back({c->getString("type")->str(), c->getString("value")->str()});
  }
  return true;
}

// The lines GoogleTest prints for one test between "[ RUN      ] X" and the line that
// ends it with `result` ("[  FAILED  ]", "[  SKIPPED ]"); "" when absent.
llvm::StringRef test_body(llvm::StringRef output, llvm::StringRef result) {
  size_t run = output.find("[ RUN      ] ");
  if (run == llvm::StringRef::npos) return {};
  size_t begin = output.find('\n', run);
  size_t end = output.find(result, begin);
  if (begin == llvm::StringRef::npos || end == llvm::StringRef::npos) return {};
  return output.slice(begin + 1, end);
}

}  // namespace

std::optional<PropertyFailure> parse_failure_record(const std::string &output, std::string &error) {
  error.clear();
  llvm::StringRef rest(output);
  std::optional<PropertyFailure> last;
  for (size_t at = rest.find(kRecordPrefix); at != llvm::StringRef::npos; at = rest.find(kRecordPrefix)) {
    llvm::StringRef line = rest.substr(at + kRecordPrefix.size());
    line = line.take_until([](char c) { return c == '\n'; });
    rest = rest.substr(at + kRecordPrefix.size() + line.size());
    PropertyFailure f;
    if (!parse_record_json(line.rtrim("\r"), f, error)) return std::nullopt;
    last = std::move(f);
  }
  return last;
}

std::string rapidcheck_reproduce(const std::string &output) {
  constexpr llvm::StringLiteral kSetting = "RC_PARAMS=\"reproduce=";
  size_t at = llvm::StringRef(output).rfind(kSetting);
  if (at == llvm::StringRef::npos) return "";
  llvm::StringRef rest = llvm::StringRef(output).substr(at);
  size_t close = rest.find('"', kSetting.size());
  return close == llvm::StringRef::npos ? "" : rest.take_front(close + 1).str();
}

std::string gtest_failure_text(const std::string &output) { return trim(test_body(output, "[  FAILED  ]")); }

std::string gtest_skip_reason(const std::string &output) {
  llvm::StringRef body = test_body(output, "[  SKIPPED ]");
  std::string reason;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  body.split(lines, '\n');
  for (llvm::StringRef line : lines)  // drop GoogleTest's "file:line: Skipped" header
    if (!line.ends_with(": Skipped") && !line.trim().empty())
      reason += (reason.empty() ? "" : "\n") + line.str();
  return reason;
}

}  // namespace kverify::reports
