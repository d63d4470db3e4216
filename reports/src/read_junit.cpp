// JUnit XML (ctest --output-junit, GoogleTest's --gtest_output=xml) into property
// outcomes, with expat. Only what the report needs is read: each <testcase>'s name,
// classname, time and status, its <failure>/<error>/<skipped> children and its
// <system-out>/<system-err> text; other elements are ignored.
#include <expat.h>

#include <cstdlib>
#include <memory>

#include "kverify/reports/property_outcome.hpp"
#include "property_output.hpp"

namespace kverify::reports {
namespace {

struct Case {
  std::string name, classname, status;
  double time_s = 0;
  bool failed = false, skipped = false;
  std::string result_message;  // the failure's or skip's message attribute
  std::string result_text;     // the failure's text
  std::string output;          // system-out and system-err
};

struct Parser {
  XML_Parser handle = nullptr;
  std::vector<PropertyOutcome> outcomes;
  std::optional<Case> current;
  std::string *text = nullptr;  // where character data goes now
  int depth = 0;
  std::string error;
};

std::string attribute(const XML_Char **attrs, const char *name) {
  for (int i = 0; attrs[i]; i += 2)
    if (std::string(attrs[i]) == name) return attrs[i + 1];
  return "";
}

// "Suite.Name" (CTest names GoogleTest's tests so; classname repeats it) or a
// GoogleTest report's classname "Suite" with name "Name".
void split_name(const Case &c, PropertyOutcome &o) {
  if (!c.classname.empty() && c.classname != c.name) {
    o.suite = c.classname;
    o.name = c.name;
    return;
  }
  size_t dot = c.name.find('.');
  o.suite = dot == std::string::npos ? "" : c.name.substr(0, dot);
  o.name = dot == std::string::npos ? c.name : c.name.substr(dot + 1);
}

bool finish(Parser &p, const Case &c, std::string &error) {
  PropertyOutcome o;
  split_name(c, o);
  o.time_s = c.time_s;
  const std::string all = c.output + "\n" + c.result_text;
  if (c.failed || c.status == "fail") {
    o.status = "failed";
    if (std::optional<PropertyFailure> f = parse_failure_record(all, error)) {
      o.message = f->message;
      o.counterexample = f->counterexample;
      o.reproduce = f->reproduce;
    } else if (!error.empty()) {
      error = "test '" + c.name + "': " + error;
      return false;
    } else {  // not a property of ours: what GoogleTest and RapidCheck printed
      o.message = gtest_failure_text(c.output);
      if (o.message.empty()) o.message = !c.result_text.empty() ? c.result_text : c.result_message;
      o.reproduce = rapidcheck_reproduce(all);
    }
  } else if (c.skipped || c.status == "notrun" || c.status == "disabled" || c.status == "skipped") {
    o.status = "skipped";
    o.message = gtest_skip_reason(c.output);
    if (o.message.empty()) o.message = c.result_message;
  } else {
    o.status = "passed";
  }
  p.outcomes.push_back(std::move(o));
  return true;
}

// Stops at the first error: the rest of the file is not read.
void stop(Parser &p, std::string error) {
  p.error = std::move(error);
  XML_StopParser(p.handle, XML_FALSE);
}

void on_start(void *data, const XML_Char *element, const XML_Char **attrs) {
  auto &p = *static_cast<Parser *>(data);
  const std::string name = element;
  if (p.depth++ == 0 && name != "testsuites" && name != "testsuite")
    return stop(p, "the root element is <" + name + ">, not <testsuites> or <testsuite>");
  if (name == "testcase") {
    p.current.emplace();
    p.current->name = attribute(attrs, "name");
    p.current->classname = attribute(attrs, "classname");
    p.current->status = attribute(attrs, "status");
    p.current->time_s = std::strtod(attribute(attrs, "time").c_str(), nullptr);
    if (p.current->name.empty()) stop(p, "a <testcase> without a name attribute");
    return;
  }
  if (!p.current) return;
  if (name == "failure" || name == "error") {
    p.current->failed = true;
    p.current->result_message = attribute(attrs, "message");
    p.text = &p.current->result_text;
  } else if (name == "skipped") {
    p.current->skipped = true;
    p.current->result_message = attribute(attrs, "message");
  } else if (name == "system-out" || name == "system-err") {
    p.text = &p.current->output;
  }
}

void on_end(void *data, const XML_Char *element) {
  auto &p = *static_cast<Parser *>(data);
  --p.depth;
  p.text = nullptr;
  if (std::string(element) == "testcase" && p.current) {
    std::string error;
    if (!finish(p, *p.current, error)) stop(p, error);
    p.current.reset();
  }
}

void on_text(void *data, const XML_Char *s, int len) {
  auto &p = *static_cast<Parser *>(data);
  if (p.text) p.text->append(s, static_cast<size_t>(len));
}

}  // namespace

std::optional<std::vector<PropertyOutcome>> read_junit(const std::string &xml, std::string &error) {
  std::unique_ptr<XML_ParserStruct, void (*)(XML_Parser)> parser(XML_ParserCreate("UTF-8"), XML_ParserFree);
  Parser p;
  p.handle = parser.get();
  XML_SetUserData(parser.get(), &p);
  XML_SetElementHandler(parser.get(), on_start, on_end);
  XML_SetCharacterDataHandler(parser.get(), on_text);
  const bool ok = XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_OK;
  if (!p.error.empty()) {
    error = "line " + std::to_string(XML_GetCurrentLineNumber(parser.get())) + ": " + p.error;
    return std::nullopt;
  }
  if (!ok) {
    error = "line " + std::to_string(XML_GetCurrentLineNumber(parser.get())) + ": " +
            XML_ErrorString(XML_GetErrorCode(parser.get()));
    return std::nullopt;
  }
  return std::move(p.outcomes);
}

}  // namespace kverify::reports
