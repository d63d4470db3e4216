#pragma once
// Message passing through a flag: a thread writes data, then sets a flag with a release
// (an atomic store with release order, or any atomic store after a __threadfence()); a
// thread of another block reads the flag with an acquire (an atomic load with acquire
// order, or any atomic read and a __threadfence() after it) and reads the data only if the
// flag says it is there. The write happens before the read: they do not race.
//
// Sound where, besides the reader's test of the flag it acquired:
// - the flag array starts zeroed (--zero-init, a premise the verdict states), and every
//   write to it is an atomic store or exchange; a value v != 0 "publishes" a data array D
//   when every store that may write v to flag[i] is a release that follows, in the same
//   thread and iteration, a write of D[i] (so a reader that acquires v from flag[i] reads
//   D[i] after that write);
// - D is written once per element (no two write events share an index): the write the
//   race check pairs with the read is the one that was published.
// Only the values a read may follow are asked about: where the read's path with the value
// read replaced by v folds to false, no execution reads D after acquiring v (every race
// query conjoins the read's path), so whether v publishes D does not matter there.
#include "analysis/checker.hpp"

#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace kverify::analysis::detail {

class Publications {
public:
  explicit Publications(Checker &c) : checker(c) {}
  // Where thread T's read `r` (of one element of a data array) comes after T acquired the
  // element's publication: a formula over T's symbols (false where nothing applies).
  z3::expr readAfterAcquire(const Thread &T, const AccessEv &r);
  // A flag, written only by atomic stores, that `r` follows an acquire of but that is not
  // said to start zeroed (--zero-init): the hint a race on r's array deserves.
  std::optional<std::string> unzeroedFlag(const Thread &T, const AccessEv &r) const;
  // The premises the verdict rests on, where some read was ordered this way.
  const std::set<std::string> &premises() const { return premises_; }

private:
  Checker &checker;
  std::map<unsigned, bool> write_once_;                                 // by data array
  std::map<std::tuple<unsigned, unsigned, uint64_t>, bool> publishes_;  // (flag, data, value)
  std::set<std::string> premises_;
  bool writeOnce(unsigned data);
  bool publishes(unsigned flag, unsigned data, uint64_t value);
  std::set<uint64_t> storedConstants(unsigned flag, bool &every) const;
  bool flagArray(unsigned flag) const;
  bool storesOnly(unsigned flag) const;
  bool acquiredBefore(const Thread &T, const AccessEv &a, const z3::expr &value, const AccessEv &r) const;
  bool fenced(const Thread &T, const AccessEv &from, const AccessEv &to) const;
};

}  // namespace kverify::analysis::detail
