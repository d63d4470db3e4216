#include "frontend/launch_spelling.hpp"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <cctype>

namespace kverify::frontend {
namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Three `c` from `i` with only white space between them and some white space: the end.
std::optional<size_t> spacedTriple(llvm::StringRef t, size_t i, char c) {
  size_t seen = 0, j = i;
  bool spaced = false;
  while (j < t.size() && seen < 3) {
    if (t[j] == c)
      ++seen;
    else if (space(t[j]) && seen > 0)
      spaced = true;
    else
      return std::nullopt;
    ++j;
  }
  if (seen < 3 || !spaced || (j < t.size() && t[j] == c)) return std::nullopt;
  return j;
}

// Rewrites t[i, end) (three `c` and white space) as the three chevrons first.
void join(std::string &out, size_t i, size_t end, char c) {
  std::string spaces;
  for (size_t j = i; j < end; ++j)
    if (out[j] != c) spaces += out[j];
  out.replace(i, end - i, std::string(3, c) + spaces);
}

bool afterOperatorKeyword(llvm::StringRef t, size_t i) {
  llvm::StringRef before = t.substr(0, i).rtrim();
  return before.ends_with("operator") &&
         (before.size() == 8 ||
          !(std::isalnum((unsigned char)before[before.size() - 9]) || before[before.size() - 9] == '_'));
}

// The file as read (its buffer handed on without a copy), or its text with the chevrons
// joined.
class JoinedFile : public llvm::vfs::File {
public:
  JoinedFile(std::unique_ptr<llvm::vfs::File> file, std::unique_ptr<llvm::MemoryBuffer> read,
             std::optional<std::string> joined, std::vector<uint64_t> *digests)
      : file_(std::move(file)), read_(std::move(read)), joined_(std::move(joined)), digests_(digests) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return file_->status(); }
  llvm::ErrorOr<std::string> getName() override { return file_->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &name, int64_t size,
                                                               bool null_terminated,
                                                               bool is_volatile) override {
    if (joined_) return llvm::MemoryBuffer::getMemBufferCopy(*joined_, name);
    if (read_) return std::move(read_);
    // asked again: read again (and those bytes are read too)
    auto again = file_->getBuffer(name, size, null_terminated, is_volatile);
    if (again && digests_) digests_->push_back(llvm::xxh3_64bits((*again)->getBuffer()));
    return again;
  }
  std::error_code close() override { return file_->close(); }

private:
  std::unique_ptr<llvm::vfs::File> file_;
  std::unique_ptr<llvm::MemoryBuffer> read_;
  std::optional<std::string> joined_;
  std::vector<uint64_t> *digests_;
};

class JoiningFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  JoiningFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::vector<uint64_t> *digests)
      : ProxyFileSystem(std::move(fs)), digests_(digests) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override {
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> file = ProxyFileSystem::openFileForRead(path);
    // the precompiled prelude is no source (its inputs' digests are added where it is used)
    if (!file || llvm::StringRef(path.str()).ends_with(".pch")) return file;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = (*file)->getBuffer(path.str());
    if (!buffer) return buffer.getError();
    if (digests_) digests_->push_back(llvm::xxh3_64bits((*buffer)->getBuffer()));
    std::optional<std::string> joined = joinLaunchChevrons((*buffer)->getBuffer());
    return std::unique_ptr<llvm::vfs::File>(
        new JoinedFile(std::move(*file), std::move(*buffer), std::move(joined), digests_));
  }

private:
  std::vector<uint64_t> *digests_;
};

}  // namespace

size_t skipCommentOrLiteral(llvm::StringRef t, size_t i) {
  if (t.substr(i).starts_with("//")) return std::min(t.find('\n', i), t.size());
  if (t.substr(i).starts_with("/*")) {
    size_t e = t.find("*/", i + 2);
    return e == llvm::StringRef::npos ? t.size() : e + 2;
  }
  bool digit_separator = t[i] == '\'' && i > 0 && std::isalnum((unsigned char)t[i - 1]);
  if (t[i] == '"' || (t[i] == '\'' && !digit_separator)) {
    size_t j = i + 1;
    while (j < t.size() && t[j] != t[i] && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
    return std::min(j + 1, t.size());
  }
  return i;
}

std::optional<std::string> joinLaunchChevrons(llvm::StringRef text) {
  if (!text.contains("<<")) return std::nullopt;
  std::string out = text.str();
  bool changed = false, in_launch = false;
  for (size_t i = 0; i < out.size();) {
    llvm::StringRef t = out;
    if (size_t e = skipCommentOrLiteral(t, i); e != i) {
      i = e;
      continue;
    }
    if (out[i] == ';') in_launch = false;  // a launch's configuration has none
    char c = in_launch ? '>' : '<';
    if (out[i] == c) {
      std::optional<size_t> end = spacedTriple(t, i, c);
      if (end && (in_launch || !afterOperatorKeyword(t, i))) {
        join(out, i, *end, c);
        changed = true;
        in_launch = !in_launch;
        i = *end;
        continue;
      }
      if (in_launch && t.substr(i).starts_with(">>>")) in_launch = false;  // closed unspaced
      // skip the whole run of the chevron (a `>>>` or `<<<` already joined)
      while (i < out.size() && out[i] == c) ++i;
      continue;
    }
    ++i;
  }
  if (!changed) return std::nullopt;
  return out;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> withJoinedLaunchChevrons(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::vector<uint64_t> *read) {
  return llvm::makeIntrusiveRefCnt<JoiningFileSystem>(std::move(fs), read);
}

}  // namespace kverify::frontend
