#pragma once
// The header of a fixture (README: "Fixtures"), one parser for the C++ (`//`) and Python
// (`#`) fixtures: what each kernel's verdict should be, and where its findings should be.
//
//   // expect: [KERNEL: ]VERDICT[ on ARRAY]
//   // at: [KERNEL: ]L:C L:C | L:C L:C; any of L:C L:C L:C
//
// `at:` lists the expected findings (separated by `;`), each as alternatives (`|`) of its
// accesses' locations, or with `any of` locations each access is among. The header is the
// file's first lines that start with the comment marker.
#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace kverify_test {

struct PinAlternative {
  bool any = false;                    // `any of`: every access among `locations`
  std::vector<std::string> locations;  // "line:col", sorted
};
using Pin = std::vector<PinAlternative>;  // one expected finding

struct Expect {
  std::string kernel, verdict, array;  // kernel "": every kernel of the file
  std::vector<Pin> pins;               // one per expected finding (from every `at:` line)
};

inline std::vector<std::string> splitOn(const std::string &text, char sep) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

inline std::vector<std::string> wordsOf(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

inline std::vector<Pin> parsePins(const std::string &text) {
  std::vector<Pin> pins;
  for (const std::string &finding : splitOn(text, ';')) {
    if (wordsOf(finding).empty()) continue;
    Pin pin;
    for (const std::string &alternative : splitOn(finding, '|')) {
      PinAlternative a;
      a.locations = wordsOf(alternative);
      if (a.locations.size() > 2 && a.locations[0] == "any" && a.locations[1] == "of") {
        a.any = true;
        a.locations.erase(a.locations.begin(), a.locations.begin() + 2);
      }
      std::sort(a.locations.begin(), a.locations.end());
      pin.push_back(a);
    }
    pins.push_back(pin);
  }
  return pins;
}

// "KERNEL: rest" or "rest": a kernel name ends at the first ": " (names and locations have none).
inline std::pair<std::string, std::string> kernelAndRest(const std::string &text) {
  size_t at = text.find(": ");
  if (at == std::string::npos) return {"", text};
  return {text.substr(0, at), text.substr(at + 2)};
}

// The header of `path`, whose comments start with `marker` ("//" or "#").
inline std::vector<Expect> readHeader(const std::string &path, const std::string &marker) {
  std::vector<Expect> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line) && line.rfind(marker, 0) == 0;) {
    std::string body = line.substr(marker.size());
    body.erase(0, body.find_first_not_of(" \t"));
    auto field = [&](const char *name) {
      return body.rfind(name, 0) == 0 ? std::optional<std::string>(body.substr(std::string(name).size()))
                                      : std::nullopt;
    };
    if (auto e = field("expect:")) {
      auto [kernel, rest] = kernelAndRest(*e);
      std::vector<std::string> w = wordsOf(rest);
      if (w.empty()) continue;
      Expect x;
      x.kernel = wordsOf(kernel).empty() ? "" : kernel.substr(kernel.find_first_not_of(' '));
      x.verdict = w[0];
      if (w.size() >= 3 && w[1] == "on") x.array = w[2];
      out.push_back(x);
    } else if (auto a = field("at:")) {
      auto [kernel, rest] = kernelAndRest(*a);
      std::string name = wordsOf(kernel).empty() ? "" : kernel.substr(kernel.find_first_not_of(' '));
      for (Expect &x : out)
        if (x.kernel == name)
          for (Pin &p : parsePins(rest)) x.pins.push_back(std::move(p));
    }
  }
  return out;
}

// Whether the reported findings (each its sorted access locations) are exactly the pinned
// ones: one alternative of each pin, every pin used once.
inline bool matchesPins(const std::vector<std::vector<std::string>> &reported, const std::vector<Pin> &pins) {
  if (reported.size() != pins.size()) return false;
  std::vector<bool> used(pins.size(), false);
  for (const std::vector<std::string> &r : reported) {
    bool found = false;
    for (size_t i = 0; i < pins.size() && !found; ++i) {
      if (used[i]) continue;
      for (const PinAlternative &a : pins[i]) {
        bool ok = a.any ? std::all_of(r.begin(), r.end(),
                                      [&](const std::string &l) {
                                        return std::find(a.locations.begin(), a.locations.end(), l) !=
                                               a.locations.end();
                                      })
                        : r == a.locations;
        if (ok) {
          used[i] = found = true;
          break;
        }
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace kverify_test
